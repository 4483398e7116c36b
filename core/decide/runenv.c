/* runenv.c - the environment `governor run` gives a command and the plugin
 * (--governor=runtimes, threads) gives a task (governor.h, "Environment for
 * a command"): which knob gets which value and why, and whether the
 * affinity narrows.  Decides only; the callers apply the changes.
 *
 * What an earlier run or step exported is told from what the user set by
 * its markers, GOVERNOR_THREADS, GOVERNOR_MEMORY_SHARE and, for a shared
 * GPU, GOVERNOR_GPU_SHARE and GOVERNOR_GPU_MEMORY: a knob whose value is
 * exactly what those figures give was ours, and is replaced (or removed)
 * in place. */
#include "governor.h"
#include "base.h"

#include "decide.h"
#include "evidence.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The entries decide() adds after the knobs: three pool figures, three
 * per-worker lists, four markers and the two OpenMP placement variables. */
#define GOV_POOL_ENTRIES 12

/* Which knobs this run sets. */
typedef enum scope { SCOPE_ALL, SCOPE_CPU, SCOPE_NONE } scope;

typedef struct builder {
    gov_runenv *env;
    const gov_snapshot *snap;    /* as the command will see it (narrowed) */
    const char *const *envp;
    int force;
    scope scope;
    gov_knob_basis now;          /* this run's figures */
    gov_knob_basis prev;         /* the markers already there; 0 none */
    gov_runenv_reason no_share;  /* why now.share is unusable; PLANNED when usable */
    bool omp_places;             /* GOV_RUNENV_OMP_PLACES */
    size_t cap;                  /* of entries and of vars */
} builder;

static gov_runenv_entry *entry(builder *b, const char *name, const char *option,
                               const char *runtime)
{
    gov_runenv_entry *e = &b->env->entries[b->env->count++];

    memset(e, 0, sizeof *e);
    e->name = name;
    e->option = option;
    e->runtime = runtime;
    e->planned = e->user = e->basis = GOV_UNKNOWN;
    return e;
}

/* Copy text into the entry's setting, marking a cut with "...". */
static void show(gov_runenv_entry *e, const char *text, size_t len)
{
    size_t cap = sizeof e->setting;

    if (len < cap) {
        memcpy(e->setting, text, len);
        e->setting[len] = '\0';
    } else {
        memcpy(e->setting, text, cap - 4);
        memcpy(e->setting + cap - 4, "...", 4);
    }
}

/* The value NAME has now: a change decided earlier, else the environment. */
static const char *current(const builder *b, const char *name)
{
    for (size_t i = 0; i < b->env->nvars; i++)
        if (!strcmp(b->env->vars[i].name, name))
            return b->env->vars[i].value;
    return gov__env_get(b->envp, name);
}

/* Record a change (value NULL: unset); a second change of NAME replaces the
 * first. */
static int put(builder *b, const char *name, const char *value)
{
    gov_runenv *env = b->env;
    char *copy = NULL;
    size_t i;

    if (value && !(copy = strdup(value)))
        return GOV_ENOMEM;
    for (i = 0; i < env->nvars && strcmp(env->vars[i].name, name); i++)
        ;
    if (i == env->nvars)
        env->nvars++;
    else
        free(env->vars[i].value);
    env->vars[i].name = name;
    env->vars[i].value = copy;
    return 0;
}

/* What knob k is set to for the basis, as it appears in the environment:
 * the value, or the option word inside an option variable.  *planned gets
 * the figure (a count, bytes, thousandths of a GPU).  Returns PLANNED, or
 * why there is nothing useful to set. */
