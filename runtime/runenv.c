/* runenv.c - the environment `governor run` gives a command (governor.h,
 * "Environment for a command"): which knob gets which value, and why.
 * Decides only; the tool applies the changes. */
#include "governor.h"

#include "envval.h"
#include "evidence.h"
#include "knobs.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GOMEMLIMIT bounds only the Go runtime's own memory: cgo allocations and
 * the binary itself live in the same share, so leave them a tenth. */
#define GOV_GO_PERCENT 90
/* V8's old generation is most, not all, of a Node process: V8's young
 * generation (up to 48 MiB), code, and Node's own memory outside the heap
 * need the rest.  Leave them a quarter of the share, at least 128 MiB
 * (Node's documentation suggests three quarters of the memory for the old
 * generation); a share too small for that gets a quarter, V8's own ratio. */
#define GOV_NODE_HEADROOM_MIB 128
#define GOV_NODE_MIN_MIB 16
/* That headroom holds V8's young generation (three semi-spaces) only while
 * a semi-space stays at Node 20's 16 MiB: Node 22+ grow it with the host's
 * memory (64 MiB each on a 24 GiB host: 192 MiB, seen with Node 24), past
 * a step's memory.  So cap it: 16 MiB, or a sixteenth of a smaller share. */
#define GOV_NODE_SEMI_MIB 16

#define GOV_MIB (UINT64_C(1) << 20)

/* The GOVERNOR_* entries decide() adds after the knobs. */
#define GOV_POOL_ENTRIES 4

