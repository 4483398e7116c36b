/* handoff.c - the step's descriptor to its tasks.
 *
 * Once per step and node, in init_post_opt (euid 0, before any task
 * forks): bind the step's facts to this slurmstepd, which every task of the
 * step descends from, then hand them off as the site chose (handoff=): a
 * MUNGE credential sealed in a child process bounded by munge_timeout, a
 * root-written file in run_dir, or both.  A descriptor is the step's
 * allocation on this node, the same for every task there, so one seal
 * serves 256 tasks as well as one.  The MUNGE socket is checked first:
 * whoever could listen there gets the plaintext.
 *
 * In user_init, still once, before the tasks fork: put what was made into
 * the environment every task inherits (always overwriting what an
 * enclosing step left).  Not per task: setting a variable costs
 * slurmstepd a 256 KiB buffer, which a forked task pays for in page
 * faults.  Per task, in task_init_privileged: fail the task when the site
 * requires a descriptor and none reached it. */
#include "handoff.h"
#include "capture.h"
#include "gpu.h"
#include "run_dir.h"
#include "seal_log.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *munge_refused(const gov_spank_policy *site)
{
    /* munged runs as root or as this user (Debian, RHEL: "munge"). */
    const struct passwd *pw = getpwnam("munge");
    const char *why;

    return gov__munge_path_check(site->munge_socket[0] ? site->munge_socket : NULL,
                                 pw ? pw->pw_uid : (uid_t)-1, &why)
               ? why
               : NULL;
}

/* The credential into pl->cred, or why not into msg. */
/* Why no task of the step gets a descriptor: in slurmd's log, at most once
 * a minute per cause and user; under seal=required each task says it as
 * it fails. */
static void failed(gov_plugin *pl, const char *cause)
{
    if (!pl->site.seal_required)
        gov__log_seal_skipped(&pl->site, cause, pl->step.uid, pl->failure);
}

static const char *seal(gov_plugin *pl, const char *text, size_t len, char *msg, size_t cap)
{
    const gov_spank_policy *site = &pl->site;
    char why[GOV_SEAL_WHY_MAX] = "";
    const char *refused = munge_refused(site);
    int rc;

    if (refused) {
        snprintf(msg, cap, "%s", refused);
        return "socket";
    }
    /* Only the job's user can decode it, so a leaked copy says nothing to
     * anyone else on the node. */
    rc = gov__seal_bounded(site->munge_socket[0] ? site->munge_socket : NULL, site->ttl_s,
                           (uint32_t)pl->step.uid, text, len, site->munge_timeout_s * 1000,
                           &pl->cred, why);
    if (!rc)
        return NULL;
    if (rc == GOV_ETIMEDOUT) {
        /* munged serves every client with a few threads (2 by default): a
         * stopped daemon and a busy one look alike from here. */
        snprintf(msg, cap,
                 "MUNGE cannot seal the descriptor (munged does not answer within %us: "
                 "stopped, hung, or busy; many open connections can hold all of its "
                 "threads, see munged --num-threads)", site->munge_timeout_s);
        return "munge-timeout";
    }
    snprintf(msg, cap, "MUNGE cannot seal the descriptor (%s)", why[0] ? why : gov_strerror(rc));
    return "munge";
}

/* The file into pl->file, or why not into msg. */
static const char *write_file(gov_plugin *pl, const char *text, size_t len, char *msg,
                              size_t cap)
{
    const char *why;
    int rc = gov__step_file_write(pl->site.run_dir, text, len, pl->file, sizeof pl->file, &why);

    if (!rc)
        return NULL;
    pl->file[0] = '\0';
    snprintf(msg, cap, "cannot write the descriptor file in run_dir %s (%s: %s)",
             pl->site.run_dir, why, gov_strerror(rc));
    return "file";
}