static gov_runenv_reason setting_for(const gov_knob *k, const gov_knob_basis *basis, char *buf,
                                     size_t cap, uint64_t *planned)
{
    uint64_t v = 0;
    gov_runenv_reason why = k->figure(basis, &v, planned);
    char num[24];

    switch (k->format) {
    case GOV_KNOB_HEX:
        snprintf(num, sizeof num, "%" PRIx64, v);
        break;
    case GOV_KNOB_MILLI:
        snprintf(num, sizeof num, "%" PRIu64 ".%03" PRIu64, v / GOV_GPU_MILLI, v % GOV_GPU_MILLI);
        break;
    case GOV_KNOB_TRUE:
        snprintf(num, sizeof num, "true");
        break;
    case GOV_KNOB_DECIMAL:
        snprintf(num, sizeof num, "%" PRIu64, v);
        break;
    }
    snprintf(buf, cap, "%s%s%s%s%s", k->option ? k->option : "", k->option ? "=" : "",
             k->prefix ? k->prefix : "", num, k->unit ? k->unit : "");
    return why;
}

/* The spellings of k's option a user may give, ours first (names[0]
 * points into first); returns how many, 0 for a plain variable. */
static size_t option_names(const gov_knob *k, char *first, size_t cap, const char **names)
{
    size_t n = 0;

    if (!k->option)
        return 0;
    snprintf(first, cap, "%s%s", k->option, k->same_word ? "=" : "");
    names[n++] = first;
    for (size_t i = 0; k->spellings[i] && n < GOV_SPELLINGS_MAX; i++)
        names[n++] = k->spellings[i];
    return n;
}

/* What this run wants for k: PLANNED with buf set, or the reason it sets
 * nothing. */
static gov_runenv_reason want(const builder *b, const gov_knob *k, gov_runenv_entry *e,
                              char *buf, size_t cap)
{
    gov_runenv_reason why;
    uint64_t seen;

    e->bytes = k->kind == GOV_KNOB_MEMORY || (k->kind == GOV_KNOB_GPU && k->planned_bytes);
    e->gpu = k->kind == GOV_KNOB_GPU;
    if (b->scope == SCOPE_NONE || (b->scope == SCOPE_CPU && k->kind != GOV_KNOB_CPU))
        return GOV_RUNENV_NOT_ASKED;
    if (k->kind == GOV_KNOB_MEMORY && b->no_share != GOV_RUNENV_PLANNED)
        return b->no_share;
    why = setting_for(k, &b->now, buf, cap, &e->planned);
    if (why != GOV_RUNENV_PLANNED) {
        e->planned = GOV_UNKNOWN;
        return why;
    }
    if (k->kind == GOV_KNOB_MEMORY)
        e->basis = b->now.share;
    else if (k->kind == GOV_KNOB_GPU)
        e->basis = k->planned_bytes ? b->now.gpu_memory : b->now.gpu_milli;
    seen = k->sees ? k->sees(b->snap, &b->now) : GOV_UNKNOWN;
    if (seen != GOV_UNKNOWN) {
        e->basis = seen;
        return GOV_RUNENV_RUNTIME_SEES;
    }
    return GOV_RUNENV_PLANNED;
}

/* ---- one knob ------------------------------------------------------------- */

/* The variable cur with [at, at + len) replaced by word ("" removes it,
 * with one blank beside it); NULL when nothing is left. */
static char *splice(const char *cur, size_t at, size_t len, const char *word)
{
    size_t n = strlen(cur), w = strlen(word), head = at, tail = at + len;
    char *v;

    if (!w) {
        if (tail < n && gov__is_space(cur[tail]))
            tail++;
        else if (head > 0 && gov__is_space(cur[head - 1]))
            head--;
    }
    v = malloc(head + w + (n - tail) + 1);
    if (!v)
        return NULL;
    memcpy(v, cur, head);
    memcpy(v + head, word, w);
    memcpy(v + head + w, cur + tail, n - tail + 1);
    return v;
}

static int put_splice(builder *b, const char *name, const char *cur, size_t at, size_t len,
                      const char *word)
{
    char *v = splice(cur, at, len, word);
    size_t i;
    int rc;

    if (!v)
        return GOV_ENOMEM;
    for (i = 0; v[i] && gov__is_space(v[i]); i++)
        ;
    rc = put(b, name, v[i] ? v : NULL);
    free(v);
    return rc;
}

