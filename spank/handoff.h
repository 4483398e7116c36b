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
#include "seal_bounded.h"

/* The step's hand-off on this node: the MUNGE credential (malloc'd), the
 * file's path, and why neither was made. */
typedef struct gov_handoff {
    char *cred;
    char file[GOV_SPANK_POLICY_PATH_MAX + 64];
    char failure[GOV_SEAL_WHY_MAX + 200];   /* for slurmd's log: may name paths */
    char told[GOV_SEAL_WHY_MAX + 200];      /* for the user: names none */
    char advice[GOV_MODE_HELP_MAX];  /* what a refused task's user is told to do */
    bool due;              /* the step is governed: each task should get one */
    bool env_failed;       /* slurmstepd refused the descriptor's variable */
    uint64_t gpus;         /* the GPU grant sealed, for the step report */
    uint64_t uid;          /* the step's user, whose failures the log folds */
    /* The seal under way from init_post_opt to user_init, and each
     * hand-off's failure (0: MUNGE, 1: the file) until both are known. */
    bool sealing;
    gov_seal_job seal;
    const char *cause[2];
    char msg[2][GOV_SEAL_WHY_MAX + 200];
    const char *log_cause; /* a failure slurmd's log has yet to say */
} gov_handoff;

/* Bind step to this slurmstepd and hand it off as the site chose: the
 * file written (h->file), the MUNGE seal started, its credential taken by
 * gov__handoff_env; where neither is made h->failure says why (logged). */
void gov__handoff_step(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                       gov_handoff *h);

/* Once per step, before its tasks fork: take the seal's credential (h->cred,
 * or h->failure, logged, where neither hand-off was made), then put the
 * step's descriptor into the environment they inherit, or drop an
 * inherited one when the step has none (nothing stale verifies): active
 * says whether the step is governed.  Sets h->env_failed when slurmstepd
 * refused it. */
void gov__handoff_env(spank_t sp, const gov_spank_policy *site, bool active, gov_handoff *h);

/* As root (task_post_fork, exit): say in slurmd's log why neither hand-off
 * was made, once, where gov__handoff_env found it as the user. */
void gov__handoff_log(const gov_spank_policy *site, gov_handoff *h);

/* init_post_opt: the step should be governed but has no descriptor to hand
 * off, for the reason why (its facts unreadable, a --governor value that
 * does not parse), which each task says under seal=required, with advice. */
void gov__handoff_missing(gov_handoff *h, const char *why, const char *advice);

/* Per task, in task_init_privileged, which runs in the task's own process
 * (forked from slurmstepd, not yet exec'd): whether the task holds the
 * step's descriptor.  Under seal=required a task of a governed step
 * without it does not start: the process ends with status 1, as Slurm
 * ends it for a `required` plugin's -1, since an `optional` plugin's -1
 * is ignored (the line docs/rollout.md gives is `optional`). */
bool gov__handoff_task(const gov_spank_policy *site, const gov_handoff *h);

/* At the step's end: remove its file, let go of its credential. */
void gov__handoff_end(const gov_spank_policy *site, gov_handoff *h);

#endif /* GOV_SPANK_HANDOFF_H */
