/* environment.c - per task, in slurm_spank_task_init (the user's task, its
 * cgroups and affinity in place, just before exec): the environment the
 * step's mode asks for, decided by core/decide/runenv.c exactly as `governor run`
 * decides it in that task, from the sealed step facts and what the kernel
 * shows: the task's own affinity, counted on the node's table (the step's
 * capture kept it) where the library would count it with hwloc, and the
 * step's cgroup limits and /proc/meminfo, read once in user_init
 * (environment.h says why a task's cgroup limits are its step's).
 *
 * Setting a variable costs slurmstepd a 256 KiB buffer each time, about
 * 10 us: two dozen of them in each of 256 tasks on a node showed in the
 * step's launch.  So once per step and node, in user_init (before the tasks
 * fork), the variables the sealed facts give a task of the step are set
 * for all of them; each task then sets only what differs for it (its own
 * mask, a user's value), and reads the user's values as they were
 * before that (the step's, kept in the plugin's state).
 *   runtimes: every variable, and the affinity narrowed under a quota;
 *   threads: the CPU variables;
 *   either, with the site's per_core=yes: a thread per physical core;
 *   neither, or no governor: what an earlier step exported is removed.
 * A variable slurmstepd refuses (a value past its length limit) is logged
 * and named in GOVERNOR_ENV_REFUSED: the task starts with its own value,
 * and both it and the admin can tell. */
#include "environment.h"
#include "evidence.h"

#include "decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An environment string never exceeds the kernel's MAX_ARG_STRLEN. */
#define GOV_ENV_VALUE_MAX (128 * 1024)
#define GOV_INPUTS_MAX GOV_ENV_INPUTS_MAX
#define GOV_ENV_REFUSED "GOVERNOR_ENV_REFUSED"

/* The values of the variables runenv reads, as "NAME=value"; NULL ends
 * the array.  A task's own SLURM_LOCALID (only) with task_only.  Returns 0
 * or GOV_ENOMEM. */
static int read_inputs(spank_t sp, bool task_only, char **envp)
{
    const char *names[GOV_INPUTS_MAX];
    size_t n = gov__runenv_inputs(names, GOV_INPUTS_MAX), k = 0;
    /* Values are short: the heap only for a long one (every page a task
     * writes in its forked slurmstepd is a fault). */
    char small[4096], *big = NULL, *buf;
    int rc = 0;

    if (n > GOV_INPUTS_MAX)
        return GOV_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        spank_err_t err;
        if (task_only != !strcmp(names[i], GOV_LOCALID_ENV))
            continue;
        buf = small;
        err = spank_getenv(sp, names[i], buf, sizeof small);
        if (err == ESPANK_NOSPACE) {
            if (!big && !(big = malloc(GOV_ENV_VALUE_MAX + 1))) {
                rc = GOV_ENOMEM;
                break;
            }
            buf = big;
            err = spank_getenv(sp, names[i], buf, GOV_ENV_VALUE_MAX + 1);
        }
        if (err != ESPANK_SUCCESS)
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
    free(big);
    return rc;
}

static void free_inputs(char **envp)
{
    for (size_t i = 0; envp[i]; i++) {
        free(envp[i]);
        envp[i] = NULL;
    }
}

/* Whether the task's variable is exactly value: 1 or 0, -1 when it cannot
 * be told (no memory).  A buffer one byte past value tells a longer value
 * apart. */
static int env_is(spank_t sp, const char *name, const char *value)
{
    size_t cap = strlen(value) + 2;
    char small[512], *back = cap <= sizeof small ? small : malloc(cap);
    int is;

    if (!back)
        return -1;
    is = spank_getenv(sp, name, back, (int)cap) == ESPANK_SUCCESS && !strcmp(back, value);
    if (back != small)
        free(back);
    return is;
}

/* Whether the task's variable already holds value (the step's preset). */
static bool holds(spank_t sp, const char *name, const char *value)
{
    char one[2];

    if (!value)
        return spank_getenv(sp, name, one, sizeof one) == ESPANK_ENV_NOEXIST;
    return env_is(sp, name, value) == 1;
}