/* An option variable is appended to, never replaced: its other words stay. */
static int put_append(builder *b, const char *name, const char *var, const char *word)
{
    size_t n = (var ? strlen(var) + 1 : 0) + strlen(word) + 1;
    char *v = malloc(n);
    int rc;

    if (!v)
        return GOV_ENOMEM;
    snprintf(v, n, "%s%s%s", var ? var : "", var && *var ? " " : "", word);
    rc = put(b, name, v);
    free(v);
    return rc;
}

/* Whether the markers say an earlier run or step wrote cur: its figures
 * give exactly that setting. */
static bool was_ours(const builder *b, const gov_knob *k, const char *cur, size_t len)
{
    char prev[64];
    uint64_t planned;
    uint64_t was = k->kind == GOV_KNOB_CPU    ? b->prev.threads
                 : k->kind == GOV_KNOB_MEMORY ? b->prev.share
                                              : b->prev.gpu_milli;

    return was && setting_for(k, &b->prev, prev, sizeof prev, &planned) == GOV_RUNENV_PLANNED &&
           strlen(prev) == len && !memcmp(cur, prev, len);
}

/* Another name the runtime reads for k's setting (k->also[which]), set by
 * the user: theirs, and ours never goes beside it (JAX refuses both
 * XLA_PYTHON_CLIENT_MEM_FRACTION and XLA_CLIENT_MEM_FRACTION; .NET's
 * absolute limit would override the user's percentage); one of ours there
 * before is removed. */
static int keep_also(builder *b, const gov_knob *k, gov_runenv_entry *e, size_t which,
                     const char *alt, const char *var)
{
    e->action = GOV_RUNENV_KEEP;
    e->reason = GOV_RUNENV_USER;
    show(e, alt, strlen(alt));
    e->user = k->user(GOV_ALSO_WHICH + which, alt, strlen(alt), &b->now);
    e->exceeds = e->user != GOV_UNKNOWN && e->planned != GOV_UNKNOWN && e->user > e->planned;
    return var && was_ours(b, k, var, strlen(var)) ? put(b, k->name, NULL) : 0;
}

static int decide_knob(builder *b, const gov_knob *k)
{
    gov_runenv_entry *e = entry(b, k->name, k->option, k->runtime);
    const char *names[GOV_SPELLINGS_MAX];
    char first[64];
    size_t nnames = option_names(k, first, sizeof first, names);
    const char *var = current(b, k->name), *cur = NULL;
    gov_envval_option o = { 0 };
    char goal[64];
    gov_runenv_reason why = want(b, k, e, goal, sizeof goal);
    bool ours = false, mine_heap = false;

    for (size_t a = 0; a < GOV_ALSO_MAX && k->also[a]; a++) {
        const char *alt = current(b, k->also[a]);
        if (alt)
            return keep_also(b, k, e, a, alt, var);
    }
    if (var && nnames && !gov__envval_find_option(var, strlen(var), names, nnames, &o)) {
        cur = var + o.start;
        mine_heap = k->heap_from && o.which >= k->heap_from;
    } else if (var && !nnames) {
        o.len = strlen(var);
        o.value_len = o.len;
        cur = var;
    }
    if (cur && !mine_heap)
        ours = was_ours(b, k, cur, o.len);
    if (!cur) {
        if (why != GOV_RUNENV_PLANNED) {
            e->action = GOV_RUNENV_SKIP;
            e->reason = why;
            return 0;
        }
        e->action = GOV_RUNENV_SET;
        e->reason = GOV_RUNENV_PLANNED;
        show(e, goal, strlen(goal));
        return nnames ? put_append(b, e->name, var, goal) : put(b, e->name, goal);
    }
    if (ours || (b->force && why == GOV_RUNENV_PLANNED && !mine_heap)) {
        if (why != GOV_RUNENV_PLANNED) {
            /* Ours, and this run sets nothing there: an earlier figure
             * would describe another allocation. */
            e->action = GOV_RUNENV_SKIP;
            e->reason = GOV_RUNENV_CLEARED;
            return nnames ? put_splice(b, e->name, var, o.start, o.len, "")
                          : put(b, e->name, NULL);
        }
        e->action = GOV_RUNENV_SET;
        e->reason = ours ? GOV_RUNENV_REPLACED : GOV_RUNENV_FORCED;
        show(e, goal, strlen(goal));
        return nnames ? put_splice(b, e->name, var, o.start, o.len, goal)
                      : put(b, e->name, goal);
    }
    e->action = GOV_RUNENV_KEEP;
    e->reason = mine_heap ? GOV_RUNENV_USER_HEAP : GOV_RUNENV_USER;
    show(e, cur, o.len);
    e->user = k->user(o.which, var + o.value, o.value_len, &b->now);
    e->exceeds = e->user != GOV_UNKNOWN && e->planned != GOV_UNKNOWN && e->user > e->planned;
    return 0;
}