void gov__handoff_step(spank_t sp, gov_plugin *pl)
{
    gov_descriptor d = pl->step;
    char text[GOV_DESC_MAX_BYTES + 1], msg[2][GOV_SEAL_WHY_MAX + 200] = { "", "" };
    const char *cause[2] = { NULL, NULL };
    uint64_t ppid;
    int len;

    pl->cred = NULL;
    pl->file[0] = pl->failure[0] = '\0';
    /* Every task of the step is a child of this process. */
    d.pid = (uint64_t)getpid();
    if (gov__proc_start_read(NULL, 0, &ppid, &d.pid_start)) {
        snprintf(pl->failure, sizeof pl->failure, "cannot read slurmstepd's start time");
        failed(pl, "stepd");
        return;
    }
    gov__proc_ns_read(&d.pid_ns, &d.user_ns, &d.cgroup_ns);
    d.created = (uint64_t)time(NULL);
    gov__capture_gpus(sp, &d);
    pl->gpus = d.gpus_on_node;
    len = gov__descriptor_encode(&d, text, sizeof text);
    if (len < 0) {
        snprintf(pl->failure, sizeof pl->failure, "the descriptor does not fit its size limit");
        failed(pl, "size");
        return;
    }
    if (pl->site.handoff_munge)
        cause[0] = seal(pl, text, (size_t)len, msg[0], sizeof msg[0]);
    if (pl->site.handoff_file)
        cause[1] = write_file(pl, text, (size_t)len, msg[1], sizeof msg[1]);
    for (int i = 0; i < 2; i++) {
        if (!cause[i])
            continue;
        /* MUNGE's own words may carry anything: no control character
         * reaches the log. */
        gov__text_printable(msg[i]);
        if (pl->cred || pl->file[0]) {
            /* The other hand-off was made: the tasks get their budget. */
            slurm_debug("governor: %s; the tasks get the descriptor the other way", msg[i]);
            continue;
        }
        _Static_assert(sizeof pl->failure == sizeof msg[i], "a message fits the failure");
        memcpy(pl->failure, msg[i], sizeof pl->failure);
        failed(pl, cause[i]);
    }
}

/* The step report's GPU budget: the sealed grant only where the kernel
 * confirms it, counted as root here, in the task's device cgroup (a grant
 * a user exported on a node without gres/gpu is no budget of root's
 * record); GOV_UNKNOWN otherwise. */
static uint64_t report_gpus(uint64_t grant)
{
    gov_gpu_nodes nvidia, render;
    uint64_t n;
    bool verified;

    gov__gpu_devices_count(NULL, &nvidia, &render);
    gov__gpu_seal(grant, gov__gpu_kind(&nvidia, &render), &n, &verified);
    return verified ? n : GOV_UNKNOWN;
}

static void clear(spank_t sp)
{
    spank_unsetenv(sp, GOV_DESCRIPTOR_ENV);
    spank_unsetenv(sp, GOV_DESCRIPTOR_FILE_ENV);
}

void gov__handoff_env(spank_t sp, gov_plugin *pl)
{
    pl->env_failed = false;
    if (!pl->active || (!pl->cred && !pl->file[0])) {
        clear(sp);
        return;
    }
    if ((pl->cred ? spank_setenv(sp, GOV_DESCRIPTOR_ENV, pl->cred, 1)
                  : spank_unsetenv(sp, GOV_DESCRIPTOR_ENV)) != ESPANK_SUCCESS ||
        (pl->file[0] ? spank_setenv(sp, GOV_DESCRIPTOR_FILE_ENV, pl->file, 1)
                     : spank_unsetenv(sp, GOV_DESCRIPTOR_FILE_ENV)) != ESPANK_SUCCESS) {
        clear(sp);
        pl->env_failed = true;
    }
}

int gov__handoff_task(spank_t sp, const gov_plugin *pl)
{
    if (!pl->cred && !pl->file[0]) {
        if (pl->site.seal_required) {
            slurm_error("governor: %s; this site requires a sealed descriptor, so the task "
                        "does not start (ask the administrators to check munged)",
                        pl->failure[0] ? pl->failure : "no descriptor was made");
            return -1;
        }
        return 0;
    }
    if (pl->env_failed) {
        if (pl->site.seal_required) {
            slurm_error("governor: cannot set the descriptor in the task's environment; this "
                        "site requires a sealed descriptor, so the task does not start");
            return -1;
        }
        return 0;
    }
    gov__report_sealed(&pl->report, sp, pl->report.on ? report_gpus(pl->gpus) : GOV_UNKNOWN);
    return 0;
}

void gov__handoff_end(gov_plugin *pl)
{
    if (pl->file[0])
        gov__step_file_remove(pl->site.run_dir, pl->file);
    pl->file[0] = '\0';
    free(pl->cred);
    pl->cred = NULL;
}