/* Sets NAME=VALUE in the task; false when slurmstepd did not take it.
 * slurmstepd refuses a value past its length limit ("environment variable
 * NAME is too long" on the task's stderr) and still reports success, so
 * the value is read back (when that cannot be told, it was accepted as far
 * as we know). */
static bool set_checked(spank_t sp, const char *name, const char *value)
{
    return spank_setenv(sp, name, value, 1) == ESPANK_SUCCESS && env_is(sp, name, value) != 0;
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

static unsigned mode_flags(const gov_spank_policy *site, const gov_descriptor *step)
{
    unsigned flags = GOV_RUNENV_CLEAR;

    if (step && step->policy.runtimes)
        flags = 0;
    else if (step && step->policy.threads)
        flags = GOV_RUNENV_CPU_ONLY;
    /* Without the table the plan counts PUs, as governor run --per-core
     * does without a topology. */
    if (flags != GOV_RUNENV_CLEAR && site->per_core)
        flags |= GOV_RUNENV_PER_CORE;
    return flags;
}

/* The step's cgroup limits, from slurmstepd's own cgroups (environment.h
 * says why): read here once instead of in each of 256 tasks, where
 * /proc/self/cgroup, the mount table and the limits cost a task about
 * 100 us.  Only a hierarchy found for both CPU and memory stands for the
 * tasks'; otherwise each task reads its own.  And the host's memory. */
static void read_step(gov_env_step *e)
{
    gov__cgroup_collect_limits(NULL, &e->cgroups);
    e->have_cgroups = e->cgroups.cpu.version != 0 && e->cgroups.memory.version != 0;
    gov__meminfo_collect(NULL, &e->host_total_bytes, &e->host_available_bytes);
    e->reads_done = true;
}

void gov__environment_snapshot(const gov_descriptor *step, const gov_topo_table *node,
                               const gov_env_step *e, gov_snapshot *out)
{
    gov_evidence ev;

    gov__evidence_init(&ev);
    if (gov__affinity_collect(NULL, &ev.mask, &ev.mask_count))
        ev.mask_count = GOV_UNKNOWN;
    if (node)
        gov__topo_task(node, &ev.mask, ev.mask_count, &ev.topology);
    if (e && e->have_cgroups)
        ev.cgroups = e->cgroups;
    else
        gov__cgroup_collect_limits(NULL, &ev.cgroups);
    if (e && e->reads_done) {
        ev.host_total_bytes = e->host_total_bytes;
        ev.host_available_bytes = e->host_available_bytes;
    } else {
        gov__meminfo_collect(NULL, &ev.host_total_bytes, &ev.host_available_bytes);
    }
    /* The task's environment is planned from CPUs and memory; GPUs play
     * no part, so /dev is not scanned at every task's start. */
    ev.have_descriptor = true;
    ev.descriptor = *step;
    gov__snapshot_assemble(&ev, out);
}

void gov__environment_step(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                           gov_env_step *e)
{
    unsigned flags = mode_flags(site, step);
    gov_snapshot snap;
    gov_runenv *env = NULL;

    if (flags == GOV_RUNENV_CLEAR)
        return;
    if (read_inputs(sp, false, e->inputs)) {
        free_inputs(e->inputs);
        return;
    }
    e->inputs_read = true;
    read_step(e);
    /* What a task of the step is given when Slurm binds it to its CPUs,
     * as it does: each task corrects what differs for it. */
    gov_snapshot_init(&snap);
    gov__descriptor_apply(step, NULL, NULL, &snap);
    snap.cpu.affinity.count = step->cpus_per_task;
    if (e->have_cgroups) {
        snap.cpu.cgroup = e->cgroups.cpu;
        snap.memory.cgroup = e->cgroups.memory;
    }
    snap.memory.host.total_bytes = e->host_total_bytes;
    snap.memory.host.available_bytes = e->host_available_bytes;
    gov_snapshot_resolve(&snap);
    if (gov_runenv_compute(&snap, 0, (const char *const *)e->inputs, flags, &env))
        return;
    for (size_t i = 0, k = 0; i < env->nvars && k < GOV_INPUTS_MAX; i++) {
        const gov_runenv_var *v = &env->vars[i];
        if (!(e->preset[k] = strdup(v->name)))
            break;
        k++;
        if (v->value)
            spank_setenv(sp, v->name, v->value, 1);
        else
            spank_unsetenv(sp, v->name);
    }
    gov_runenv_free(env);
}

/* The user's value of name before the step's preset, or NULL. */
static const char *user_value(const gov_env_step *e, const char *name)
{
    size_t n = strlen(name);

    for (size_t i = 0; e->inputs[i]; i++)
        if (!strncmp(e->inputs[i], name, n) && e->inputs[i][n] == '=')
            return e->inputs[i] + n + 1;
    return NULL;
}

/* Put back the user's value of each preset variable this task's own plan
 * leaves alone. */
static void restore_unplanned(spank_t sp, const gov_env_step *e, const gov_runenv *env)
{
    for (size_t i = 0; e->preset[i]; i++) {
        const char *name = e->preset[i], *value;
        size_t j;
        for (j = 0; j < env->nvars && strcmp(env->vars[j].name, name); j++)
            ;
        if (j < env->nvars)
            continue;
        value = user_value(e, name);
        if (holds(sp, name, value))
            continue;
        if (value)
            spank_setenv(sp, name, value, 1);
        else
            spank_unsetenv(sp, name);
    }
}

void gov__environment_task(spank_t sp, const gov_spank_policy *site, const gov_descriptor *step,
                           const gov_topo_table *node, const gov_env_step *e, gov_env_told *told)
{
    char *envp[GOV_INPUTS_MAX + 1] = { NULL }, *own[2] = { NULL };
    gov_snapshot snap;
    gov_runenv *env = NULL;
    char refused[512] = "";
    unsigned flags = mode_flags(site, step);
    size_t k = 0;
    int rc;

    memset(told, 0, sizeof *told);
    if (flags == GOV_RUNENV_CLEAR)
        gov_snapshot_init(&snap);
    else
        gov__environment_snapshot(step, node, e, &snap);
    /* The user's values as the step had them before its preset, and this
     * task's own SLURM_LOCALID. */
    rc = e->inputs_read ? read_inputs(sp, true, own) : read_inputs(sp, false, envp);
    if (e->inputs_read) {
        for (; e->inputs[k]; k++)
            envp[k] = e->inputs[k];
        envp[k] = own[0];
    }
    if (!rc)
        rc = gov_runenv_compute(&snap, 0, (const char *const *)envp, flags, &env);
    if (e->inputs_read)
        free_inputs(own);
    else
        free_inputs(envp);
    if (rc) {
        slurm_error("governor: cannot plan the task's environment (%s); it starts as it is",
                    gov_strerror(rc));
        return;
    }
    for (size_t i = 0; i < env->nvars; i++) {
        const gov_runenv_var *v = &env->vars[i];

        if (holds(sp, v->name, v->value))
            continue;
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
    restore_unplanned(sp, e, env);
    report_refused(sp, refused);
    if (flags != GOV_RUNENV_CLEAR) {
        told->told = true;
        told->threads = env->plan.threads_per_worker;
        told->memory_bytes = flags & GOV_RUNENV_CPU_ONLY ? GOV_UNKNOWN
                                                         : env->plan.memory_limit_per_worker;
    }
    if (env->affinity_count && (rc = gov__affinity_set(&env->affinity)) != 0)
        slurm_error("governor: cannot narrow the task's CPU affinity to %llu CPUs: %s",
                    (unsigned long long)env->affinity_count, gov_strerror(rc));
    gov_runenv_free(env);
}

void gov__environment_end(gov_env_step *e)
{
    free_inputs(e->inputs);
    free_inputs(e->preset);
    e->reads_done = e->have_cgroups = false;
    e->inputs_read = false;
}
