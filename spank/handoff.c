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
 * The seal runs in a child while slurmstepd sets the step up (its cgroups,
 * its I/O to srun); in user_init, still once, before the tasks fork, its
 * credential is taken and what was made put into the environment every
 * task inherits (always overwriting what an enclosing step left).
 * user_init runs as the user, so a failure found there is logged at the
 * first task's fork, as root (the log's rate limit keeps its stamps in
 * run_dir).  Not per task: setting a variable costs
 * slurmstepd a 256 KiB buffer, which a forked task pays for in page
 * faults.  Per task, in task_init_privileged: end the task when the site
 * requires a descriptor and none reached it. */
#include "handoff.h"
#include "evidence.h"
#include "run_dir.h"
#include "seal_log.h"

#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *munge_refused(const gov_spank_policy *site)
{
    const char *why;

    return gov__munge_path_check(site->munge_socket[0] ? site->munge_socket : NULL,
                                 gov__munge_user(), &why)
               ? why
               : NULL;
}

/* What a refused task's user is told of each cause: no path, no MUNGE
 * words (they may name its socket); slurmd's log has the whole reason. */
static const struct {
    const char *cause, *told;
} told[] = {
    { "socket", "the MUNGE socket is not one root may trust" },
    { "munge", "MUNGE cannot seal the descriptor (munged refused or cannot be reached)" },
    { "file", "the descriptor file cannot be written" },
    { "stepd", "slurmstepd's start time cannot be read" },
    { "size", "the descriptor does not fit its size limit" },
};

/* Why no task of the step gets a descriptor, for slurmd's log
 * (gov__handoff_log: at most once a minute per cause and user; under
 * seal=required once per step) and, under seal=required, for each task to
 * tell its user without a path as it fails. */
static void failed(const gov_spank_policy *site, gov_handoff *h, const char *cause)
{
    h->log_cause = cause;
    if (!site->seal_required)
        return;
    for (size_t i = 0; i < sizeof told / sizeof told[0]; i++)
        if (!strcmp(told[i].cause, cause))
            snprintf(h->told, sizeof h->told, "%s", told[i].told);
    /* A timeout's words name no path, and say what to look at. */
    if (!h->told[0])
        snprintf(h->told, sizeof h->told, "%s", h->failure);
    snprintf(h->advice, sizeof h->advice, "%s",
             site->handoff_munge ? "ask the administrators to check munged; slurmd's log on the "
                                   "node says why"
                                 : "ask the administrators: slurmd's log on the node says why");
}

/* Start sealing text, or say why not into msg: the socket is checked
 * first (whoever could listen there gets the plaintext). */
static const char *seal_start(const gov_spank_policy *site, const gov_descriptor *step,
                              gov_handoff *h, const char *text, size_t len, char *msg,
                              size_t cap)
{
    const char *refused = munge_refused(site);
    int rc;

    if (refused) {
        snprintf(msg, cap, "%s", refused);
        return "socket";
    }
    /* Only the job's user can decode it, so a leaked copy says nothing to
     * anyone else on the node. */
    rc = gov__seal_start(site->munge_socket[0] ? site->munge_socket : NULL, site->ttl_s,
                         (uint32_t)step->uid, text, len, site->munge_timeout_s * 1000, &h->seal);
    if (!rc) {
        h->sealing = true;
        return NULL;
    }
    snprintf(msg, cap, "MUNGE cannot seal the descriptor (%s)", gov_strerror(rc));
    return "munge";
}

