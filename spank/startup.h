/*
 * startup.h - slurm_spank_init's work (startup.c): the site's plugstack
 * arguments read, --governor registered, and, in slurmstepd, what the
 * site's on_init_error= makes of a failure to start.
 */
#ifndef GOV_SPANK_STARTUP_H
#define GOV_SPANK_STARTUP_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"

/* In context ctx: parse the arguments into *site (*site_ok says they
 * parsed), prepare the node's topology table in slurmd, register opt where
 * users give it.  Returns what slurm_spank_init returns: 0, or -1 where a
 * person is watching (srun, sbatch, salloc: the message is theirs) or where
 * the site's on_init_error= asks for it in slurmstepd. */
int gov__startup(spank_t sp, spank_context_t ctx, int ac, char **av, struct spank_option *opt,
                 gov_spank_policy *site, bool *site_ok);

#endif /* GOV_SPANK_STARTUP_H */
