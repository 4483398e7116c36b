/* seal_log.c - what slurmd's log says when tasks start without their
 * descriptor.  With munged down every governed task of every step fails to
 * seal: one line per task would bury the log, none above debug level would
 * hide the cause.  So info level at most once a minute per node. */
#include "seal_log.h"
#include "run_dir.h"

#include <unistd.h>

#define GOV_SEAL_NOTE_PERIOD_S 60

void gov_log_seal_skipped(const gov_spank_policy *site, const char *why)
{
    const char *unused;
    int dirfd = gov_run_dir_open(site->run_dir, true, &unused);
    bool due = gov_note_due(dirfd, "seal-skipped", GOV_SEAL_NOTE_PERIOD_S);

    if (dirfd >= 0)
        close(dirfd);
    if (due)
        slurm_info("governor: %s; tasks run without a descriptor (seal=optional). Check munged "
                   "on this node; this message comes at most once a minute", why);
    else
        slurm_debug("governor: %s; the task runs without a descriptor", why);
}
