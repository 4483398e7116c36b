/*
 * environment.h - the task's runtime environment (task_init, as the user) (environment.c).
 */
#ifndef GOV_SPANK_ENVIRONMENT_H
#define GOV_SPANK_ENVIRONMENT_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"
#include "report_gather.h"
#include "task_snapshot.h"
#include "topo.h"

/* The variables the plan reads (decide.h: gov__runenv_inputs), at most. */
#define GOV_ENV_INPUTS_MAX 32

/* What user_init keeps for the step's tasks on this node. */
typedef struct gov_env_step {
    /* The user's values of the variables the plan reads, as the step had
     * them before user_init set its own ("NAME=value", malloc'd, NULL
     * ended). */
    bool inputs_read;
    char *inputs[GOV_ENV_INPUTS_MAX + 1];
    /* The variables user_init set or removed for every task (names,
     * malloc'd, NULL ended): a task whose own plan leaves one alone gets
     * the user's value back. */
    char *preset[GOV_ENV_INPUTS_MAX + 1];
    /* slurmstepd's cgroup limits and the host's memory, read once for
     * every task: a task's cgroup mounts are its slurmstepd's, and the
     * host is the same. */
    gov_step_reads reads;
} gov_env_step;

/* In user_init (slurmstepd, once per step and node, before the tasks
 * fork): keep the user's values of the variables the plan reads in e, and
 * set for every task the variables a task bound to its share of the step
 * gets, so that each task sets only what differs for it. */
void gov__environment_step(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                           gov_env_step *e);

/* In task_init, give the task the variables of its mode
 * (runtimes: all that `governor run` sets, threads: the CPU ones) and, under
 * a CPU quota, a narrowed affinity; remove what an earlier step exported
 * that this step does not set.  step NULL: the step is not governed; node
 * NULL: no table to count the task's cores on.  Failures are logged; the
 * task starts. */
void gov__environment_task(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                           const gov_topo_table *node, const gov_env_step *e,
                           const gov_report *report);

/* At the step's end: let go of what gov__environment_step kept. */
void gov__environment_end(gov_env_step *e);

#endif /* GOV_SPANK_ENVIRONMENT_H */
