/* plugin.c - governor.so's entry points: a dispatcher on spank_context().
 *
 *   slurmd: at its start, cache this boot's topology table (never fails).
 *   local (srun), allocator (sbatch, salloc): validate the site arguments
 *     and --governor, fail fast with a message, otherwise stay silent but
 *     for a mode word srun takes as the program (local_user_init).
 *   remote (slurmstepd): capture and hand off once per step and node
 *     (init_post_opt, euid 0: a MUNGE seal, a file, or both), set the
 *     runtimes' variables a task of the step gets, once for all of them
 *     (user_init, before the tasks fork), check each task's descriptor
 *     (task_init_privileged: under seal=required a task without one ends
 *     there, under an optional plugstack line too), then correct the runtimes'
 *     variables where the task's own view differs (task_init, as the user,
 *     affinity in place, counted on the node's table that the capture
 *     kept); with report=DIR,
 *     find the step's cgroups at the first task's fork (task_post_fork)
 *     and write its record when the last task exits (task_exit); with
 *     pressure triggers, give the step's PSI files to the user at that
 *     fork and name them in each task (task_init); free the table at the
 *     step's end (exit).  A note of what a lost slurmstepd would leave
 *     (the descriptor file, the record) stands from init_post_opt to exit.
 *   job script (slurmd's `slurmstepd spank epilog`, root, at the job's end
 *     on the node): finish what such a note is left for (job_epilog).
 *     Errors here are logged and degrade: a non-zero return aborts the
 *     step and can drain the node, so only init returns one, where the
 *     site asked for it (on_init_error=fail_job or drain_node); a task the
 *     site refuses ends in its own process, never with a return.
 */
#include "plugin.h"
#include "capture.h"
#include "node_topology.h"

#include <stdlib.h>
#include <string.h>

SPANK_PLUGIN(governor, 1);

/* The one plugin instance of this process (see plugin.h). */
static gov_plugin gov_state;

/* The step's facts where the step is governed, else NULL. */
static const gov_descriptor *governed_step(void)
{
    return gov_state.active ? &gov_state.step : NULL;
}

static bool local_side(void)
{
    spank_context_t c = spank_context();

    return c == S_CTX_LOCAL || c == S_CTX_ALLOCATOR;
}

static int governor_option(int val, const char *optarg, int remote)
{
    char msg[GOV_MODE_HELP_MAX];
    gov_mode m;

    (void)val;
    /* Each call replaces the mode: the last value wins, which is how an
     * inner srun --governor overrides what sbatch passed down. */
    if (gov__mode_parse(optarg, &m)) {
        gov_state.mode_ok = false;
        gov__spank_mode_help(gov_state.site_ok ? &gov_state.site : NULL, msg, sizeof msg);
        slurm_error("governor: invalid --governor value; %s", msg);
        return remote ? 0 : -1;
    }
    /* In slurmstepd the site's default then stands (init_post_opt logs it);
     * where a person is watching, say no at once. */
    if (!remote && gov_state.site_ok && gov__spank_mode_refused(&gov_state.site, &m, msg, sizeof msg)) {
        slurm_error("governor: %s", msg);
        return -1;
    }
    gov_state.mode = m;
    gov_state.mode_ok = true;
    gov_state.mode_bare = !remote && (!optarg || !*optarg || !strcmp(optarg, "(null)"));
    return 0;
}

static struct spank_option governor_opt = {
    "governor", "MODE",
    "Seal this step's resource budget for libgovernor. MODE is a comma list: "
    "batch (default) or interactive; threads (export OMP_NUM_THREADS and the other "
    "thread counts); runtimes (start each task with the variables `governor run` "
    "sets: thread counts, GOMEMLIMIT, Node's and Java's memory; the site may make "
    "it the default) or noruntimes (decline that default); pressure (on cgroup v2, "
    "MEMORY_PRESSURE_WATCH and the CPU and IO ones, where the site allows); or off.",
    2, 0, governor_option,
};

#ifdef GOV_HAVE_SPANK_INIT_FAILURE_MODE
/* Read by slurmstepd (25.05+) when init returns -1 (set in step_init_error). */
int slurm_spank_init_failure_mode = ESPANK_NODE_FAILURE;
#endif

/* governor.so could not start in slurmstepd: what on_init_error= makes of
 * the step (docs/admin-guide.md, "When governor.so cannot start"). */
