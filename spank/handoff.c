/* handoff.c - per task, in slurm_spank_task_init_privileged (euid 0, in
 * the forked task before exec): add the task's own binding, seal, and put
 * the credential into the task's environment; export thread counts. */
#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const thread_vars[] = {
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
};

/* Records the count the plugin exported, so that a later step can tell its
 * own inherited values (a batch script's, say) from the user's. */
#define GOV_THREADS_ENV "GOVERNOR_THREADS"

/* Export n threads (0: none) to every variable the user has not set
 * themselves: a variable still holding the count an earlier step exported
 * is ours to replace or remove. */
static void export_threads(spank_t sp, uint64_t n)
{
    char val[24], prev[24], cur[24];
    bool ours = spank_getenv(sp, GOV_THREADS_ENV, prev, sizeof prev) == ESPANK_SUCCESS;

    snprintf(val, sizeof val, "%llu", (unsigned long long)n);
    for (size_t i = 0; i < sizeof thread_vars / sizeof thread_vars[0]; i++) {
        bool set = spank_getenv(sp, thread_vars[i], cur, sizeof cur) == ESPANK_SUCCESS;
        if (set && !(ours && !strcmp(cur, prev)))
            continue;
        if (n)
            spank_setenv(sp, thread_vars[i], val, 1);
        else if (set)
            spank_unsetenv(sp, thread_vars[i]);
    }
    if (n)
        spank_setenv(sp, GOV_THREADS_ENV, val, 1);
    else if (ours)
        spank_unsetenv(sp, GOV_THREADS_ENV);
}

static int seal_failed(spank_t sp, const gov_plugin *pl, const char *why)
{
    spank_unsetenv(sp, GOV_DESCRIPTOR_ENV);
    if (pl->site.seal_required) {
        slurm_error("governor: %s; this site requires a sealed descriptor, so the task "
                    "does not start (ask the administrators to check munged)", why);
        return -1;
    }
    gov_log_seal_skipped(why);
    return 0;
}

int gov_handoff_task(spank_t sp, const gov_plugin *pl)
{
    gov_descriptor d = pl->step;
    char text[GOV_DESC_MAX_BYTES + 1];
    char *cred = NULL;
    uint64_t ppid;
    int len, rc;

    /* Thread counts do not depend on the seal. */
    export_threads(sp, d.policy.threads && d.cpus_per_task != GOV_UNKNOWN ? d.cpus_per_task : 0);
    /* This callback runs in the task's own process: its pid and start
     * time are what the runtime finds among its ancestors. */
    d.pid = (uint64_t)getpid();
    if (gov_proc_start_read(NULL, 0, &ppid, &d.pid_start))
        return seal_failed(sp, pl, "cannot read the task's start time");
    d.created = (uint64_t)time(NULL);
    gov_capture_gpus(sp, &d);
    len = gov_descriptor_encode(&d, text, sizeof text);
    if (len < 0)
        return seal_failed(sp, pl, "the descriptor does not fit its size limit");
    /* Only the job's user can decode it, so a leaked copy says nothing to
     * anyone else on the node. */
    rc = gov_seal_bounded(pl->site.munge_socket[0] ? pl->site.munge_socket : NULL,
                          pl->site.ttl_s, (uint32_t)d.uid, text, (size_t)len,
                          pl->site.munge_timeout_s * 1000, &cred);
    if (rc)
        return seal_failed(sp, pl, rc == GOV_ETIMEDOUT
                                       ? "MUNGE cannot seal the descriptor (munged does not answer)"
                                       : "MUNGE cannot seal the descriptor");
    rc = spank_setenv(sp, GOV_DESCRIPTOR_ENV, cred, 1);
    free(cred);
    if (rc != ESPANK_SUCCESS)
        return seal_failed(sp, pl, "cannot set the descriptor in the task's environment");
    return 0;
}

void gov_handoff_clear(spank_t sp)
{
    spank_unsetenv(sp, GOV_DESCRIPTOR_ENV);
    export_threads(sp, 0);
}
