/*
 * handoff.h - the step's descriptor, made once per step and node
 * (init_post_opt, euid 0), put into the environment every task inherits
 * (user_init) and checked for each task (task_init_privileged)
 * (handoff.c).
 */
#ifndef GOV_SPANK_HANDOFF_H
#define GOV_SPANK_HANDOFF_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"
#include "report_gather.h"
#include "seal_bounded.h"

/* The step's hand-off on this node: the MUNGE credential (malloc'd), the
 * file's path, and why neither was made. */
typedef struct gov_handoff {
    char *cred;
    char file[GOV_SPANK_POLICY_PATH_MAX + 64];
    char failure[GOV_SEAL_WHY_MAX + 200];
    bool env_failed;       /* slurmstepd refused the descriptor's variable */
    uint64_t gpus;         /* the GPU grant sealed, for the step report */
} gov_handoff;

/* Bind step to this slurmstepd and hand it off as the site chose:
 * h->cred, h->file, or h->failure saying why neither was made (logged). */
void gov__handoff_step(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                       gov_handoff *h);

/* Once per step, before its tasks fork: put the step's descriptor into
 * the environment they inherit, or drop an inherited one when the step
 * has none (nothing stale verifies): active says whether the step is
 * governed.  Sets h->env_failed when slurmstepd refused it. */
void gov__handoff_env(spank_t sp, bool active, gov_handoff *h);

/* Per task: 0, or -1 to fail the task (seal=required and no descriptor in
 * its environment); marks the step report's task as sealed. */
int gov__handoff_task(spank_t sp, const gov_spank_policy *site, const gov_handoff *h,
                      const gov_report *report);

/* At the step's end: remove its file, let go of its credential. */
void gov__handoff_end(const gov_spank_policy *site, gov_handoff *h);

#endif /* GOV_SPANK_HANDOFF_H */
