/*
 * handoff.h - the task's sealed descriptor (task_init_privileged, euid 0) (handoff.c).
 */
#ifndef GOV_SPANK_HANDOFF_H
#define GOV_SPANK_HANDOFF_H

#include "plugin.h"

/* Seal this task's descriptor into its environment.  Returns 0,
 * or -1 to fail the task. */
int gov_handoff_task(spank_t sp, const gov_plugin *pl);

/* The governor is off for this step: drop an inherited
 * descriptor so that nothing stale verifies. */
void gov_handoff_clear(spank_t sp);

#endif /* GOV_SPANK_HANDOFF_H */
