/*
 * handoff.h - the step's descriptor, made once per step and node
 * (init_post_opt, euid 0), put into the environment every task inherits
 * (user_init) and checked for each task (task_init_privileged)
 * (handoff.c).
 */
#ifndef GOV_SPANK_HANDOFF_H
#define GOV_SPANK_HANDOFF_H

#include "plugin.h"

/* Bind pl->step to this slurmstepd and hand it off as the site chose:
 * pl->cred, pl->file, or pl->failure saying why neither was made (logged). */
void gov__handoff_step(spank_t sp, gov_plugin *pl);

/* Once per step, before its tasks fork: put the step's descriptor into
 * the environment they inherit, or drop an inherited one when the step
 * has none (nothing stale verifies).  Sets pl->env_failed when slurmstepd
 * refused it. */
void gov__handoff_env(spank_t sp, gov_plugin *pl);

/* Per task: 0, or -1 to fail the task (seal=required and no descriptor in
 * its environment); marks the step report's task as sealed. */
int gov__handoff_task(spank_t sp, const gov_plugin *pl);

/* At the step's end: remove its file, let go of its credential. */
void gov__handoff_end(gov_plugin *pl);

#endif /* GOV_SPANK_HANDOFF_H */
