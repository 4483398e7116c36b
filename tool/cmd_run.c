/* cmd_run.c - `governor run [--workers N|numa] [--per-core] [--force] [--explain] -- CMD ...`:
 * give CMD the environment gov_runenv_compute() decides (thread counts,
 * memory hints, pool figures) and, under a CPU quota, the narrowed
 * affinity; then exec it.  The plugin applies the same decisions to a task
 * (spank/environment.c). */
#include "evidence.h"
#include "cmd.h"
#include "cmd_common.h"
#include "json/render.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static void usage(FILE *f)
{
    fprintf(f, "usage: governor run [--workers N|numa] [--per-core] [--omp-places] [--force]\n"
               "                    [--keep-affinity] [--explain] [--verbose] [--sysroot DIR]\n"
               "                    -- CMD [ARG...]\n"
               "       governor run --dry-run [--json] [the options above] [-- CMD [ARG...]]\n"
               "  Run CMD with the thread counts and memory hints its runtimes read sized to\n"
               "  this allocation (OpenMP, BLAS, Go, Python 3.13+, Rust, Node.js, Java, Julia,\n"
               "  Polars, .NET, R...; 'governor run --dry-run' lists every variable).  By\n"
               "  default CMD is one process using every CPU; --workers N sizes each of N\n"
               "  process workers.  Variables you set are kept (--force replaces them);\n"
               "  NODE_OPTIONS and JAVA_TOOL_OPTIONS are appended to.  GOVERNOR_WORKERS,\n"
               "  GOVERNOR_THREADS_PER_WORKER and GOVERNOR_MEMORY_PER_WORKER size a pool.\n"
               "  --per-core: one thread per physical core (for codes that lose with SMT).\n"
               "  --workers numa: one worker per NUMA node of the task's CPUs; each one's\n"
               "  threads, bytes and CPUs in GOVERNOR_WORKER_THREADS, _MEMORY (commas) and\n"
               "  _CPUS (CPU lists, colons), for a launcher that binds them.  --omp-places\n"
               "  sets OMP_PLACES and OMP_PROC_BIND=close, never set otherwise.\n"
               "  Under a CPU quota smaller than the affinity mask, CMD runs on as many\n"
               "  CPUs as the quota's ceiling, so that runtimes that count only the mask\n"
               "  (Node.js, Python's sched_getaffinity) see the plan (--keep-affinity: not).\n"
               "  --explain prints each decision and why (your own values included) on\n"
               "  standard error; --dry-run prints them on standard output and runs\n"
               "  nothing; --verbose prints the plan and warns when a value you set\n"
               "  exceeds it.\n"
               "  Exit status: CMD's once it runs; before, 2 for a usage error, 3 when\n"
               "  there is no snapshot or environment for it, 127 when CMD is not found,\n"
               "  126 when it cannot be executed.\n");
}

static void fmt_figure(const gov_runenv_entry *e, uint64_t v, char *buf, size_t cap)
{
    if (e->bytes)
        gov__fmt_bytes(v, buf, cap);
    else if (e->gpu && v != GOV_UNKNOWN)
        snprintf(buf, cap, "%llu.%03llu of a GPU", (unsigned long long)(v / 1000),
                 (unsigned long long)(v % 1000));
    else
        gov__fmt_count(v, buf, cap);
}

/* "NAME=2", "NODE_OPTIONS += --max-old-space-size=384", "JAVA_TOOL_OPTIONS -XX:MaxRAM". */
static void subject(const gov_runenv_entry *e, char *buf, size_t cap)
{
    if (e->action == GOV_RUNENV_SKIP)
        snprintf(buf, cap, "%s%s%s", e->name, e->option ? " " : "", e->option ? e->option : "");
    else if (e->option)
        snprintf(buf, cap, "%s %s %s", e->name, e->action == GOV_RUNENV_SET ? "+=" : "has",
                 e->setting);
    else
        snprintf(buf, cap, "%s=%s", e->name, e->setting);
}

/* The specifics after the reason: how a kept value compares, what a hint
 * derives from, what the JVM sees. */