typedef struct builder {
    gov_runenv *env;
    const gov_snapshot *snap;
    const char *const *envp;
    int force;
    uint64_t prev_threads;       /* GOVERNOR_THREADS already there; 0 none */
    uint64_t share;              /* memory per worker for the hints */
    gov_runenv_reason no_share;  /* why share is unusable; PLANNED when usable */
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

static void keep(gov_runenv_entry *e, gov_runenv_reason why, const char *text, size_t len,
                 uint64_t user)
{
    e->action = GOV_RUNENV_KEEP;
    e->reason = why;
    show(e, text, len);
    e->user = user;
    e->exceeds = user != GOV_UNKNOWN && e->planned != GOV_UNKNOWN && user > e->planned;
}

static void skip(gov_runenv_entry *e, gov_runenv_reason why)
{
    e->action = GOV_RUNENV_SKIP;
    e->reason = why;
}

/* The value NAME has now: a change decided earlier, else the environment. */
static const char *current(const builder *b, const char *name)
{
    for (size_t i = 0; i < b->env->nvars; i++)
        if (!strcmp(b->env->vars[i].name, name))
            return b->env->vars[i].value;
    return gov_env_get(b->envp, name);
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

static int set(builder *b, gov_runenv_entry *e, gov_runenv_reason why, const char *value)
{
    e->action = GOV_RUNENV_SET;
    e->reason = why;
    show(e, value, strlen(value));
    return put(b, e->name, value);
}

/* Append one option to an option variable, never dropping its words. */
static int append(builder *b, gov_runenv_entry *e, gov_runenv_reason why, const char *cur,
                  const char *opt)
{
    size_t n = (cur ? strlen(cur) + 1 : 0) + strlen(opt) + 1;
    char *v = malloc(n);
    int rc;

    if (!v)
        return GOV_ENOMEM;
    snprintf(v, n, "%s%s%s", cur ? cur : "", cur && *cur ? " " : "", opt);
    e->action = GOV_RUNENV_SET;
    e->reason = why;
    show(e, opt, strlen(opt));
    rc = put(b, e->name, v);
    free(v);
    return rc;
}

static int count_knob(builder *b, const gov_knob *k, uint64_t threads)
{
    gov_runenv_entry *e = entry(b, k->name, NULL, k->runtime);
    const char *cur = gov_env_get(b->envp, k->name);
    char want[24], prev[24];
    uint64_t user;

    e->planned = gov_knob_threads(k, threads);
    snprintf(want, sizeof want, "%" PRIu64, e->planned);
    if (!cur)
        return set(b, e, GOV_RUNENV_PLANNED, want);
    /* A value still equal to what an earlier run or the plugin exported is
     * not the user's. */
    snprintf(prev, sizeof prev, "%" PRIu64, gov_knob_threads(k, b->prev_threads));
    if (b->prev_threads && !strcmp(cur, prev))
        return set(b, e, GOV_RUNENV_REPLACED, want);
    if (b->force)
        return set(b, e, GOV_RUNENV_FORCED, want);
    keep(e, GOV_RUNENV_USER, cur, strlen(cur),
         gov_envval_count(cur, strlen(cur), &user) ? GOV_UNKNOWN : user);
    return 0;
}

/* Percent of the per-worker share, whole MiB; 0 when nothing fits. */
static uint64_t hint_mib(const builder *b, unsigned percent)
{
    if (b->no_share != GOV_RUNENV_PLANNED)
        return 0;
    return (b->share / 100 * percent + b->share % 100 * percent / 100) / GOV_MIB;
}

/* A memory knob's figures: bytes, and what they derive from. */
static void hint(gov_runenv_entry *e, const builder *b, uint64_t mib)
{
    e->bytes = 1;
    if (mib) {
        e->planned = mib * GOV_MIB;
        e->basis = b->share;
    }
}

/* The reason a hint is not set when hint_mib() gave 0. */
static gov_runenv_reason no_hint(const builder *b)
{
    return b->no_share != GOV_RUNENV_PLANNED ? b->no_share : GOV_RUNENV_TOO_SMALL;
}

static int go_knob(builder *b, const gov_knob *k)
{
    gov_runenv_entry *e = entry(b, k->name, NULL, k->runtime);
    const char *cur = gov_env_get(b->envp, k->name);
    uint64_t mib = hint_mib(b, GOV_GO_PERCENT), user;
    char want[32];

    hint(e, b, mib);
    if (cur && (!b->force || !mib)) {
        keep(e, GOV_RUNENV_USER, cur, strlen(cur),
             gov_envval_go_bytes(cur, strlen(cur), &user) ? GOV_UNKNOWN : user);
        return 0;
    }
    if (!mib) {
        skip(e, no_hint(b));
        return 0;
    }
    snprintf(want, sizeof want, "%" PRIu64 "MiB", mib);
    return set(b, e, cur ? GOV_RUNENV_FORCED : GOV_RUNENV_PLANNED, want);
}

static uint64_t node_mib(const builder *b)
{
    uint64_t share = hint_mib(b, 100), room = share / 4;

    if (room < GOV_NODE_HEADROOM_MIB)
        room = GOV_NODE_HEADROOM_MIB;
    return share > room + GOV_NODE_MIN_MIB ? share - room : share / 4;
}

static uint64_t node_semi_mib(const builder *b)
{
    uint64_t mib = hint_mib(b, 100) / 16;

    return mib < GOV_NODE_SEMI_MIB ? mib : GOV_NODE_SEMI_MIB;
}

/* One V8 size option in NODE_OPTIONS (names: its two spellings), mib MiB. */
static int node_option_knob(builder *b, const gov_knob *k, const char *const names[2],
                            uint64_t mib)
{
    gov_runenv_entry *e = entry(b, k->name, k->option, k->runtime);
    const char *cur = current(b, k->name);
    uint64_t user;
    gov_envval_option o;
    int found = cur && !gov_envval_find_option(cur, strlen(cur), names, 2, &o);
    char opt[64];

    hint(e, b, mib);
    if (found && (!b->force || !mib)) {
        uint64_t v;
        user = GOV_UNKNOWN;
        if (!gov_envval_count(cur + o.value, o.value_len, &v) && v <= UINT64_MAX / GOV_MIB)
            user = v * GOV_MIB;
        keep(e, GOV_RUNENV_USER, cur + o.start, o.len, user);
        return 0;
    }
    if (!mib) {
        skip(e, no_hint(b));
        return 0;
    }
    snprintf(opt, sizeof opt, "%s=%" PRIu64, k->option, mib);
    return append(b, e, found ? GOV_RUNENV_FORCED : GOV_RUNENV_PLANNED, cur, opt);
}

static const char *const node_old_names[] = { "--max-old-space-size", "--max_old_space_size" };
static const char *const node_semi_names[] = { "--max-semi-space-size", "--max_semi_space_size" };

/* The CPUs HotSpot counts by itself: its affinity mask and, with container
 * support, the cgroup quota rounded up. */
static uint64_t jvm_cpus(const gov_snapshot *s)
{
    uint64_t n = s->cpu.affinity.count;
    double q = s->cpu.cgroup.quota_cores;

    if (!isnan(q)) {
        uint64_t c = q < 1.0 ? 1 : (uint64_t)ceil(q);
        if (n == GOV_UNKNOWN || c < n)
            n = c;
    }
    return n;
}

static int java_cpus_knob(builder *b, const gov_knob *k, uint64_t threads)
{
    static const char *const names[] = { "-XX:ActiveProcessorCount=" };
    gov_runenv_entry *e = entry(b, k->name, k->option, k->runtime);
    const char *cur = current(b, k->name);
    uint64_t seen = jvm_cpus(b->snap), user;
    gov_envval_option o;
    int found = cur && !gov_envval_find_option(cur, strlen(cur), names, 1, &o);
    char opt[64];

    e->planned = threads;
    if (found && !b->force) {
        keep(e, GOV_RUNENV_USER, cur + o.start, o.len,
             gov_envval_count(cur + o.value, o.value_len, &user) ? GOV_UNKNOWN : user);
        return 0;
    }
    if (!found && seen != GOV_UNKNOWN && threads >= seen) {
        e->basis = seen;
        skip(e, GOV_RUNENV_RUNTIME_SEES);
        return 0;
    }
    snprintf(opt, sizeof opt, "%s=%" PRIu64, k->option, threads);
    return append(b, e, found ? GOV_RUNENV_FORCED : GOV_RUNENV_PLANNED, cur, opt);
}

static int java_ram_knob(builder *b, const gov_knob *k)
{
    static const char *const names[] = { "-XX:MaxRAM=", "-Xmx", "-XX:MaxHeapSize=" };
    gov_runenv_entry *e = entry(b, k->name, k->option, k->runtime);
    const char *cur = current(b, k->name);
    const gov_snapshot *s = b->snap;
    uint64_t mib = hint_mib(b, 100), user, limit = b->env->plan.memory_limit_per_worker;
    /* With container support HotSpot reads the cgroup's hard limit (v1: the
     * hierarchical one) but nothing of the scheduler or of our share. */
    uint64_t seen = s->memory.cgroup.status == GOV_LIMIT_LIMITED ? s->memory.cgroup.limit_bytes
                                                                   : GOV_UNKNOWN;
    gov_envval_option o;
    int found = cur && !gov_envval_find_option(cur, strlen(cur), names, 3, &o);
    char opt[64];

    hint(e, b, mib);
    /* --force appends, and an appended MaxRAM cannot undo the user's -Xmx. */
    if (found && (!b->force || !mib || o.which > 0)) {
        keep(e, o.which ? GOV_RUNENV_USER_HEAP : GOV_RUNENV_USER, cur + o.start, o.len,
             gov_envval_java_size(cur + o.value, o.value_len, &user) ? GOV_UNKNOWN : user);
        return 0;
    }
    if (!mib) {
        skip(e, no_hint(b));
        return 0;
    }
    if (!found && seen != GOV_UNKNOWN && limit != GOV_UNKNOWN && limit >= seen) {
        e->basis = seen;
        skip(e, GOV_RUNENV_RUNTIME_SEES);
        return 0;
    }
    snprintf(opt, sizeof opt, "%s=%" PRIu64 "m", k->option, mib);
    return append(b, e, found ? GOV_RUNENV_FORCED : GOV_RUNENV_PLANNED, cur, opt);
}

static int pool_count(builder *b, const char *name, gov_runenv_reason why, uint64_t v,
                      const char *what)
{
    gov_runenv_entry *e = entry(b, name, NULL, what);
    char buf[24];

    e->planned = v;
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return set(b, e, why, buf);
}

/* What a worker may use: its share of the free memory, else of the limit. */
static uint64_t worker_memory(const gov_plan *p)
{
    return p->memory_remaining_per_worker != GOV_UNKNOWN ? p->memory_remaining_per_worker
                                                          : p->memory_limit_per_worker;
}

static int pool_memory(builder *b)
{
    const gov_plan *p = &b->env->pool;
    gov_runenv_entry *e = entry(b, "GOVERNOR_MEMORY_PER_WORKER", NULL,
                                "process pools: bytes each worker may use");
    char buf[24];

    e->bytes = 1;
    e->planned = worker_memory(p);
    if (e->planned == GOV_UNKNOWN) {
        skip(e, GOV_RUNENV_MEMORY_UNKNOWN);
        /* An outer run's figure would describe another allocation. */
        return put(b, e->name, NULL);
    }
    snprintf(buf, sizeof buf, "%" PRIu64, e->planned);
    return set(b, e, GOV_RUNENV_POOL, buf);
}

/* The memory share the hints derive from, and why there is none. */
static void memory_share(builder *b)
{
    const gov_plan *p = &b->env->plan;

    b->share = worker_memory(p);
    if (b->share == GOV_UNKNOWN)
        b->no_share = GOV_RUNENV_MEMORY_UNKNOWN;
    else if (b->snap->memory.effective.binding == GOV_LAYER_HOST)
        b->no_share = GOV_RUNENV_NO_ALLOCATION;
    else
        b->no_share = GOV_RUNENV_PLANNED;
}

static int decide(builder *b)
{
    gov_runenv *env = b->env;
    uint64_t threads = env->plan.threads_per_worker;
    int rc = 0;

    for (size_t i = 0; i < gov_knob_count && !rc; i++) {
        const gov_knob *k = &gov_knobs[i];
        switch (k->kind) {
        case GOV_KNOB_THREADS:
        case GOV_KNOB_IO_THREADS: rc = count_knob(b, k, threads); break;
        case GOV_KNOB_GO_MEMLIMIT: rc = go_knob(b, k); break;
        case GOV_KNOB_NODE_HEAP:
            rc = node_option_knob(b, k, node_old_names, node_mib(b));
            break;
        case GOV_KNOB_NODE_YOUNG:
            rc = node_option_knob(b, k, node_semi_names, node_semi_mib(b));
            break;
        case GOV_KNOB_JAVA_CPUS: rc = java_cpus_knob(b, k, threads); break;
        case GOV_KNOB_JAVA_RAM: rc = java_ram_knob(b, k); break;
        }
    }
    if (!rc)
        rc = pool_count(b, "GOVERNOR_WORKERS", GOV_RUNENV_POOL, env->pool.workers,
                        "process pools: how many workers to start");
    if (!rc)
        rc = pool_count(b, "GOVERNOR_THREADS_PER_WORKER", GOV_RUNENV_POOL,
                        env->pool.threads_per_worker, "process pools: native threads each");
    if (!rc)
        rc = pool_memory(b);
    if (!rc)
        rc = pool_count(b, GOV_THREADS_ENV, GOV_RUNENV_MARKER, threads,
                        "governor run and --governor=threads");
    return rc;
}

int gov_runenv_compute(const gov_snapshot *snap, uint64_t requested_workers,
                       const char *const *envp, unsigned flags, gov_runenv **out)
{
    static const char *const empty[] = { NULL };
    builder b = { .snap = snap, .envp = envp ? envp : empty };
    const char *prev;
    int rc;

    if (!snap || !out || (flags & ~GOV_RUNENV_FORCE))
        return GOV_EINVAL;
    *out = NULL;
    b.force = !!(flags & GOV_RUNENV_FORCE);
    b.cap = gov_knob_count + GOV_POOL_ENTRIES;
    b.env = calloc(1, sizeof *b.env);
    if (!b.env)
        return GOV_ENOMEM;
    b.env->entries = calloc(b.cap, sizeof *b.env->entries);
    b.env->vars = calloc(b.cap, sizeof *b.env->vars);
    if (!b.env->entries || !b.env->vars) {
        gov_runenv_free(b.env);
        return GOV_ENOMEM;
    }
    gov_plan_compute(snap, requested_workers, &b.env->plan);
    gov_plan_compute(snap, requested_workers ? requested_workers : b.env->plan.cpu_workers,
                     &b.env->pool);
    prev = gov_env_get(b.envp, GOV_THREADS_ENV);
    if (!prev || gov_parse_u64(prev, strlen(prev), &b.prev_threads))
        b.prev_threads = 0;
    memory_share(&b);
    rc = decide(&b);
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

const char *gov_runenv_action_name(gov_runenv_action a)
{
    switch (a) {
    case GOV_RUNENV_SET: return "set";
    case GOV_RUNENV_KEEP: return "keep";
    case GOV_RUNENV_SKIP: return "skip";
    }
    return "unknown";
}

static const struct {
    const char *name, *text;
} gov_runenv_reasons[] = {
    [GOV_RUNENV_PLANNED] = { "planned", "the plan's figure; you had not set it" },
    [GOV_RUNENV_REPLACED] = { "replaced",
                              "the plan's figure, replacing what an earlier governor run or "
                              "--governor=threads exported" },
    [GOV_RUNENV_FORCED] = { "forced", "the plan's figure, replacing yours (--force)" },
    [GOV_RUNENV_POOL] = { "pool", "for process pools; always set" },
    [GOV_RUNENV_MARKER] = { "marker",
                            "records the thread figure exported, so that a nested run or a "
                            "step replaces it" },
    [GOV_RUNENV_USER] = { "user", "yours, kept (--force replaces it)" },
    [GOV_RUNENV_USER_HEAP] = { "user_heap", "your -Xmx or -XX:MaxHeapSize sizes the heap; kept" },
    [GOV_RUNENV_MEMORY_UNKNOWN] = { "memory_unknown", "no evidence of the memory budget" },
    [GOV_RUNENV_NO_ALLOCATION] = { "no_allocation",
                                   "only the host bounds memory: the runtime's own default "
                                   "applies" },
    [GOV_RUNENV_RUNTIME_SEES] = { "runtime_sees", "the JVM reads the same bound itself" },
    [GOV_RUNENV_TOO_SMALL] = { "too_small", "less than 1 MiB per worker: no useful figure" },
};

const char *gov_runenv_reason_name(gov_runenv_reason r)
{
    if ((unsigned)r >= sizeof gov_runenv_reasons / sizeof gov_runenv_reasons[0])
        return "unknown";
    return gov_runenv_reasons[r].name;
}

const char *gov_runenv_reason_text(gov_runenv_reason r)
{
    if ((unsigned)r >= sizeof gov_runenv_reasons / sizeof gov_runenv_reasons[0])
        return "unknown reason";
    return gov_runenv_reasons[r].text;
}