/* ---- pools and markers ------------------------------------------------------ */

/* A GOVERNOR_* value: set when in scope and known (value not NULL), else
 * removed (only governor run and the plugin write these names). */
static gov_runenv_entry *text_figure(builder *b, const char *name, gov_runenv_reason why,
                                     bool in_scope, const char *value, const char *what,
                                     int *rc)
{
    gov_runenv_entry *e = entry(b, name, NULL, what);

    if (!in_scope || !value) {
        e->action = GOV_RUNENV_SKIP;
        e->reason = gov__env_get(b->envp, name) ? GOV_RUNENV_CLEARED
                  : !in_scope                  ? GOV_RUNENV_NOT_ASKED
                                               : GOV_RUNENV_MEMORY_UNKNOWN;
        *rc = put(b, name, NULL);
        return e;
    }
    e->action = GOV_RUNENV_SET;
    e->reason = why;
    show(e, value, strlen(value));
    *rc = put(b, name, value);
    return e;
}

static int figure(builder *b, const char *name, gov_runenv_reason why, bool in_scope,
                  uint64_t v, int bytes, const char *what)
{
    char buf[24];
    gov_runenv_entry *e;
    int rc;

    /* A GPU share's marker is a fraction, as the knobs write it. */
    if (!strcmp(name, GOV_GPU_SHARE_ENV))
        snprintf(buf, sizeof buf, "%" PRIu64 ".%03" PRIu64, v / GOV_GPU_MILLI, v % GOV_GPU_MILLI);
    else
        snprintf(buf, sizeof buf, "%" PRIu64, v);
    e = text_figure(b, name, why, in_scope, v == GOV_UNKNOWN ? NULL : buf, what, &rc);
    e->bytes = bytes;
    if (e->action == GOV_RUNENV_SET)
        e->planned = v;
    return rc;
}

/* The reason the entry just decided is skipped, where "not asked for"
 * (the run's scope) is not it: --governor=threads is not what left it out. */
static void why_skipped(builder *b, gov_runenv_reason why)
{
    gov_runenv_entry *e = &b->env->entries[b->env->count - 1];

    if (e->action == GOV_RUNENV_SKIP && e->reason == GOV_RUNENV_NOT_ASKED)
        e->reason = why;
}

/* A shared GPU's marker, set where in_scope (a share, and its figure known). */
static int gpu_marker(builder *b, const char *name, bool in_scope, uint64_t v, int bytes,
                      const char *what)
{
    int rc = figure(b, name, GOV_RUNENV_MARKER, in_scope, v, bytes, what);

    b->env->entries[b->env->count - 1].gpu = 1;
    if (b->scope == SCOPE_ALL)
        why_skipped(b, b->now.gpu_milli ? GOV_RUNENV_GPU_MEMORY_UNKNOWN
                                        : GOV_RUNENV_NO_GPU_SHARE);
    return rc;
}

