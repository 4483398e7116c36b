/*
 * seal_log.h - what slurmd's log says when a task starts without its
 * descriptor (seal_log.c).
 */
#ifndef GOV_SPANK_SEAL_LOG_H
#define GOV_SPANK_SEAL_LOG_H

#include "parse.h"

/* A task of user uid starts without its descriptor (seal=optional) for
 * cause (a short stable name: "munge", "socket"...): say why at info level
 * at most once a minute on the node per cause and user (a stamp in the
 * site's run_dir), with how many such were not logged since; else at debug
 * level.  One user's failures never hide another's, nor one cause
 * another. */
void gov__log_seal_skipped(const gov_spank_policy *site, const char *cause, uint64_t uid,
                           const char *why);

#endif /* GOV_SPANK_SEAL_LOG_H */
