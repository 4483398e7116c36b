/* seal_log.c - what slurmd's log says when tasks start without their
 * descriptor.  With munged down every governed task of every step fails to
 * seal: one line per task would bury the log, none above debug level would
 * hide the cause.  So info level at most once a minute per node, cause and
 * user, saying how many were folded. */
#include "seal_log.h"

#include "run_dir.h"

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include <stdio.h>
#include <unistd.h>

#define GOV_SEAL_NOTE_PERIOD_S 60

void gov__log_seal_skipped(const gov_spank_policy *site, const char *cause, uint64_t uid,
                           const char *why)
{
    const char *unused;
    char name[64];
    uint64_t folded;
    int dirfd = gov__run_dir_open(site->run_dir, true, &unused);
    bool due;

    snprintf(name, sizeof name, "seal-skipped.%s.%llu", cause, (unsigned long long)uid);
    due = gov__note_due(dirfd, name, GOV_SEAL_NOTE_PERIOD_S, &folded);
    if (dirfd >= 0)
        close(dirfd);
    if (due)
        slurm_info("governor: %s; tasks run without a descriptor (seal=optional); this message "
                   "comes at most once a minute per cause and user, %llu more of it since the "
                   "last", why, (unsigned long long)folded);
    else
        slurm_debug("governor: %s; the task runs without a descriptor", why);
}