/* The plan's per-worker figures (GOV_PLAN_WORKERS_NUMA) as one list each,
 * a worker's entry in the order of .topology.task.numa: threads and bytes
 * comma-separated, CPU lists (which hold commas) colon-separated.  NULL
 * when any figure is unknown, or on ENOMEM with *rc set. */
static char *worker_list(const builder *b, int which, int *rc)
{
    const gov_plan *p = &b->env->pool;
    gov_text_buf o = gov__text_growable();
    bool unknown = false;
    char *out;

    for (uint32_t i = 0; i < p->numa_workers && !unknown; i++) {
        uint64_t v = which == 0 ? p->worker[i].threads : p->worker[i].memory_limit_bytes;
        if (i)
            gov__text_append(&o, which == 2 ? ":" : ",", 1);
        if (which == 2)
            gov__cpuset_put(&o, &b->snap->topology.numa[i].cpus);
        else if (v == GOV_UNKNOWN)
            unknown = true;
        else
            gov__text_put(&o, "%" PRIu64, v);
    }
    *rc = gov__text_take(&o, &out, NULL);
    if (*rc)
        return NULL;
    if (unknown) {
        free(out);
        return NULL;
    }
    return out;
}

static int worker_lists(builder *b, bool all)
{
    static const struct { const char *name, *what; } lists[] = {
        { "GOVERNOR_WORKER_THREADS", "NUMA workers: native threads of each" },
        { "GOVERNOR_WORKER_MEMORY", "NUMA workers: bytes each may use" },
        { "GOVERNOR_WORKER_CPUS", "NUMA workers: the CPUs of each, colon-separated lists" },
    };
    bool in_scope = all && b->env->pool.numa_workers > 0;
    int rc = 0;

    for (int i = 0; i < 3 && !rc; i++) {
        char *v = in_scope ? worker_list(b, i, &rc) : NULL;
        if (!rc) {
            text_figure(b, lists[i].name, GOV_RUNENV_POOL, in_scope, v, lists[i].what, &rc);
            if (all)
                why_skipped(b, GOV_RUNENV_NOT_NUMA);
        }
        free(v);
    }
    return rc;
}

/* OpenMP placement, only when asked: binding threads is right for a
 * program that owns its CPUs and wrong for one that shares them. */
static int omp_place(builder *b, const char *name, const char *value, bool asked)
{
    const char *cur = gov__env_get(b->envp, name);
    gov_runenv_entry *e = entry(b, name, NULL, "OpenMP 4.0 runtimes (libgomp, libomp)");

    if (!asked) {
        e->action = GOV_RUNENV_SKIP;
        e->reason = GOV_RUNENV_NOT_PLACES;
        return 0;
    }
    if (cur && !b->force) {
        e->action = GOV_RUNENV_KEEP;
        e->reason = GOV_RUNENV_USER;
        show(e, cur, strlen(cur));
        return 0;
    }
    e->action = GOV_RUNENV_SET;
    e->reason = cur ? GOV_RUNENV_FORCED : GOV_RUNENV_PLANNED;
    show(e, value, strlen(value));
    return put(b, name, value);
}