static void detail(const gov_runenv_entry *e, char *buf, size_t cap)
{
    char a[32], b[32];

    buf[0] = '\0';
    fmt_figure(e, e->planned, a, sizeof a);
    if (e->action == GOV_RUNENV_KEEP && e->planned != GOV_UNKNOWN) {
        if (e->user == GOV_UNKNOWN)
            snprintf(buf, cap, "; not a number to compare with the plan's %s", a);
        else
            snprintf(buf, cap, "; %s the plan's %s", e->exceeds ? "EXCEEDS" : "within", a);
    } else if (e->action == GOV_RUNENV_SET && (e->bytes || e->gpu) && e->basis != GOV_UNKNOWN &&
               e->planned != GOV_UNKNOWN) {
        fmt_figure(e, e->basis, b, sizeof b);
        snprintf(buf, cap, "; %.0f%% of %s %s", 100.0 * (double)e->planned / (double)e->basis, b,
                 e->gpu ? "(the task's share)" : "per worker");
    } else if (e->reason == GOV_RUNENV_RUNTIME_SEES) {
        fmt_figure(e, e->basis, b, sizeof b);
        snprintf(buf, cap, " (%s%s)", b, e->bytes ? "" : " CPUs");
    }
}

static void print_plan(FILE *f, const gov_snapshot *s, const gov_runenv *env)
{
    char mem[96], gpu[160];
    const char *share;

    gov__fmt_plan_memory(&env->plan, mem, sizeof mem);
    fprintf(f, "governor: %llu worker%s x %llu thread%s", (unsigned long long)env->plan.workers,
            env->plan.workers == 1 ? "" : "s", (unsigned long long)env->plan.threads_per_worker,
            env->plan.threads_per_worker == 1 ? "" : "s");
    if (gov_known_f(s->cpu.effective.capacity_cores))
        fprintf(f, " (capacity %.2f cores, bound by %s)", s->cpu.effective.capacity_cores,
                gov_layer_name(s->cpu.effective.binding));
    fprintf(f, "; memory per worker: %s", mem);
    if (env->plan.memory_limit_per_worker != GOV_UNKNOWN)
        fprintf(f, " (bound by %s)", gov_layer_name(s->memory.effective.binding));
    if (gov__fmt_plan_reserve(s, &env->plan, mem, sizeof mem))
        fprintf(f, "; kept back: %s", mem);
    if ((share = gov__gpu_share_text(s, gpu, sizeof gpu)))
        fprintf(f, "; GPU: %s", share);
    fprintf(f, "\n");
}

/* The affinity line: narrowed, or why not. */
static void print_affinity(FILE *f, const gov_snapshot *s, const gov_runenv *env)
{
    char list[256];

    if (!env->affinity_count)
        return;
    if (gov_cpuset_format(&env->affinity, list, sizeof list) < 0)
        snprintf(list, sizeof list, "?");
    fprintf(f, "set  affinity: %llu of %llu CPUs (%s): the CPU quota allows %.2f cores, and\n"
               "     runtimes that count only the mask would start a thread per CPU of it\n",
            (unsigned long long)env->affinity_count, (unsigned long long)env->affinity_from,
            list, s->cpu.cgroup.quota_cores);
}

static void explain(FILE *f, const gov_snapshot *s, const gov_runenv *env)
{
    char subj[96], more[128];

    print_plan(f, s, env);
    print_affinity(f, s, env);
    for (size_t i = 0; i < env->count; i++) {
        const gov_runenv_entry *e = &env->entries[i];
        subject(e, subj, sizeof subj);
        detail(e, more, sizeof more);
        fprintf(f, "%-4s %s: %s%s\n     read by %s\n", gov_runenv_action_name(e->action), subj,
                gov_runenv_reason_text(e->reason), more, e->runtime);
    }
}

/* --verbose: the plan, and a warning per kept value above it.  The values
 * themselves stay out of it: only --explain, asked for, shows them. */
static void verbose(const gov_snapshot *s, const gov_runenv *env)
{
    char a[32];

    print_plan(stderr, s, env);
    print_affinity(stderr, s, env);
    for (size_t i = 0; i < env->count; i++) {
        const gov_runenv_entry *e = &env->entries[i];
        if (e->action != GOV_RUNENV_KEEP || !e->exceeds)
            continue;
        fmt_figure(e, e->planned, a, sizeof a);
        fprintf(stderr, "governor: warning: your %s%s%s exceeds the plan's %s (--explain "
                        "shows it, --force replaces it)\n",
                e->name, e->option ? " " : "", e->option ? e->option : "", a);
    }
}

