/* environment.c - per task, in slurm_spank_task_init (the user's task, its
 * cgroups and affinity in place, just before exec): the environment the
 * step's mode asks for, decided by core/runenv.c exactly as `governor run`
 * decides it in that task, from the sealed step facts and what the task's
 * own kernel view shows (affinity, cgroups, /proc/meminfo), its affinity
 * counted on the node's table (the step's capture kept it) where the
 * library would count it with hwloc.
 *   runtimes: every variable, and the affinity narrowed under a quota;
 *   threads: the CPU variables;
 *   either, with the site's per_core=yes: a thread per physical core;
 *   neither, or no governor: what an earlier step exported is removed.
 * A variable slurmstepd refuses (a value past its length limit) is logged
 * and named in GOVERNOR_ENV_REFUSED: the task starts with its own value,
 * and both it and the admin can tell. */
#include "environment.h"

#include "knobs.h"
#include "snapshot_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An environment string never exceeds the kernel's MAX_ARG_STRLEN. */
#define GOV_ENV_VALUE_MAX (128 * 1024)
#define GOV_INPUTS_MAX 32
#define GOV_ENV_REFUSED "GOVERNOR_ENV_REFUSED"

/* The task's values of the variables runenv reads, as "NAME=value"; NULL
 * ends the array.  Returns 0 or GOV_ENOMEM. */
static int read_inputs(spank_t sp, char **envp)
{
    const char *names[GOV_INPUTS_MAX];
    size_t n = gov__runenv_inputs(names, GOV_INPUTS_MAX), k = 0;
    char *buf = malloc(GOV_ENV_VALUE_MAX + 1);
    int rc = 0;

    if (!buf || n > GOV_INPUTS_MAX) {
        free(buf);
        return GOV_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        if (spank_getenv(sp, names[i], buf, GOV_ENV_VALUE_MAX + 1) != ESPANK_SUCCESS)
            continue;
        len = strlen(names[i]) + 1 + strlen(buf) + 1;
        envp[k] = malloc(len);
        if (!envp[k]) {
            rc = GOV_ENOMEM;
            break;
        }
        snprintf(envp[k++], len, "%s=%s", names[i], buf);
    }
    envp[k] = NULL;
    free(buf);
    return rc;
}

static void free_inputs(char **envp)
{
    for (size_t i = 0; envp[i]; i++)
        free(envp[i]);
}

/* Sets NAME=VALUE in the task; false when slurmstepd did not take it.
 * slurmstepd refuses a value past its length limit ("environment variable
 * NAME is too long" on the task's stderr) and still reports success, so
 * the value is read back. */
static bool set_checked(spank_t sp, const char *name, const char *value)
{
    size_t len = strlen(value);
    char *back;
    bool ok;

    if (spank_setenv(sp, name, value, 1) != ESPANK_SUCCESS)
        return false;
    back = malloc(len + 2);
    if (!back)
        return true;       /* cannot tell: the value was accepted as far as we know */
    ok = spank_getenv(sp, name, back, (int)len + 2) == ESPANK_SUCCESS && !strcmp(back, value);
    free(back);
    return ok;
}

/* The names of the refused variables, comma-separated, for
 * GOVERNOR_ENV_REFUSED; unset when none (an earlier step's value must not
 * linger). */
static void report_refused(spank_t sp, const char *names)
{
    if (*names)
        spank_setenv(sp, GOV_ENV_REFUSED, names, 1);
    else
        spank_unsetenv(sp, GOV_ENV_REFUSED);
}

/* gov__task_snapshot's topology: the task's mask on the node's table. */
static void count_on_table(const void *table, const gov_cpuset *mask, uint64_t mask_count,
                           gov_snapshot_topology *out)
{
    gov__topo_task(table, mask, mask_count, out);
}

void gov__environment_task(spank_t sp, const gov_plugin *pl)
{
    char *envp[GOV_INPUTS_MAX + 1] = { NULL };
    gov_snapshot snap;
    gov_runenv *env = NULL;
    char refused[512] = "";
    unsigned flags = GOV_RUNENV_CLEAR;
    int rc;

    if (pl->active && pl->step.policy.runtimes)
        flags = 0;
    else if (pl->active && pl->step.policy.threads)
        flags = GOV_RUNENV_CPU_ONLY;
    if (flags == GOV_RUNENV_CLEAR) {
        gov_snapshot_init(&snap);
    } else {
        gov__task_snapshot(&pl->step, pl->node ? count_on_table : NULL, pl->node, &snap);
        /* Without the table the plan counts PUs, as governor run
         * --per-core does without a topology. */
        if (pl->site.per_core)
            flags |= GOV_RUNENV_PER_CORE;
    }
    rc = read_inputs(sp, envp);
    if (!rc)
        rc = gov_runenv_compute(&snap, 0, (const char *const *)envp, flags, &env);
    free_inputs(envp);
    if (rc) {
        slurm_error("governor: cannot plan the task's environment (%s); it starts as it is",
                    gov_strerror(rc));
        return;
    }
    for (size_t i = 0; i < env->nvars; i++) {
        const gov_runenv_var *v = &env->vars[i];

        if (!v->value) {
            spank_unsetenv(sp, v->name);
            continue;
        }
        if (set_checked(sp, v->name, v->value))
            continue;
        slurm_error("governor: slurmstepd refused %s (past its length limit?); the task "
                    "starts with its own value", v->name);
        if (strlen(refused) + strlen(v->name) + 2 <= sizeof refused) {
            if (*refused)
                strcat(refused, ",");
            strcat(refused, v->name);
        }
    }
    report_refused(sp, refused);
    if (flags != GOV_RUNENV_CLEAR)
        gov__report_told(&pl->report, sp, env->plan.threads_per_worker,
                         flags & GOV_RUNENV_CPU_ONLY ? GOV_UNKNOWN
                                                    : env->plan.memory_limit_per_worker);
    if (env->affinity_count && (rc = gov__affinity_set(&env->affinity)) != 0)
        slurm_error("governor: cannot narrow the task's CPU affinity to %llu CPUs: %s",
                    (unsigned long long)env->affinity_count, gov_strerror(rc));
    gov_runenv_free(env);
}
