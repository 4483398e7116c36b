/*
 * environment.h - the task's runtime environment (task_init, as the user) (environment.c).
 */
#ifndef GOV_SPANK_ENVIRONMENT_H
#define GOV_SPANK_ENVIRONMENT_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "assemble.h"
#include "parse.h"
#include "topo.h"

/* The variables the plan reads (decide.h: gov__runenv_inputs), at most. */
#define GOV_ENV_INPUTS_MAX 40

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
    /* Facts read once for every task of the step (reads_done): the same in
     * each, so a task does not read them again.  The host's memory, and
     * the step's cgroup limits as slurmstepd reads them from its own
     * cgroups (have_cgroups): Slurm puts it in the step's cgroups before
     * user_init (v1: the step's; v2: the step's "slurm" leaf beside the
     * tasks' "user" subtree) and its tasks below them, and sets limits at
     * the step's level and above, never on a task's own cgroup. */
    bool reads_done, have_cgroups;
    gov_cgroup_evidence cgroups;
    uint64_t host_total_bytes, host_available_bytes;
} gov_env_step;

/* In user_init (slurmstepd, once per step and node, before the tasks
 * fork): keep the user's values of the variables the plan reads in e, and
 * set for every task the variables a task bound to its share of the step
 * gets, so that each task sets only what differs for it. */
void gov__environment_step(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                           gov_env_step *e);

/* What a task was told, for the step report: the threads and the memory
 * per worker (GOV_UNKNOWN under threads mode); told false: nothing. */
typedef struct gov_env_told {
    bool told;
    uint64_t threads, memory_bytes;
} gov_env_told;

/* In task_init, give the task the variables of its mode
 * (runtimes: all that `governor run` sets, threads: the CPU ones) and, under
 * a CPU quota, a narrowed affinity; remove what an earlier step exported
 * that this step does not set.  step NULL: the step is not governed; node
 * NULL: no table to count the task's cores on.  What it was told goes
 * into *told.  Failures are logged; the task starts. */
void gov__environment_task(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                           const gov_topo_table *node, const gov_env_step *e, gov_env_told *told);

/* What the live task about to exec may use: its own affinity counted on
 * node (NULL: the task part stays unknown), the step's reads in e (where
 * e->reads_done; else read now) and the step's descriptor, resolved: the
 * library's snapshot without host inventory, cgroup usage, pressure,
 * accelerators and disk.  No hwloc, no MUNGE. */
void gov__environment_snapshot(const gov_descriptor *step, const gov_topo_table *node,
                               const gov_env_step *e, gov_snapshot *out);

/* At the step's end: let go of what gov__environment_step kept. */
void gov__environment_end(gov_env_step *e);

#endif /* GOV_SPANK_ENVIRONMENT_H */