static int step_init_error(gov_init_error_policy p)
{
    switch (p) {
    case GOV_INIT_ERROR_RUN:
        break;
    case GOV_INIT_ERROR_FAIL_JOB:
#ifdef GOV_HAVE_SPANK_INIT_FAILURE_MODE
        slurm_spank_init_failure_mode = ESPANK_JOB_FAILURE;
        return -1;
#else
        slurm_error("governor: on_init_error=fail_job needs Slurm 25.05 or later; "
                    "the step runs ungoverned");
        return 0;
#endif
    case GOV_INIT_ERROR_DRAIN_NODE:
#ifdef GOV_HAVE_SPANK_INIT_FAILURE_MODE
        slurm_spank_init_failure_mode = ESPANK_NODE_FAILURE;
#endif
        return -1;
    }
    slurm_info("governor: the step runs ungoverned (on_init_error=run)");
    return 0;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
    spank_context_t ctx = spank_context();
    char err[512];

    memset(&gov_state, 0, sizeof gov_state);
    gov_state.mode_ok = true;
    if (ctx == S_CTX_SLURMD) {
        /* Once per slurmd start: no step pays for hwloc afterwards.  A
         * failure here must never stop slurmd. */
        if (gov__spank_policy_parse(ac, (const char *const *)av, &gov_state.site, err, sizeof err))
            slurm_error("governor: %s", err);
        else
            gov__node_topology_prepare(&gov_state.site);
        return 0;
    }
    if (ctx != S_CTX_LOCAL && ctx != S_CTX_REMOTE && ctx != S_CTX_ALLOCATOR)
        return 0;
    if (gov__spank_policy_parse(ac, (const char *const *)av, &gov_state.site, err, sizeof err)) {
        /* Loud where a person is watching; in slurmstepd the site says
         * what becomes of the step (on_init_error=). */
        slurm_error("governor: %s", err);
        if (ctx != S_CTX_REMOTE)
            return -1;
        return step_init_error(gov__spank_policy_on_init_error(ac, (const char *const *)av));
    }
#ifndef GOV_HAVE_SPANK_INIT_FAILURE_MODE
    if (gov_state.site.on_init_error == GOV_INIT_ERROR_FAIL_JOB && ctx != S_CTX_REMOTE) {
        slurm_error("governor: plugstack.conf key 'on_init_error' is fail_job, which needs "
                    "Slurm 25.05 or later (slurm_spank_init_failure_mode); this governor.so was "
                    "built for an older series: use run or drain_node");
        return -1;
    }
#endif
    gov_state.site_ok = true;
    if (spank_option_register(sp, &governor_opt) != ESPANK_SUCCESS) {
        slurm_error("governor: cannot register --governor");
        if (ctx != S_CTX_REMOTE)
            return -1;
        return step_init_error(gov_state.site.on_init_error);
    }
    return 0;
}

/* srun, its allocation made: "--governor runtimes" runs "runtimes" as the
 * program (an optional value needs '='); say so on the terminal, where the
 * program's own "command not found" would not explain it. */
