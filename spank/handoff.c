/* handoff.c - per task, in slurm_spank_task_init_privileged (euid 0, in
 * the forked task before exec): add the task's own binding, seal, and put
 * the credential into the task's environment.  The runtimes' variables
 * come later, in task_init (environment.c), once the task's affinity is
 * set.  The MUNGE socket is checked once per step, before any task hands
 * it a descriptor: whoever could listen there gets the plaintext. */
#include "handoff.h"
#include "capture.h"
#include "seal_log.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* why may carry MUNGE's own text: no control character reaches the log.
 * cause names it for the log's rate limit (seal_log.h). */
static int seal_failed(spank_t sp, const gov_plugin *pl, const char *cause, const char *why)
{
    char clean[GOV_SEAL_WHY_MAX + 160];

    snprintf(clean, sizeof clean, "%s", why);
    gov__text_printable(clean);
    spank_unsetenv(sp, GOV_DESCRIPTOR_ENV);
    if (pl->site.seal_required) {
        slurm_error("governor: %s; this site requires a sealed descriptor, so the task "
                    "does not start (ask the administrators to check munged)", clean);
        return -1;
    }
    gov__log_seal_skipped(&pl->site, cause, pl->step.uid, clean);
    return 0;
}

const char *gov__handoff_munge_refused(const gov_spank_policy *site)
{
    /* munged runs as root or as this user (Debian, RHEL: "munge"). */
    const struct passwd *pw = getpwnam("munge");
    const char *why;

    return gov__munge_path_check(site->munge_socket[0] ? site->munge_socket : NULL,
                                 pw ? pw->pw_uid : (uid_t)-1, &why)
               ? why
               : NULL;
}

int gov__handoff_task(spank_t sp, const gov_plugin *pl)
{
    gov_descriptor d = pl->step;
    char text[GOV_DESC_MAX_BYTES + 1], why[GOV_SEAL_WHY_MAX] = "", msg[GOV_SEAL_WHY_MAX + 160];
    char *cred = NULL;
    uint64_t ppid;
    int len, rc;

    /* This callback runs in the task's own process: its pid and start
     * time are what the runtime finds among its ancestors. */
    d.pid = (uint64_t)getpid();
    if (pl->munge_refused)
        return seal_failed(sp, pl, "socket", pl->munge_refused);
    if (gov__proc_start_read(NULL, 0, &ppid, &d.pid_start))
        return seal_failed(sp, pl, "task", "cannot read the task's start time");
    gov__proc_ns_read(&d.pid_ns, &d.user_ns);
    d.created = (uint64_t)time(NULL);
    gov__capture_gpus(sp, pl->gpu_nodes_absent, &d);
    gov__report_sealed(&pl->report, sp, d.gpus_on_node);
    len = gov__descriptor_encode(&d, text, sizeof text);
    if (len < 0)
        return seal_failed(sp, pl, "size", "the descriptor does not fit its size limit");
    /* Only the job's user can decode it, so a leaked copy says nothing to
     * anyone else on the node. */
    rc = gov__seal_bounded(pl->site.munge_socket[0] ? pl->site.munge_socket : NULL,
                           pl->site.ttl_s, (uint32_t)d.uid, text, (size_t)len,
                           pl->site.munge_timeout_s * 1000, &cred, why);
    if (rc) {
        if (rc == GOV_ETIMEDOUT)
            /* munged serves every client with a few threads (2 by default):
             * a stopped daemon and a busy one look alike from here. */
            snprintf(msg, sizeof msg,
                     "MUNGE cannot seal the descriptor (munged does not answer within %us: "
                     "stopped, hung, or busy; many open connections can hold all of its "
                     "threads, see munged --num-threads)", pl->site.munge_timeout_s);
        else
            snprintf(msg, sizeof msg, "MUNGE cannot seal the descriptor (%s)",
                     why[0] ? why : gov_strerror(rc));
        return seal_failed(sp, pl, rc == GOV_ETIMEDOUT ? "munge-timeout" : "munge", msg);
    }
    rc = spank_setenv(sp, GOV_DESCRIPTOR_ENV, cred, 1);
    free(cred);
    if (rc != ESPANK_SUCCESS)
        return seal_failed(sp, pl, "setenv", "cannot set the descriptor in the task's environment");
    return 0;
}

void gov__handoff_clear(spank_t sp)
{
    spank_unsetenv(sp, GOV_DESCRIPTOR_ENV);
}