static int decide(builder *b)
{
    const gov_plan *pool = &b->env->pool;
    bool all = b->scope == SCOPE_ALL, hints = all && b->no_share == GOV_RUNENV_PLANNED;
    bool gpu = all && b->now.gpu_milli;
    int rc = 0;

    for (size_t i = 0; i < gov__knob_count && !rc; i++)
        rc = decide_knob(b, &gov__knobs[i]);
    if (!rc)
        rc = figure(b, "GOVERNOR_WORKERS", GOV_RUNENV_POOL, all, pool->workers, 0,
                    "process pools: how many workers to start");
    if (!rc)
        rc = figure(b, "GOVERNOR_THREADS_PER_WORKER", GOV_RUNENV_POOL, all,
                    pool->threads_per_worker, 0, "process pools: native threads each");
    if (!rc)
        rc = figure(b, "GOVERNOR_MEMORY_PER_WORKER", GOV_RUNENV_POOL, all,
                    pool->memory_limit_per_worker, 1, "process pools: bytes each worker may use");
    if (!rc)
        rc = worker_lists(b, all);
    if (!rc)
        rc = omp_place(b, "OMP_PLACES", b->env->plan.flags & GOV_PLAN_PER_CORE ? "cores" : "threads",
                       b->omp_places);
    if (!rc)
        rc = omp_place(b, "OMP_PROC_BIND", "close", b->omp_places);
    if (!rc)
        rc = figure(b, GOV_THREADS_ENV, GOV_RUNENV_MARKER, b->scope != SCOPE_NONE,
                    b->now.threads, 0, "governor run and the plugin: the thread figure exported");
    if (!rc)
        rc = figure(b, GOV_MEMORY_ENV, GOV_RUNENV_MARKER, hints, b->now.share, 1,
                    "governor run and the plugin: the memory share the hints derive from");
    if (!rc && all)
        why_skipped(b, b->no_share);
    if (!rc)
        rc = gpu_marker(b, GOV_GPU_SHARE_ENV, gpu, b->now.gpu_milli, 0,
                        "governor run and the plugin: the GPU share the GPU variables derive from");
    if (!rc)
        rc = gpu_marker(b, GOV_GPU_MEMORY_ENV, gpu && b->now.gpu_memory != GOV_UNKNOWN,
                        b->now.gpu_memory, 1,
                        "governor run and the plugin: the GPU memory of that share, bytes");
    return rc;
}

/* ---- affinity ----------------------------------------------------------------- */

/* Runtimes that count only the affinity mask (Node's availableParallelism,
 * Python's sched_getaffinity) see every CPU of the set under a quota that
 * allows fewer: narrow the mask to as many CPUs as the quota's ceiling.
 * Tasks of a step that share one mask (--cpu-bind=none) would all take the
 * same lowest CPUs, so each starts at its local task id (SLURM_LOCALID)
 * times that count, in the mask's order, wrapping: task 0 the first CPUs,
 * task 1 the next.  The snapshot then describes what the command will
 * see. */
/* The CPUs to narrow the mask of s to; 0 leaves it alone. */
static uint64_t narrow_to(const gov_snapshot *s, unsigned flags)
{
    double q = s->cpu.cgroup.quota_cores;
    uint64_t n, have = s->cpu.affinity.count;

    if ((flags & (GOV_RUNENV_KEEP_AFFINITY | GOV_RUNENV_CPU_ONLY | GOV_RUNENV_CLEAR)) ||
        isnan(q) || have == GOV_UNKNOWN || have == 0)
        return 0;
    n = q <= 1.0 ? 1 : (uint64_t)ceil(q);
    return n < have ? n : 0;
}

static void narrow(gov_runenv *env, const char *const *envp, uint64_t n, gov_snapshot *view)
{
    const char *lid = gov__env_get(envp, GOV_LOCALID_ENV);
    uint64_t have = view->cpu.affinity.count, kept = 0, local = 0, skip;

    if (!lid || gov__parse_dec(lid, strlen(lid), 0, UINT32_MAX, &local))
        local = 0;
    skip = (local % have) * n % have;
    memset(&env->affinity, 0, sizeof env->affinity);
    /* Twice round the mask at most: from the skip-th CPU to its end, then
     * from its start. */
    for (unsigned pass = 0; pass < 2 && kept < n; pass++) {
        uint64_t seen = 0;
        GOV_CPU_FOREACH(cpu, &view->cpu.affinity.set) {
            if (kept == n)
                break;
            if (pass == 0 ? seen++ < skip : seen++ >= skip)
                continue;
            gov__cpu_add(&env->affinity, cpu);
            kept++;
        }
    }
    env->affinity_count = n;
    view->cpu.affinity.set = env->affinity;
    view->cpu.affinity.count = n;
    gov_snapshot_resolve(view);
}

