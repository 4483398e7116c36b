/*
 * handoff.h - the task's sealed descriptor (task_init_privileged, euid 0) (handoff.c).
 */
#ifndef GOV_SPANK_HANDOFF_H
#define GOV_SPANK_HANDOFF_H

#include "plugin.h"

/* Seal this task's descriptor into its environment.  Returns 0,
 * or -1 to fail the task. */
int gov__handoff_task(spank_t sp, const gov_plugin *pl);

/* Once per step (init_post_opt): NULL when the site's MUNGE socket (its
 * default when munge_socket is unset) may be trusted with descriptors,
 * else why not (static text); every task of the step then goes unsealed. */
const char *gov__handoff_munge_refused(const gov_spank_policy *site);

/* The governor is off for this step: drop an inherited
 * descriptor so that nothing stale verifies. */
void gov__handoff_clear(spank_t sp);

#endif /* GOV_SPANK_HANDOFF_H */