/* The seal's answer into h->cred, or why not into msg. */
static const char *seal_finish(const gov_spank_policy *site, gov_handoff *h, char *msg,
                               size_t cap)
{
    char why[GOV_SEAL_WHY_MAX] = "";
    int rc = gov__seal_finish(&h->seal, &h->cred, why);

    h->sealing = false;
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

/* The file into h->file, or why not into msg. */
static const char *write_file(const gov_spank_policy *site, gov_handoff *h, const char *text,
                              size_t len, char *msg,
                              size_t cap)
{
    const char *why;
    int rc = gov__step_file_write(site->run_dir, text, len, h->file, sizeof h->file, &why);

    if (!rc)
        return NULL;
    h->file[0] = '\0';
    snprintf(msg, cap, "cannot write the descriptor file in run_dir %s (%s: %s)",
             site->run_dir, why, gov_strerror(rc));
    return "file";
}

/* Both hand-offs' outcomes known: a failed one is only debug news where the
 * other was made; where neither was, why is logged (failed()). */
static void settle(const gov_spank_policy *site, gov_handoff *h)
{
    for (int i = 0; i < 2; i++) {
        if (!h->cause[i])
            continue;
        /* MUNGE's own words may carry anything: no control character
         * reaches the log. */
        gov__text_printable(h->msg[i]);
        if (h->cred || h->file[0]) {
            /* The other hand-off was made: the tasks get their budget. */
            slurm_debug("governor: %s; the tasks get the descriptor the other way", h->msg[i]);
            continue;
        }
        _Static_assert(sizeof h->failure == sizeof h->msg[i], "a message fits the failure");
        memcpy(h->failure, h->msg[i], sizeof h->failure);
        failed(site, h, h->cause[i]);
    }
}

void gov__handoff_step(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                       gov_handoff *h)
{
    gov_descriptor d = *step;
    char text[GOV_DESC_MAX_BYTES + 1];
    uint64_t ppid;
    int len;

    (void)sp;
    h->cred = NULL;
    h->file[0] = h->failure[0] = h->advice[0] = h->told[0] = '\0';
    h->msg[0][0] = h->msg[1][0] = '\0';
    h->cause[0] = h->cause[1] = h->log_cause = NULL;
    h->due = true;
    h->env_failed = h->sealing = false;
    h->uid = step->uid;
    /* Every task of the step is a child of this process. */
    d.pid = (uint64_t)getpid();
    if (gov__proc_start_read(NULL, 0, &ppid, &d.pid_start)) {
        snprintf(h->failure, sizeof h->failure, "cannot read slurmstepd's start time");
        failed(site, h, "stepd");
        gov__handoff_log(site, h);
        return;
    }
    gov__proc_ns_read(&d.pid_ns, &d.user_ns, &d.cgroup_ns);
    d.created = (uint64_t)time(NULL);
    h->gpus = d.gpus_on_node;
    len = gov__descriptor_encode(&d, text, sizeof text);
    if (len < 0) {
        snprintf(h->failure, sizeof h->failure, "the descriptor does not fit its size limit");
        failed(site, h, "size");
        gov__handoff_log(site, h);
        return;
    }
    /* munged answers while slurmstepd sets the step up: the credential is
     * taken in user_init (gov__handoff_env), off the launch's path. */
    if (site->handoff_munge)
        h->cause[0] = seal_start(site, step, h, text, (size_t)len, h->msg[0], sizeof h->msg[0]);
    if (site->handoff_file)
        h->cause[1] = write_file(site, h, text, (size_t)len, h->msg[1], sizeof h->msg[1]);
    if (!h->sealing) {
        settle(site, h);
        gov__handoff_log(site, h);
    }
}

static void clear(spank_t sp)
{
    spank_unsetenv(sp, GOV_DESCRIPTOR_ENV);
    spank_unsetenv(sp, GOV_DESCRIPTOR_FILE_ENV);
}

void gov__handoff_log(const gov_spank_policy *site, gov_handoff *h)
{
    if (!h->log_cause)
        return;
    if (!site->seal_required)
        gov__log_seal_skipped(site, h->log_cause, h->uid, h->failure);
    else
        slurm_info("governor: %s; this site requires a sealed descriptor, so this step's tasks "
                   "do not start", h->failure);
    h->log_cause = NULL;
}

void gov__handoff_env(spank_t sp, const gov_spank_policy *site, bool active, gov_handoff *h)
{
    if (h->sealing) {
        h->cause[0] = seal_finish(site, h, h->msg[0], sizeof h->msg[0]);
        settle(site, h);
    }
    h->env_failed = false;
    if (!active || (!h->cred && !h->file[0])) {
        clear(sp);
        return;
    }
    if ((h->cred ? spank_setenv(sp, GOV_DESCRIPTOR_ENV, h->cred, 1)
                  : spank_unsetenv(sp, GOV_DESCRIPTOR_ENV)) != ESPANK_SUCCESS ||
        (h->file[0] ? spank_setenv(sp, GOV_DESCRIPTOR_FILE_ENV, h->file, 1)
                     : spank_unsetenv(sp, GOV_DESCRIPTOR_FILE_ENV)) != ESPANK_SUCCESS) {
        clear(sp);
        h->env_failed = true;
    }
}

void gov__handoff_missing(gov_handoff *h, const char *why, const char *advice)
{
    h->due = true;
    snprintf(h->advice, sizeof h->advice, "%s", advice);
    snprintf(h->failure, sizeof h->failure, "%s", why);
    snprintf(h->told, sizeof h->told, "%s", why);
}

/* The task does not start.  Slurm fails a task for task_init_privileged's
 * -1 only from a `required` plugin (plugstack.c's _do_call_stack ignores an
 * `optional` one's), so this ends the task's process itself, which is what
 * Slurm does after a required plugin's -1 (slurmstepd's mgr.c: _exit(1) on
 * 22.05, fatal() from 24.11 on, in the child it forked for the task).  The
 * message reaches slurmd's log and the user's srun. */
static _Noreturn void refuse(const char *fmt, ...)
{
    char msg[GOV_SEAL_WHY_MAX + 512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    slurm_error("governor: %s", msg);
    _exit(1);
}

bool gov__handoff_task(const gov_spank_policy *site, const gov_handoff *h)
{
    if (!h->due)
        return false;
    if (!h->cred && !h->file[0]) {
        if (site->seal_required)
            refuse("%s; this site requires a sealed descriptor, so the task does not start (%s)",
                   h->told[0] ? h->told : h->failure[0] ? h->failure : "no descriptor was made",
                   h->advice[0] ? h->advice : "ask the administrators: slurmd's log says why");
        return false;
    }
    if (h->env_failed) {
        if (site->seal_required)
            refuse("cannot set the descriptor in the task's environment; this site requires a "
                   "sealed descriptor, so the task does not start");
        return false;
    }
    return true;
}

void gov__handoff_end(const gov_spank_policy *site, gov_handoff *h)
{
    /* A step that ended before user_init: its seal is not wanted. */
    if (h->sealing)
        gov__seal_abandon(&h->seal);
    h->sealing = false;
    if (h->file[0])
        gov__step_file_remove(site->run_dir, h->file);
    h->file[0] = '\0';
    free(h->cred);
    h->cred = NULL;
}