/* ---- the whole ---------------------------------------------------------------- */

static uint64_t marker(const char *const *envp, const char *name)
{
    const char *v = gov__env_get(envp, name);
    uint64_t x;

    return v && !gov__parse_u64(v, strlen(v), &x) ? x : 0;
}

/* A fraction marker, in thousandths; 0 when unset or not a fraction. */
static uint64_t marker_milli(const char *const *envp, const char *name)
{
    const char *v = gov__env_get(envp, name);
    uint64_t x;

    return v && !gov__envval_fraction(v, strlen(v), &x) ? x : 0;
}

/* A task's part of a shard's or an MPS client's share of one GPU, from the
 * snapshot: the step's tasks on the node hold the share together (Slurm
 * gives them all the same device), so each plans on its part.  Whole
 * GPUs, MIG instances and partitions are the runtimes' own to size. */
static void gpu_basis(const gov_snapshot_scheduler *s, gov_knob_basis *k)
{
    uint64_t tasks = s->tasks_on_node != GOV_UNKNOWN && s->tasks_on_node > 1 ? s->tasks_on_node
                                                                             : 1;
    double milli = s->gpu_share * GOV_GPU_MILLI / (double)tasks;
    bool shared = s->gpu_share_kind == GOV_GPU_SHARE_SHARD ||
                  s->gpu_share_kind == GOV_GPU_SHARE_MPS;

    k->gpu_kind = s->gpu_share_kind;
    k->gpu_milli = shared && !isnan(milli) && milli >= 1 && s->gpu_share < 1
                 ? (uint64_t)milli : 0;
    k->gpu_memory = k->gpu_milli && s->gpu_memory_bytes != GOV_UNKNOWN
                  ? s->gpu_memory_bytes / tasks : GOV_UNKNOWN;
}

/* The builder's entries and variables, and the snapshot as the command
 * will see it: snap, or a narrowed copy in *view that the caller frees. */
static int builder_open(builder *b, const gov_snapshot *snap, unsigned flags, gov_snapshot **view)
{
    uint64_t narrowed = narrow_to(snap, flags);

    *view = NULL;
    b->cap = gov__knob_count + GOV_POOL_ENTRIES;
    b->env = calloc(1, sizeof *b->env);
    /* A copy (38 KiB) only to narrow: the plugin plans each task of a step
     * in a forked slurmstepd, where every page written is a fault. */
    if (narrowed)
        *view = malloc(sizeof **view);
    if (b->env) {
        b->env->entries = calloc(b->cap, sizeof *b->env->entries);
        b->env->vars = calloc(b->cap, sizeof *b->env->vars);
    }
    if (!b->env || !b->env->entries || !b->env->vars || (narrowed && !*view)) {
        free(*view);
        *view = NULL;
        gov_runenv_free(b->env);
        b->env = NULL;
        return GOV_ENOMEM;
    }
    b->env->affinity_from = snap->cpu.affinity.count;
    b->snap = snap;
    if (narrowed) {
        **view = *snap;
        narrow(b->env, b->envp, narrowed, *view);
        b->snap = *view;
    }
    return 0;
}