int slurm_spank_local_user_init(spank_t sp, int ac, char **av)
{
    int argc = 0;
    char **argv = NULL;

    (void)ac;
    (void)av;
    if (spank_context() == S_CTX_LOCAL && gov_state.mode_bare &&
        spank_get_item(sp, S_JOB_ARGV, &argc, &argv) == ESPANK_SUCCESS && argc > 0 &&
        gov__mode_word(argv[0]))
        slurm_info("governor: '%s' after --governor is the program this step runs, not a mode: "
                   "write --governor=%s", argv[0], argv[0]);
    return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
    gov_desc_policy pol;
    int rc;

    (void)ac;
    (void)av;
    if (local_side() || !spank_remote(sp) || !gov_state.site_ok)
        return 0;
    /* A value srun never checked (the job's environment carries one too):
     * under seal=required the task is refused (task_init_privileged);
     * otherwise it counts as no value, so the site's default, allow_off=no
     * and runtimes=always hold. */
    if (!gov_state.mode_ok) {
        if (gov_state.site.seal_required) {
            char help[GOV_MODE_HELP_MAX];
            gov__spank_mode_help(&gov_state.site, help, sizeof help);
            gov__handoff_missing(&gov_state.handoff, "this step's --governor value is not valid",
                                 help);
            return 0;
        }
        slurm_info("governor: the --governor value that reached this step is not valid; "
                   "the site's default applies");
        memset(&gov_state.mode, 0, sizeof gov_state.mode);
        gov_state.mode_ok = true;
    }
    if (gov_state.mode.given && gov_state.mode.off && !gov_state.site.allow_off)
        slurm_info("governor: --governor=off reached this step although the site does not "
                   "allow it (allow_off=no); the site's default applies");
    if (gov_state.mode.given && gov_state.mode.noruntimes &&
        gov_state.site.runtimes == GOV_RUNTIMES_ALWAYS)
        slurm_info("governor: --governor=noruntimes reached this step although the site sizes "
                   "every runtime (runtimes=always); the runtimes' variables are set");
    if (gov_state.mode.given && gov_state.mode.pressure &&
        gov_state.site.pressure == GOV_PRESSURE_OFF)
        slurm_info("governor: --governor=pressure reached this step although the site hands "
                   "out no pressure triggers (pressure=off); none are set");
    if (!gov__spank_policy_resolve(&gov_state.site, &gov_state.mode, &pol))
        return 0;
    rc = gov__capture_step(sp, &gov_state.site, &gov_state.step, &gov_state.node);
    if (rc == GOV_ENOENT)
        return 0;      /* the extern step: no tasks, nothing to hand off */
    if (rc) {
        slurm_error("governor: cannot read this step's allocation (above); no descriptor for it");
        gov__handoff_missing(&gov_state.handoff, "the step's allocation could not be read",
                             "ask the administrators to check slurmd's log");
        return 0;
    }
    gov_state.step.policy = pol;
    gov_state.active = true;
    gov_state.pressure.on = gov__spank_pressure_resolve(&gov_state.site, &gov_state.mode);
    if (gov_state.site.report_dir[0])
        gov__report_begin(&gov_state.report, &gov_state.step);
    gov__handoff_step(sp, &gov_state.site, &gov_state.step, &gov_state.handoff);
    gov__recovery_begin(&gov_state.recovery, &gov_state.site, &gov_state.handoff,
                        &gov_state.report, &gov_state.step);
    return 0;
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp)) {
        gov__handoff_env(sp, gov_state.active, &gov_state.handoff);
        gov__environment_step(sp, &gov_state.site, governed_step(), &gov_state.env);
    }
    return 0;
}

int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (!spank_remote(sp))
        return 0;
    return gov__handoff_task(sp, &gov_state.site, &gov_state.handoff, &gov_state.report);
}

int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp)) {
        gov__report_task_forked(&gov_state.report, sp);
        gov__recovery_cgroups(&gov_state.recovery, &gov_state.site, &gov_state.report,
                              &gov_state.step);
        gov__pressure_delegate(sp, &gov_state.step, &gov_state.pressure);
    }
    return 0;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp)) {
        gov__report_task_times(&gov_state.report, sp);
        gov__environment_task(sp, &gov_state.site, governed_step(), gov_state.node,
                              &gov_state.env, &gov_state.report);
        gov__pressure_task(sp, &gov_state.site, &gov_state.pressure);
    }
    return 0;
}

int slurm_spank_task_exit(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp))
        gov__report_task_exited(&gov_state.report, &gov_state.site, &gov_state.step);
    return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp)) {
        gov__report_end(&gov_state.report, &gov_state.site, &gov_state.step);
        gov__handoff_end(&gov_state.site, &gov_state.handoff);
        gov__recovery_end(&gov_state.recovery, &gov_state.site);
        gov__environment_end(&gov_state.env);
    }
    free(gov_state.node);
    gov_state.node = NULL;
    return 0;
}

/* The job's end on this node (slurmd runs `slurmstepd spank epilog`, as
 * root, after every step): finish what a step whose slurmstepd ended first
 * left behind.  Never fails: a required plugin's failure here drains. */
int slurm_spank_job_epilog(spank_t sp, int ac, char **av)
{
    gov_spank_policy site;
    uint32_t job = 0;
    char err[512];

    if (spank_context() != S_CTX_JOB_SCRIPT ||
        gov__spank_policy_parse(ac, (const char *const *)av, &site, err, sizeof err) ||
        spank_get_item(sp, S_JOB_ID, &job) != ESPANK_SUCCESS)
        return 0;
    gov__recovery_job(&site, job);
    return 0;
}