static int apply(const gov_runenv *env)
{
    int rc;

    for (size_t i = 0; i < env->nvars; i++) {
        const gov_runenv_var *v = &env->vars[i];
        if ((v->value ? setenv(v->name, v->value, 1) : unsetenv(v->name)) != 0)
            return -1;
    }
    if (env->affinity_count && (rc = gov__affinity_set(&env->affinity)) != 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}

struct run_args {
    gov_cmd_shape shape;
    unsigned flags;          /* GOV_RUNENV_* */
    int verbose, explain, dry;
    int cmd;                 /* CMD's index in argv; 0: none given */
};

/* run's own options; "--" takes every argument after it as CMD. */
static int run_arg(int argc, char **argv, int *i, void *ctx)
{
    struct run_args *a = ctx;
    const char *arg = argv[*i];
    int r;

    if (!strcmp(arg, "--")) {
        a->cmd = *i + 1 < argc ? *i + 1 : 0;
        *i = argc - 1;
        return 1;
    }
    if (arg[0] != '-') {
        fprintf(stderr, "governor: run: put the command after '--'\n");
        return -1;
    }
    if ((r = gov__cmd_shape_arg(argc, argv, i, &a->shape)))
        return r;
    if (!strcmp(arg, "--force"))
        a->flags |= GOV_RUNENV_FORCE;
    else if (!strcmp(arg, "--keep-affinity"))
        a->flags |= GOV_RUNENV_KEEP_AFFINITY;
    else if (!strcmp(arg, "--omp-places"))
        a->flags |= GOV_RUNENV_OMP_PLACES;
    else if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v"))
        a->verbose = 1;
    else if (!strcmp(arg, "--explain"))
        a->explain = 1;
    else if (!strcmp(arg, "--dry-run") || !strcmp(arg, "-n"))
        a->dry = 1;
    else
        return 0;
    return 1;
}

int gov__cmd_run(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    struct run_args a = { 0 };
    gov_snapshot snap;
    gov_runenv *env;
    int rc;

    rc = gov__cmd_parse(argc, argv, "run", usage, &o, run_arg, &a);
    if (rc >= 0)
        return rc;
    if (o.json && !a.dry) {
        fprintf(stderr, "governor: run: --json goes with --dry-run (the command's output is its own)\n");
        return GOV_EXIT_USAGE;
    }
    if (!a.cmd && !a.dry) {
        fprintf(stderr, "governor: run: no command given: governor run [OPTIONS] -- COMMAND "
                        "[ARGS...], or --dry-run\n");
        return GOV_EXIT_USAGE;
    }
    if ((rc = gov__cmd_capture(&o, &snap)))
        return rc;
    if (a.shape.plan_flags & GOV_PLAN_PER_CORE)
        a.flags |= GOV_RUNENV_PER_CORE;
    if (a.shape.plan_flags & GOV_PLAN_WORKERS_NUMA)
        a.flags |= GOV_RUNENV_WORKERS_NUMA;
    rc = gov_runenv_compute(&snap, a.shape.workers, (const char *const *)environ, a.flags, &env);
    if (rc == GOV_ENOENT) {
        gov__cmd_shape_error("run", &snap);
        return GOV_EXIT_FAILED;
    }
    if (rc) {
        fprintf(stderr, "governor: run: cannot plan the environment: %s\n", gov_strerror(rc));
        return GOV_EXIT_FAILED;
    }
    if (a.dry) {
        char *text = NULL;
        rc = o.json ? gov__cmd_put_json(gov__run_json(&snap, env, &text, NULL), &text)
                    : (explain(stdout, &snap, env), 0);
        gov_runenv_free(env);
        return rc;
    }
    if (env->plan.oversubscribed)
        fprintf(stderr, "governor: warning: %llu workers exceed the CPU ceiling of %llu\n",
                (unsigned long long)env->plan.workers, (unsigned long long)env->plan.cpu_workers);
    if (a.explain)
        explain(stderr, &snap, env);
    else if (a.verbose)
        verbose(&snap, env);
    rc = apply(env);
    gov_runenv_free(env);
    if (rc) {
        fprintf(stderr, "governor: run: cannot set the environment or the affinity: %s\n",
                strerror(errno));
        return GOV_EXIT_FAILED;
    }
    gov__tool_restore_env();
    execvp(argv[a.cmd], argv + a.cmd);
    /* The command is the user's own argument: naming it is asked for. */
    if (errno == ENOENT && !strchr(argv[a.cmd], '/'))
        fprintf(stderr, "governor: run: %s: command not found (not in PATH)\n", argv[a.cmd]);
    else
        fprintf(stderr, "governor: run: cannot run %s: %s\n", argv[a.cmd], strerror(errno));
    /* As a shell's: 127 not found, 126 found but not executable. */
    return errno == ENOENT ? GOV_EXIT_NOT_RUN : GOV_EXIT_NOT_EXEC;
}
