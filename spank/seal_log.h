/*
 * seal_log.h - what slurmd's log says when a task starts without its
 * descriptor (seal_log.c).
 */
#ifndef GOV_SPANK_SEAL_LOG_H
#define GOV_SPANK_SEAL_LOG_H

#include "plugin.h"

/* A task starts without its descriptor (seal=optional): say why
 * at info level at most once a minute on the node (a stamp in the site's
 * run_dir), else at debug level. */
void gov_log_seal_skipped(const gov_spank_policy *site, const char *why);

#endif /* GOV_SPANK_SEAL_LOG_H */
