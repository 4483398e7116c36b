/*
 * handoff.h - the step's descriptor, made once per step and node
 * (init_post_opt, euid 0) and put into each task's environment
 * (task_init_privileged) (handoff.c).
 */
#ifndef GOV_SPANK_HANDOFF_H
#define GOV_SPANK_HANDOFF_H

#include "plugin.h"

/* Bind pl->step to this slurmstepd and hand it off as the site chose:
 * pl->cred, pl->file, or pl->failure saying why neither was made (logged). */
void gov__handoff_step(spank_t sp, gov_plugin *pl);

/* Put the step's descriptor into this task's environment.  Returns 0, or
 * -1 to fail the task (seal=required and no descriptor). */
int gov__handoff_task(spank_t sp, const gov_plugin *pl);

/* At the step's end: remove its file, let go of its credential. */
void gov__handoff_end(gov_plugin *pl);

/* The governor is off for this step: drop an inherited
 * descriptor so that nothing stale verifies. */
void gov__handoff_clear(spank_t sp);

#endif /* GOV_SPANK_HANDOFF_H */
