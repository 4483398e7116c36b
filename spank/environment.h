/*
 * environment.h - the task's runtime environment (task_init, as the user) (environment.c).
 */
#ifndef GOV_SPANK_ENVIRONMENT_H
#define GOV_SPANK_ENVIRONMENT_H

#include "plugin.h"

/* In user_init (slurmstepd, once per step and node, before the tasks
 * fork): keep the user's values of the variables the plan reads in pl, and
 * set for every task the variables a task bound to its share of the step
 * gets, so that each task sets only what differs for it. */
void gov__environment_step(spank_t sp, gov_plugin *pl);

/* In task_init, give the task the variables of its mode
 * (runtimes: all that `governor run` sets, threads: the CPU ones) and, under
 * a CPU quota, a narrowed affinity; remove what an earlier step exported
 * that this step does not set.  Failures are logged; the task starts. */
void gov__environment_task(spank_t sp, const gov_plugin *pl);

/* At the step's end: let go of what gov__environment_step kept. */
void gov__environment_end(gov_plugin *pl);

#endif /* GOV_SPANK_ENVIRONMENT_H */
