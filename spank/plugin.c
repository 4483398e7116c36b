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
#include "startup.h"

#include <stdlib.h>
#include <string.h>

SPANK_PLUGIN(governor, 1);

/* The one plugin instance of this process (see plugin.h). */
static gov_plugin state;

/* The step's facts where the step is governed, else NULL. */
static const gov_descriptor *governed_step(void)
{
    return state.active ? &state.step : NULL;
}

static bool local_side(void)
{
    spank_context_t c = spank_context();

    return c == S_CTX_LOCAL || c == S_CTX_ALLOCATOR;
}

static int governor_option(int val, const char *optarg, int remote)
{
    char msg[GOV_MODE_HELP_MAX + 64];
    gov_mode m;
    int rc;

    (void)val;
    /* Each call replaces the mode: the last value wins, which is how an
     * inner srun --governor overrides what sbatch passed down. */
    rc = gov__spank_option_verdict(state.site_ok ? &state.site : NULL, optarg, remote,
                                   &m, msg, sizeof msg);
    if (rc == GOV_EPARSE)
        state.mode_ok = false;
    if (rc) {
        slurm_error("governor: %s", msg);
        return remote ? 0 : -1;
    }
    state.mode = m;
    state.mode_ok = true;
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

int slurm_spank_init(spank_t sp, int ac, char **av)
{
    memset(&state, 0, sizeof state);
    state.mode_ok = true;
    return gov__startup(sp, spank_context(), ac, av, &governor_opt, &state.site, &state.site_ok);
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
    if (spank_context() == S_CTX_LOCAL &&
        spank_get_item(sp, S_JOB_ARGV, &argc, &argv) == ESPANK_SUCCESS && argc > 0 &&
        gov__spank_mode_misplaced(&state.mode, argv[0]))
        slurm_info("governor: '%s' after --governor is the program this step runs, not a mode: "
                   "write --governor=%s", argv[0], argv[0]);
    return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
    gov_step_verdict v;
    gov_step_record rec;
    int rc;

    (void)ac;
    (void)av;
    if (local_side() || !spank_remote(sp) || !state.site_ok)
        return 0;
    gov__spank_step_verdict(&state.site, &state.mode, state.mode_ok, &v);
    for (size_t i = 0; i < v.nnotes; i++)
        slurm_info("governor: %s", v.notes[i]);
    if (v.refused) {
        gov__handoff_missing(&state.handoff, v.why, v.advice);
        return 0;
    }
    if (!v.governed)
        return 0;
    rc = gov__capture_step(sp, &state.site, &state.step, &state.node);
    if (rc == GOV_ENOENT)
        return 0;      /* the extern step: no tasks, nothing to hand off */
    if (rc) {
        slurm_error("governor: cannot read this step's allocation (above); no descriptor for it");
        gov__handoff_missing(&state.handoff, "the step's allocation could not be read",
                             "ask the administrators to check slurmd's log");
        return 0;
    }
    state.step.policy = v.policy;
    state.active = true;
    state.pressure.on = v.pressure;
    if (state.site.report_dir[0])
        gov__report_begin(&state.report, &state.step);
    gov__handoff_step(sp, &state.site, &state.step, &state.handoff);
    gov__report_record_start(&state.report, &state.step, &rec);
    gov__recovery_begin(&state.recovery, &state.site, state.handoff.file, &rec,
                        state.report.on);
    return 0;
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp)) {
        gov__handoff_env(sp, &state.site, state.active, &state.handoff);
        gov__environment_step(sp, &state.site, governed_step(), &state.env);
    }
    return 0;
}

int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp) && gov__handoff_task(&state.site, &state.handoff))
        gov__report_sealed(&state.report, sp, state.handoff.gpus);
    return 0;
}

int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
    gov_step_record rec;

    (void)ac;
    (void)av;
    if (!spank_remote(sp))
        return 0;
    gov__handoff_log(&state.site, &state.handoff);
    if (gov__report_task_forked(&state.report, sp)) {
        gov__report_record_start(&state.report, &state.step, &rec);
        gov__recovery_cgroups(&state.recovery, &state.site, &rec, &state.report.cg);
    }
    gov__pressure_delegate(sp, &state.step, &state.pressure);
    return 0;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
    gov_env_told told;

    (void)ac;
    (void)av;
    if (!spank_remote(sp))
        return 0;
    gov__report_task_times(&state.report, sp);
    gov__environment_task(sp, &state.site, governed_step(), state.node, &state.env,
                          &told);
    if (told.told)
        gov__report_told(&state.report, sp, told.threads, told.memory_bytes);
    gov__pressure_task(sp, &state.site, &state.pressure);
    return 0;
}

int slurm_spank_task_exit(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp))
        gov__report_task_exited(&state.report, &state.site, &state.step);
    return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_remote(sp)) {
        gov__report_end(&state.report, &state.site, &state.step);
        gov__handoff_log(&state.site, &state.handoff);
        gov__handoff_end(&state.site, &state.handoff);
        gov__recovery_end(&state.recovery, &state.site);
        gov__environment_end(&state.env);
    }
    free(state.node);
    state.node = NULL;
    return 0;
}

/* The job's end on this node (slurmd runs `slurmstepd spank epilog`, as
 * root, after every step): finish what a step whose slurmstepd ended first
 * left behind.  Never fails: a required plugin's failure here drains. */
int slurm_spank_job_epilog(spank_t sp, int ac, char **av)
{
    if (spank_context() == S_CTX_JOB_SCRIPT)
        gov__recovery_job_epilog(sp, ac, av);
    return 0;
}
