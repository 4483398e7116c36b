/*
 * environment.h - the task's runtime environment (task_init, as the user) (environment.c).
 */
#ifndef GOV_SPANK_ENVIRONMENT_H
#define GOV_SPANK_ENVIRONMENT_H

#include "plugin.h"

/* In task_init, give the task the variables of its mode
 * (runtimes: all that `governor run` sets, threads: the CPU ones) and, under
 * a CPU quota, a narrowed affinity; remove what an earlier step exported
 * that this step does not set.  Failures are logged; the task starts. */
void gov__environment_task(spank_t sp, const gov_plugin *pl);

#endif /* GOV_SPANK_ENVIRONMENT_H */