/* The plan, the pool, and the figures every knob is decided from. */
static int builder_plan(builder *b, uint64_t requested_workers, unsigned flags)
{
    unsigned plan_flags = (flags & GOV_RUNENV_PER_CORE ? GOV_PLAN_PER_CORE : 0) |
                          (flags & GOV_RUNENV_WORKERS_NUMA ? GOV_PLAN_WORKERS_NUMA : 0);
    /* NUMA workers: the command is one of the workers, the pool all of
     * them; without a topology that fails and both are planned without. */
    int rc = gov_plan_compute(b->snap, requested_workers, plan_flags, &b->env->plan);

    if (rc == 0 || rc == GOV_ENOENT)
        rc = gov_plan_compute(b->snap, requested_workers ? requested_workers
                                                         : b->env->plan.cpu_workers,
                              plan_flags, &b->env->pool);
    if (rc)
        return rc;
    b->now.threads = b->env->plan.threads_per_worker;
    /* A variable is read once, when a runtime starts, and lasts its
     * lifetime: the hints derive from the allocation's share, not from what
     * happens to be free at this moment (docs/runtimes.md). */
    b->now.share = b->env->plan.memory_limit_per_worker;
    gpu_basis(&b->snap->scheduler, &b->now);
    b->prev.threads = marker(b->envp, GOV_THREADS_ENV);
    b->prev.share = marker(b->envp, GOV_MEMORY_ENV);
    b->prev.gpu_milli = marker_milli(b->envp, GOV_GPU_SHARE_ENV);
    b->prev.gpu_memory = marker(b->envp, GOV_GPU_MEMORY_ENV);
    if (!b->prev.gpu_memory)
        b->prev.gpu_memory = GOV_UNKNOWN;
    /* No marker keeps the kind: an MPS limit exactly as the markers' memory
     * gives it was written by us all the same. */
    b->prev.gpu_kind = GOV_GPU_SHARE_MPS;
    if (b->now.share == GOV_UNKNOWN)
        b->no_share = GOV_RUNENV_MEMORY_UNKNOWN;
    else if (b->snap->memory.effective.binding == GOV_LAYER_HOST)
        b->no_share = GOV_RUNENV_NO_ALLOCATION;
    else
        b->no_share = GOV_RUNENV_PLANNED;
    return 0;
}

int gov_runenv_compute(const gov_snapshot *snap, uint64_t requested_workers,
                       const char *const *envp, unsigned flags, gov_runenv **out)
{
    static const char *const empty[] = { NULL };
    builder b = { .envp = envp ? envp : empty };
    const unsigned known = GOV_RUNENV_FORCE | GOV_RUNENV_CPU_ONLY | GOV_RUNENV_CLEAR |
                           GOV_RUNENV_KEEP_AFFINITY | GOV_RUNENV_PER_CORE |
                           GOV_RUNENV_WORKERS_NUMA | GOV_RUNENV_OMP_PLACES;
    gov_snapshot *view;
    int rc;

    if (!snap || !out || (flags & ~known) ||
        ((flags & GOV_RUNENV_CPU_ONLY) && (flags & GOV_RUNENV_CLEAR)))
        return GOV_EINVAL;
    *out = NULL;
    b.force = !!(flags & GOV_RUNENV_FORCE);
    b.omp_places = flags & GOV_RUNENV_OMP_PLACES;
    b.scope = flags & GOV_RUNENV_CLEAR ? SCOPE_NONE : flags & GOV_RUNENV_CPU_ONLY ? SCOPE_CPU
                                                                                : SCOPE_ALL;
    if (flags & GOV_RUNENV_WORKERS_NUMA)
        flags |= GOV_RUNENV_KEEP_AFFINITY;
    rc = builder_open(&b, snap, flags, &view);
    if (rc)
        return rc;
    rc = builder_plan(&b, requested_workers, flags);
    if (!rc)
        rc = decide(&b);
    free(view);
    if (rc) {
        gov_runenv_free(b.env);
        return rc;
    }
    *out = b.env;
    return 0;
}

void gov_runenv_free(gov_runenv *env)
{
    if (!env)
        return;
    for (size_t i = 0; env->vars && i < env->nvars; i++)
        free(env->vars[i].value);
    free(env->vars);
    free(env->entries);
    free(env);
}
