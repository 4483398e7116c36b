/* The environment `governor run` gives a command: which knob gets which
 * value, and why (gov_runenv_compute). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runenv_var.h"

#define MIB (1ull << 20)

/* Two CPUs by affinity, a 512 MiB cgroup of which 500 MiB remain, in an
 * allocation (its batch profile keeps nothing back). */
static gov_snapshot alloc(void)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.cpu.affinity.count = 2;
    s.cpu.host.logical = 8;
    s.memory.host.total_bytes = 16384 * MIB;
    s.memory.host.available_bytes = 12000 * MIB;
    s.memory.cgroup.version = 1;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    s.memory.cgroup.limit_bytes = 512 * MIB;
    s.memory.cgroup.remaining_bytes = 500 * MIB;
    s.memory.cgroup.planning_remaining_bytes = 500 * MIB;
    gov_snapshot_resolve(&s);
    return s;
}

/* alloc()'s machine holding the sealed step of one task, 1 CPU and 256 MiB. */
static gov_snapshot sealed_task(void)
{
    gov_snapshot s = alloc();

    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.cpus_per_task = 1;
    s.scheduler.tasks_on_node = 1;
    s.scheduler.mem_per_node_bytes = 256 * MIB;
    gov_snapshot_resolve(&s);
    return s;
}

static const gov_runenv_entry *find(const gov_runenv *env, const char *name, const char *option)
{
    for (size_t i = 0; i < env->count; i++) {
        const gov_runenv_entry *e = &env->entries[i];
        if (!strcmp(e->name, name) &&
            (option ? e->option && !strcmp(e->option, option) : !e->option))
            return e;
    }
    fail_msg("no entry %s %s", name, option ? option : "");
    return NULL;
}

static gov_runenv *compute(const gov_snapshot *s, uint64_t workers, const char *const *envp,
                           unsigned flags)
{
    gov_runenv *env = NULL;

    assert_int_equal(gov_runenv_compute(s, workers, envp, flags, &env), 0);
    assert_non_null(env);
    return env;
}

static void test_fresh_environment(void **state)
{
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 0, NULL, 0);
    const gov_runenv_entry *e;

    assert_int_equal(env->plan.workers, 1);
    assert_int_equal(env->plan.threads_per_worker, 2);
    e = find(env, "OMP_NUM_THREADS", NULL);
    assert_int_equal(e->action, GOV_RUNENV_SET);
    assert_int_equal(e->reason, GOV_RUNENV_PLANNED);
    assert_string_equal(e->setting, "2");
    assert_non_null(e->runtime);
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "2");
    assert_string_equal(var(env, "GOMAXPROCS"), "2");
    assert_string_equal(var(env, "PYTHON_CPU_COUNT"), "2");
    assert_string_equal(var(env, "RAYON_NUM_THREADS"), "2");
    /* libuv's pool also waits on the disk: never below its default. */
    assert_string_equal(var(env, "UV_THREADPOOL_SIZE"), "4");
    /* 90 % and 75 % of the 512 MiB allocated (not of the 500 MiB that
     * happen to be free: a variable lasts the runtime's lifetime). */
    assert_string_equal(var(env, "GOMEMLIMIT"), "460MiB");
    e = find(env, "GOMEMLIMIT", NULL);
    assert_int_equal(e->planned, 460 * MIB);
    assert_int_equal(e->basis, 512 * MIB);
    assert_true(e->bytes);
    assert_string_equal(var(env, "NODE_OPTIONS"),
                        "--max-old-space-size=384 --max-semi-space-size=16");
    /* HotSpot counts the two CPUs and reads the cgroup's 512 MiB itself. */
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount");
    assert_int_equal(e->action, GOV_RUNENV_SKIP);
    assert_int_equal(e->reason, GOV_RUNENV_RUNTIME_SEES);
    assert_int_equal(e->basis, 2);
    /* But it would give its heap a quarter of it: three quarters, Node's
     * headroom of 128 MiB left for the rest of the JVM, of a MaxRAM pinned
     * to the share (in a container with a cgroup namespace the JVM sees
     * the host: 75 % of that would be far past the step). */
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage");
    assert_int_equal(e->action, GOV_RUNENV_SET);
    assert_int_equal(e->planned, 384 * MIB);
    assert_int_equal(e->basis, 512 * MIB);
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAM");
    assert_int_equal(e->action, GOV_RUNENV_SET);
    assert_int_equal(e->planned, 512 * MIB);
    assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"), "-XX:MaxRAM=512m -XX:MaxRAMPercentage=75");
    /* A pool still learns its ceiling: 2 workers of 1 thread. */
    assert_string_equal(var(env, "GOVERNOR_WORKERS"), "2");
    assert_string_equal(var(env, "GOVERNOR_THREADS_PER_WORKER"), "1");
    assert_string_equal(var(env, "GOVERNOR_MEMORY_PER_WORKER"), "268435456");
    /* The markers: what a nested run or a later step replaces. */
    assert_string_equal(var(env, "GOVERNOR_THREADS"), "2");
    assert_string_equal(var(env, "GOVERNOR_MEMORY_SHARE"), "536870912");
    /* No quota: the affinity stays. */
    assert_int_equal(env->affinity_count, 0);
    gov_runenv_free(env);
}

static void test_user_values_kept(void **state)
{
    static const char *const envp[] = {
        "OMP_NUM_THREADS=4,2", "OPENBLAS_NUM_THREADS=1", "JULIA_NUM_THREADS=auto",
        "GOMEMLIMIT=2GiB", NULL,
    };
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 0, envp, 0);
    const gov_runenv_entry *e;

    e = find(env, "OMP_NUM_THREADS", NULL);
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(e->reason, GOV_RUNENV_USER);
    assert_string_equal(e->setting, "4,2");
    assert_int_equal(e->user, 4);
    assert_true(e->exceeds);
    assert_null(var(env, "OMP_NUM_THREADS"));
    e = find(env, "OPENBLAS_NUM_THREADS", NULL);
    assert_int_equal(e->user, 1);
    assert_false(e->exceeds);
    e = find(env, "JULIA_NUM_THREADS", NULL);
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(e->user, GOV_UNKNOWN);
    assert_false(e->exceeds);
    e = find(env, "GOMEMLIMIT", NULL);
    assert_int_equal(e->user, 2048 * MIB);
    assert_true(e->exceeds);
    /* The others are still set. */
    assert_string_equal(var(env, "MKL_NUM_THREADS"), "2");
    gov_runenv_free(env);
}

static void test_force_replaces(void **state)
{
    static const char *const envp[] = { "OMP_NUM_THREADS=4", "GOMEMLIMIT=off", NULL };
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 0, envp, GOV_RUNENV_FORCE);

    assert_int_equal(find(env, "OMP_NUM_THREADS", NULL)->reason, GOV_RUNENV_FORCED);
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "2");
    assert_int_equal(find(env, "GOMEMLIMIT", NULL)->reason, GOV_RUNENV_FORCED);
    assert_string_equal(var(env, "GOMEMLIMIT"), "460MiB");
    gov_runenv_free(env);
}

/* Values an earlier run or the plugin exported (GOVERNOR_THREADS) are not
 * the user's: a nested run or a pool replaces them. */
static void test_earlier_export_replaced(void **state)
{
    static const char *const envp[] = {
        "GOVERNOR_THREADS=2", "OMP_NUM_THREADS=2", "UV_THREADPOOL_SIZE=4",
        "GOMAXPROCS=3", NULL,
    };
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 2, envp, 0);

    assert_int_equal(env->plan.threads_per_worker, 1);
    assert_int_equal(find(env, "OMP_NUM_THREADS", NULL)->reason, GOV_RUNENV_REPLACED);
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "1");
    assert_int_equal(find(env, "UV_THREADPOOL_SIZE", NULL)->reason, GOV_RUNENV_REPLACED);
    /* 3 is not what was exported: the user's. */
    assert_int_equal(find(env, "GOMAXPROCS", NULL)->reason, GOV_RUNENV_USER);
    assert_string_equal(var(env, "GOVERNOR_THREADS"), "1");
    gov_runenv_free(env);
}

/* With envp, the NODE_OPTIONS entry for option keeps the user's setting
 * (user_mib, above the plan) and the variable ends up as want. */
static void node_user_kept(const gov_snapshot *s, const char *const *envp, const char *option,
                           const char *setting, uint64_t user_mib, const char *want)
{
    gov_runenv *env = compute(s, 0, envp, 0);
    const gov_runenv_entry *e = find(env, "NODE_OPTIONS", option);

    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_string_equal(e->setting, setting);
    assert_int_equal(e->user, user_mib * MIB);
    assert_true(e->exceeds);
    assert_string_equal(var(env, "NODE_OPTIONS"), want);
    gov_runenv_free(env);
}

static void test_node_options_appended(void **state)
{
    static const char *const plain[] = { "NODE_OPTIONS=--require ./trace.js", NULL };
    static const char *const quoted[] = {
        "NODE_OPTIONS=--title=\"x --max-old-space-size=1\"", NULL,
    };
    static const char *const own[] = { "NODE_OPTIONS=--max_old_space_size 9000 --inspect", NULL };
    static const char *const own_semi[] = { "NODE_OPTIONS=--max_semi_space_size=64", NULL };
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 0, plain, 0);

    assert_string_equal(var(env, "NODE_OPTIONS"),
                        "--require ./trace.js --max-old-space-size=384 --max-semi-space-size=16");
    assert_string_equal(find(env, "NODE_OPTIONS", "--max-old-space-size")->setting,
                        "--max-old-space-size=384");
    gov_runenv_free(env);

    /* A quoted word is one word: the option inside it is not Node's. */
    env = compute(&s, 0, quoted, 0);
    assert_string_equal(var(env, "NODE_OPTIONS"),
                        "--title=\"x --max-old-space-size=1\" --max-old-space-size=384 "
                        "--max-semi-space-size=16");
    gov_runenv_free(env);

    /* The user's size is kept; the other V8 size is still ours. */
    node_user_kept(&s, own, "--max-old-space-size", "--max_old_space_size 9000", 9000,
                   "--max_old_space_size 9000 --inspect --max-semi-space-size=16");
    node_user_kept(&s, own_semi, "--max-semi-space-size", "--max_semi_space_size=64", 64,
                   "--max_semi_space_size=64 --max-old-space-size=384");

    /* --force replaces the user's option where it stands. */
    env = compute(&s, 0, own, GOV_RUNENV_FORCE);
    assert_string_equal(var(env, "NODE_OPTIONS"),
                        "--max-old-space-size=384 --inspect --max-semi-space-size=16");
    gov_runenv_free(env);
}

/* V8's old generation leaves room for its young generation and Node's own
 * memory: a quarter of the share, at least 128 MiB.  The young generation
 * (three semi-spaces) is capped at Node 20's 48 MiB, less in a small share:
 * Node 24 would take 192 MiB on a 24 GiB host. */
static void test_node_heap_sizes(void **state)
{
    static const struct { uint64_t share_mib; const char *opt; } cases[] = {
        { 2048, "--max-old-space-size=1536 --max-semi-space-size=16" },
        { 256, "--max-old-space-size=128 --max-semi-space-size=16" },
        { 128, "--max-old-space-size=32 --max-semi-space-size=8" },
        { 20, "--max-old-space-size=5 --max-semi-space-size=1" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gov_snapshot s = alloc();
        gov_runenv *env;

        s.memory.cgroup.limit_bytes = cases[i].share_mib * MIB;
        s.memory.cgroup.remaining_bytes = s.memory.cgroup.planning_remaining_bytes =
            cases[i].share_mib * MIB;
        gov_snapshot_resolve(&s);
        env = compute(&s, 0, NULL, 0);
        assert_string_equal(var(env, "NODE_OPTIONS"), cases[i].opt);
        gov_runenv_free(env);
    }
}

/* The JVM cannot see a scheduler bound below its cgroup, nor a pool's
 * share: then (only then) it gets the figures. */
static void test_java_when_blind(void **state)
{
    static const char *const envp[] = { "JAVA_TOOL_OPTIONS=-Dfile.encoding=UTF-8", NULL };
    static const char *const heap[] = { "JAVA_TOOL_OPTIONS=-Xmx8g", NULL };
    gov_snapshot s = sealed_task();
    gov_runenv *env;
    const gov_runenv_entry *e;

    env = compute(&s, 0, envp, 0);
    assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"),
                        "-Dfile.encoding=UTF-8 -XX:ActiveProcessorCount=1 -XX:MaxRAM=256m");
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAM");
    assert_int_equal(e->action, GOV_RUNENV_SET);
    assert_true(e->planned <= s.memory.effective.limit_bytes);
    /* 256 MiB less 128 MiB of headroom is the half HotSpot takes itself. */
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage");
    assert_int_equal(e->action, GOV_RUNENV_SKIP);
    assert_int_equal(e->reason, GOV_RUNENV_RUNTIME_HALF);
    gov_runenv_free(env);

    env = compute(&s, 0, heap, 0);
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAM");
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(e->reason, GOV_RUNENV_USER_HEAP);
    assert_int_equal(e->user, 8192 * MIB);
    assert_true(e->exceeds);
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage");
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(e->reason, GOV_RUNENV_USER_HEAP);
    assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"), "-Xmx8g -XX:ActiveProcessorCount=1");
    gov_runenv_free(env);

    /* A pool of two in the 2-CPU, 512 MiB cgroup: each JVM gets half. */
    s = alloc();
    env = compute(&s, 2, NULL, 0);
    assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"),
                        "-XX:ActiveProcessorCount=1 -XX:MaxRAM=256m");
    assert_string_equal(var(env, "GOMEMLIMIT"), "230MiB");
    gov_runenv_free(env);
}

/* The heap's share of the memory: three quarters from 512 MiB up (what
 * HotSpot gives a quarter), at least 128 MiB left for the rest of the JVM;
 * a user's own percentage or fraction is kept and compared in bytes. */
static void test_java_heap_share(void **state)
{
    static const char *const pct[] = { "JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=90", NULL };
    static const char *const frac[] = { "JAVA_TOOL_OPTIONS=-XX:MaxRAMFraction=2", NULL };
    static const struct { uint64_t mib; const char *want; } cases[] = {
        { 400, "-XX:MaxRAM=400m -XX:MaxRAMPercentage=68" },  /* 272 MiB */
        { 1024, "-XX:MaxRAM=1024m -XX:MaxRAMPercentage=75" },
        { 8192, "-XX:MaxRAM=8192m -XX:MaxRAMPercentage=75" },
    };
    gov_snapshot s = alloc();
    gov_runenv *env;
    const gov_runenv_entry *e;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        s.memory.cgroup.limit_bytes = cases[i].mib * MIB;
        s.memory.cgroup.remaining_bytes = cases[i].mib * MIB;
        s.memory.cgroup.planning_remaining_bytes = cases[i].mib * MIB;
        gov_snapshot_resolve(&s);
        env = compute(&s, 0, NULL, 0);
        assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"), cases[i].want);
        gov_runenv_free(env);
    }
    env = compute(&s, 0, pct, 0);
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage");
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(e->reason, GOV_RUNENV_USER);
    assert_int_equal(e->user, 7372 * MIB); /* 90 % of 8 GiB, whole MiB */
    assert_true(e->exceeds);
    gov_runenv_free(env);
    env = compute(&s, 0, frac, 0);
    e = find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage");
    assert_int_equal(e->reason, GOV_RUNENV_USER_HEAP);
    assert_int_equal(e->user, 4096 * MIB);
    assert_false(e->exceeds);
    gov_runenv_free(env);
}

/* governor run decides every variable: "not asked for" (the plugin's
 * --governor=threads) is never its reason; what only an option sets says
 * which option (issue 36). */
static void test_reasons_fit_the_run(void **state)
{
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 0, NULL, 0);

    for (size_t i = 0; i < env->count; i++)
        assert_int_not_equal(env->entries[i].reason, GOV_RUNENV_NOT_ASKED);
    assert_int_equal(find(env, "GOVERNOR_WORKER_CPUS", NULL)->reason, GOV_RUNENV_NOT_NUMA);
    assert_int_equal(find(env, "OMP_PLACES", NULL)->reason, GOV_RUNENV_NOT_PLACES);
    assert_int_equal(find(env, "OMP_PROC_BIND", NULL)->reason, GOV_RUNENV_NOT_PLACES);
    gov_runenv_free(env);
}

static void test_memory_hints_need_an_allocation(void **state)
{
    static const char *const envp[] = { "GOVERNOR_MEMORY_PER_WORKER=123", NULL };
    gov_snapshot s;
    gov_runenv *env;

    /* Only the host: a laptop or an unconstrained node. */
    gov_snapshot_init(&s);
    s.cpu.affinity.count = 2;
    s.memory.host.total_bytes = 16384 * MIB;
    s.memory.host.available_bytes = 12000 * MIB;
    gov_snapshot_resolve(&s);
    env = compute(&s, 0, NULL, 0);
    assert_int_equal(find(env, "GOMEMLIMIT", NULL)->reason, GOV_RUNENV_NO_ALLOCATION);
    assert_int_equal(find(env, "NODE_OPTIONS", "--max-old-space-size")->reason,
                     GOV_RUNENV_NO_ALLOCATION);
    assert_int_equal(find(env, "JAVA_TOOL_OPTIONS", "-XX:MaxRAM")->reason,
                     GOV_RUNENV_NO_ALLOCATION);
    assert_null(var(env, "GOMEMLIMIT"));
    gov_runenv_free(env);

    /* Nothing at all: no hint, and an inherited pool figure goes. */
    gov_snapshot_init(&s);
    gov_snapshot_resolve(&s);
    env = compute(&s, 0, envp, 0);
    assert_int_equal(find(env, "GOMEMLIMIT", NULL)->reason, GOV_RUNENV_MEMORY_UNKNOWN);
    assert_int_equal(find(env, "GOVERNOR_MEMORY_PER_WORKER", NULL)->action, GOV_RUNENV_SKIP);
    assert_string_equal(var(env, "GOVERNOR_MEMORY_PER_WORKER"), "(unset)");
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "1");
    gov_runenv_free(env);
}

/* Whatever the shape, no hint exceeds the effective limit. */
static void test_hints_within_the_limit(void **state)
{
    static const uint64_t limits[] = { 1 * MIB, 3 * MIB, 100 * MIB, 4096 * MIB, 1ull << 42 };
    static const uint64_t workers[] = { 0, 1, 3, 64 };

    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++) {
            gov_snapshot s = alloc();
            gov_runenv *env;

            s.memory.cgroup.limit_bytes = limits[i];
            s.memory.cgroup.remaining_bytes = limits[i] / 2;
            s.memory.cgroup.planning_remaining_bytes = limits[i] / 2;
            s.scheduler.source = GOV_SCHED_DESCRIPTOR;
            s.scheduler.mem_per_node_bytes = limits[i] / 2;
            gov_snapshot_resolve(&s);
            env = compute(&s, workers[w], NULL, 0);
            for (size_t k = 0; k < env->count; k++) {
                const gov_runenv_entry *e = &env->entries[k];
                if (e->bytes && e->action == GOV_RUNENV_SET)
                    assert_true(e->planned <= s.memory.effective.limit_bytes);
            }
            gov_runenv_free(env);
        }
    }
}

static void test_long_user_value_cut(void **state)
{
    static char long_value[300];
    const char *envp[] = { long_value, NULL };
    gov_snapshot s = alloc();
    gov_runenv *env;
    const gov_runenv_entry *e;

    memset(long_value, '7', sizeof long_value - 1);
    memcpy(long_value, "OMP_NUM_THREADS=", 16);
    env = compute(&s, 0, envp, 0);
    e = find(env, "OMP_NUM_THREADS", NULL);
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(strlen(e->setting), sizeof e->setting - 1);
    assert_string_equal(e->setting + sizeof e->setting - 4, "...");
    assert_int_equal(e->user, GOV_UNKNOWN); /* too large for a count */
    gov_runenv_free(env);
}

/* What an earlier run or step exported for another allocation (the batch
 * script's whole node, say) is told from the user's by the markers, and is
 * replaced where it stands: the user's words around it stay. */
static void test_earlier_memory_replaced(void **state)
{
    static const char *const envp[] = {
        "GOVERNOR_THREADS=8", "GOVERNOR_MEMORY_SHARE=2147483648", "OMP_NUM_THREADS=8",
        "GOMEMLIMIT=1843MiB",
        "NODE_OPTIONS=--inspect --max-old-space-size=1536 --max-semi-space-size=16 --trace",
        "JAVA_TOOL_OPTIONS=-Dx=1 -XX:ActiveProcessorCount=8 -XX:MaxRAM=2048m", NULL,
    };
    gov_snapshot s = sealed_task();
    gov_runenv *env;

    env = compute(&s, 0, envp, 0);
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "1");
    assert_int_equal(find(env, "GOMEMLIMIT", NULL)->reason, GOV_RUNENV_REPLACED);
    assert_string_equal(var(env, "GOMEMLIMIT"), "230MiB");
    assert_int_equal(find(env, "NODE_OPTIONS", "--max-old-space-size")->reason,
                     GOV_RUNENV_REPLACED);
    assert_string_equal(var(env, "NODE_OPTIONS"),
                        "--inspect --max-old-space-size=128 --max-semi-space-size=16 --trace");
    assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"),
                        "-Dx=1 -XX:ActiveProcessorCount=1 -XX:MaxRAM=256m");
    assert_string_equal(var(env, "GOVERNOR_MEMORY_SHARE"), "268435456");
    gov_runenv_free(env);

    /* Run again on what it produced: nothing changes (a fixpoint). */
    {
        const char *again[] = {
            "GOVERNOR_THREADS=1", "GOVERNOR_MEMORY_SHARE=268435456", "OMP_NUM_THREADS=1",
            "GOMEMLIMIT=230MiB",
            "NODE_OPTIONS=--inspect --max-old-space-size=128 --max-semi-space-size=16 --trace",
            NULL,
        };
        env = compute(&s, 0, again, 0);
        assert_int_equal(find(env, "GOMEMLIMIT", NULL)->reason, GOV_RUNENV_REPLACED);
        assert_string_equal(var(env, "GOMEMLIMIT"), "230MiB");
        assert_string_equal(var(env, "NODE_OPTIONS"),
                            "--inspect --max-old-space-size=128 --max-semi-space-size=16 --trace");
        gov_runenv_free(env);
    }
}

/* --governor=threads (CPU variables only) and a step without the governor
 * (clear): what an earlier step exported goes, the user's stays. */
static void test_cpu_only_and_clear(void **state)
{
    static const char *const envp[] = {
        "GOVERNOR_THREADS=8", "GOVERNOR_MEMORY_SHARE=2147483648", "OMP_NUM_THREADS=8",
        "MKL_NUM_THREADS=3", "GOMEMLIMIT=1843MiB", "GOVERNOR_WORKERS=8",
        "NODE_OPTIONS=--inspect --max-old-space-size=1536 --max-semi-space-size=16",
        "JAVA_TOOL_OPTIONS=-XX:MaxRAM=2048m", NULL,
    };
    gov_snapshot s = alloc();
    gov_runenv *env = compute(&s, 0, envp, GOV_RUNENV_CPU_ONLY);

    assert_string_equal(var(env, "OMP_NUM_THREADS"), "2");
    assert_null(var(env, "MKL_NUM_THREADS"));      /* the user's 3 */
    assert_string_equal(var(env, "GOVERNOR_THREADS"), "2");
    assert_int_equal(find(env, "GOMEMLIMIT", NULL)->reason, GOV_RUNENV_CLEARED);
    assert_string_equal(var(env, "GOMEMLIMIT"), "(unset)");
    assert_string_equal(var(env, "NODE_OPTIONS"), "--inspect");
    assert_string_equal(var(env, "JAVA_TOOL_OPTIONS"), "(unset)");
    assert_string_equal(var(env, "GOVERNOR_MEMORY_SHARE"), "(unset)");
    assert_string_equal(var(env, "GOVERNOR_WORKERS"), "(unset)");
    assert_int_equal(find(env, "GOVERNOR_THREADS_PER_WORKER", NULL)->reason,
                     GOV_RUNENV_NOT_ASKED);
    gov_runenv_free(env);

    env = compute(&s, 0, envp, GOV_RUNENV_CLEAR);
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "(unset)");
    assert_null(var(env, "MKL_NUM_THREADS"));
    assert_int_equal(find(env, "MKL_NUM_THREADS", NULL)->action, GOV_RUNENV_KEEP);
    assert_int_equal(find(env, "GOMAXPROCS", NULL)->reason, GOV_RUNENV_NOT_ASKED);
    assert_string_equal(var(env, "GOVERNOR_THREADS"), "(unset)");
    assert_string_equal(var(env, "NODE_OPTIONS"), "--inspect");
    gov_runenv_free(env);

    assert_int_equal(gov_runenv_compute(&s, 0, NULL, GOV_RUNENV_CPU_ONLY | GOV_RUNENV_CLEAR,
                                        &env), GOV_EINVAL);
}

/* Under a CPU quota smaller than the mask, the affinity narrows to the
 * quota's ceiling (lowest CPUs first without SLURM_LOCALID) and the
 * figures follow it. */
static void test_affinity_narrowed(void **state)
{
    gov_snapshot s = alloc();
    gov_runenv *env;

    s.cpu.affinity.count = 2;
    memset(&s.cpu.affinity.set, 0, sizeof s.cpu.affinity.set);
    s.cpu.affinity.set.bits[0] = 0x6;           /* CPUs 1 and 2 */
    s.cpu.cgroup.version = 1;
    s.cpu.cgroup.quota_cores = 0.5;
    s.cpu.cgroup.quota_status = GOV_LIMIT_LIMITED;
    gov_snapshot_resolve(&s);
    env = compute(&s, 0, NULL, 0);
    assert_int_equal(env->affinity_from, 2);
    assert_int_equal(env->affinity_count, 1);
    assert_int_equal(env->affinity.bits[0], 0x2);
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "1");
    /* The JVM then counts one CPU itself. */
    assert_int_equal(find(env, "JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount")->reason,
                     GOV_RUNENV_RUNTIME_SEES);
    gov_runenv_free(env);

    /* 1.5 cores: two CPUs; already two: nothing to narrow. */
    s.cpu.cgroup.quota_cores = 1.5;
    gov_snapshot_resolve(&s);
    env = compute(&s, 0, NULL, 0);
    assert_int_equal(env->affinity_count, 0);
    gov_runenv_free(env);
    /* Asked not to, and in the CPU-only mode: left alone. */
    s.cpu.cgroup.quota_cores = 0.5;
    gov_snapshot_resolve(&s);
    env = compute(&s, 0, NULL, GOV_RUNENV_KEEP_AFFINITY);
    assert_int_equal(env->affinity_count, 0);
    gov_runenv_free(env);
    env = compute(&s, 0, NULL, GOV_RUNENV_CPU_ONLY);
    assert_int_equal(env->affinity_count, 0);
    gov_runenv_free(env);
}

/* Tasks that share a mask (--cpu-bind=none) spread over it by their local
 * id instead of piling onto its lowest CPUs (issue 26, item 5). */
static void test_affinity_spread(void **state)
{
    gov_snapshot s = alloc();
    const char *task[] = { "SLURM_LOCALID=0", NULL };
    char id[32];
    static const uint64_t one_each[] = { 0x02, 0x08, 0x20, 0x80, 0x02 };
    gov_runenv *env;

    (void)state;
    s.cpu.affinity.count = 4;
    memset(&s.cpu.affinity.set, 0, sizeof s.cpu.affinity.set);
    s.cpu.affinity.set.bits[0] = 0xaa;          /* CPUs 1, 3, 5, 7 */
    s.cpu.cgroup.version = 2;
    s.cpu.cgroup.quota_cores = 1.0;
    s.cpu.cgroup.quota_status = GOV_LIMIT_LIMITED;
    gov_snapshot_resolve(&s);
    for (int k = 0; k < 5; k++) {
        snprintf(id, sizeof id, "SLURM_LOCALID=%d", k);
        task[0] = id;
        env = compute(&s, 0, task, 0);
        assert_int_equal(env->affinity_count, 1);
        assert_int_equal(env->affinity.bits[0], one_each[k]);   /* task 4 wraps */
        gov_runenv_free(env);
    }
    /* Three CPUs each: task 1 takes the fourth and wraps to the first two. */
    s.cpu.cgroup.quota_cores = 2.5;
    gov_snapshot_resolve(&s);
    task[0] = "SLURM_LOCALID=1";
    env = compute(&s, 0, task, 0);
    assert_int_equal(env->affinity_count, 3);
    assert_int_equal(env->affinity.bits[0], 0x8a);
    gov_runenv_free(env);
    /* Not a number: as task 0. */
    task[0] = "SLURM_LOCALID=x";
    env = compute(&s, 0, task, 0);
    assert_int_equal(env->affinity.bits[0], 0x2a);
    gov_runenv_free(env);
}

/* .NET's heap limit in hexadecimal bytes and Julia's hint in MiB, from a
 * 256 MiB share; a .NET limit of the user's under any name .NET reads is
 * theirs, and ours never goes beside it. */
static void test_dotnet_and_julia(void **state)
{
    static const char *const percent[] = { "DOTNET_GCHeapHardLimitPercent=0x32", NULL };
    static const char *const complus[] = { "COMPlus_GCHeapHardLimit=0x10000000",
                                           "JULIA_HEAP_SIZE_HINT=1G", NULL };
    gov_snapshot s = sealed_task();
    gov_runenv *env = compute(&s, 0, NULL, 0);
    const gov_runenv_entry *e;

    (void)state;
    assert_string_equal(var(env, "DOTNET_GCHeapHardLimit"), "c000000");
    assert_int_equal(find(env, "DOTNET_GCHeapHardLimit", NULL)->planned, 192 * MIB);
    assert_string_equal(var(env, "JULIA_HEAP_SIZE_HINT"), "256M");
    gov_runenv_free(env);

    env = compute(&s, 0, percent, GOV_RUNENV_FORCE);
    e = find(env, "DOTNET_GCHeapHardLimit", NULL);
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_string_equal(e->setting, "0x32");
    assert_int_equal(e->user, GOV_UNKNOWN);   /* a percentage of what .NET sees */
    assert_null(var(env, "DOTNET_GCHeapHardLimit"));
    gov_runenv_free(env);

    env = compute(&s, 0, complus, 0);
    e = find(env, "DOTNET_GCHeapHardLimit", NULL);
    assert_int_equal(e->user, 256 * MIB);
    assert_true(e->exceeds);
    e = find(env, "JULIA_HEAP_SIZE_HINT", NULL);
    assert_int_equal(e->action, GOV_RUNENV_KEEP);
    assert_int_equal(e->user, 1024 * MIB);
    assert_true(e->exceeds);
    gov_runenv_free(env);
}

/* sealed_task() holding a share of one 16 GiB GPU: kind and fraction. */
static gov_snapshot gpu_share(gov_gpu_share_kind kind, double share)
{
    gov_snapshot s = sealed_task();

    s.scheduler.gpu_share_kind = kind;
    s.scheduler.gpu_share = share;
    s.scheduler.gpu_memory_bytes = isnan(share) ? GOV_UNKNOWN : (uint64_t)(share * 16384) * MIB;
    return s;
}

/* A quarter of a GPU through gres/shard: the pools at three quarters of
 * it, growth on demand, no MPS limit (not a client), the markers. */
static void test_gpu_shard(void **state)
{
    gov_snapshot s = gpu_share(GOV_GPU_SHARE_SHARD, 0.25);
    gov_runenv *env = compute(&s, 0, NULL, 0);
    const gov_runenv_entry *e = find(env, "XLA_PYTHON_CLIENT_MEM_FRACTION", NULL);

    (void)state;
    assert_string_equal(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"), "0.187");
    assert_int_equal(e->reason, GOV_RUNENV_PLANNED);
    assert_int_equal(e->gpu, 1);
    assert_int_equal(e->bytes, 0);
    assert_int_equal(e->planned, 187);
    assert_int_equal(e->basis, 250);
    assert_string_equal(var(env, "TF_FORCE_GPU_ALLOW_GROWTH"), "true");
    assert_string_equal(var(env, "CUPY_GPU_MEMORY_LIMIT"), "18%");
    assert_int_equal(find(env, "CUPY_GPU_MEMORY_LIMIT", NULL)->planned, 180);
    e = find(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", NULL);
    assert_int_equal(e->action, GOV_RUNENV_SKIP);
    assert_int_equal(e->reason, GOV_RUNENV_NOT_MPS);
    assert_null(var(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"));
    assert_string_equal(var(env, "GOVERNOR_GPU_SHARE"), "0.250");
    assert_string_equal(var(env, "GOVERNOR_GPU_MEMORY"), "4294967296");
    gov_runenv_free(env);

    /* Two tasks of the step hold the quarter together: an eighth each. */
    s.scheduler.tasks_on_node = 2;
    gov_snapshot_resolve(&s);
    env = compute(&s, 0, NULL, 0);
    assert_string_equal(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"), "0.093");
    assert_string_equal(var(env, "GOVERNOR_GPU_SHARE"), "0.125");
    assert_string_equal(var(env, "GOVERNOR_GPU_MEMORY"), "2147483648");
    gov_runenv_free(env);
}

/* An MPS client's share: its pinned limit is the share's whole memory, in
 * bytes; without the card's memory it is not set, and says why. */
static void test_gpu_mps(void **state)
{
    gov_snapshot s = gpu_share(GOV_GPU_SHARE_MPS, 0.5);
    gov_runenv *env = compute(&s, 0, NULL, 0);
    const gov_runenv_entry *e = find(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", NULL);

    (void)state;
    assert_string_equal(var(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=8192MB");
    assert_int_equal(e->bytes, 1);
    assert_int_equal(e->planned, 8192 * MIB);
    assert_string_equal(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"), "0.375");
    gov_runenv_free(env);

    s.scheduler.gpu_memory_bytes = GOV_UNKNOWN;
    env = compute(&s, 0, NULL, 0);
    assert_int_equal(find(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", NULL)->reason,
                     GOV_RUNENV_GPU_MEMORY_UNKNOWN);
    assert_int_equal(find(env, "GOVERNOR_GPU_MEMORY", NULL)->reason,
                     GOV_RUNENV_GPU_MEMORY_UNKNOWN);
    assert_string_equal(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"), "0.375");
    gov_runenv_free(env);
}

/* Whole GPUs, a MIG instance, no grant, a whole GPU's MPS count: nothing
 * set, and the reason; --governor=threads sets none either. */
static void test_gpu_not_shared(void **state)
{
    static const struct { gov_gpu_share_kind kind; double share; } cases[] = {
        { GOV_GPU_SHARE_GPU, 1 }, { GOV_GPU_SHARE_MIG, 1 }, { GOV_GPU_SHARE_NONE, NAN },
        { GOV_GPU_SHARE_MPS, 1 }, { GOV_GPU_SHARE_PARTITION, 1 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gov_snapshot s = gpu_share(cases[i].kind, cases[i].share);
        gov_runenv *env = compute(&s, 0, NULL, 0);

        assert_int_equal(find(env, "XLA_PYTHON_CLIENT_MEM_FRACTION", NULL)->reason,
                         GOV_RUNENV_NO_GPU_SHARE);
        assert_int_equal(find(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", NULL)->reason,
                         GOV_RUNENV_NO_GPU_SHARE);
        assert_int_equal(find(env, "GOVERNOR_GPU_SHARE", NULL)->reason, GOV_RUNENV_NO_GPU_SHARE);
        assert_null(var(env, "TF_FORCE_GPU_ALLOW_GROWTH"));
        gov_runenv_free(env);
    }
    {
        gov_snapshot s = gpu_share(GOV_GPU_SHARE_SHARD, 0.25);
        gov_runenv *env = compute(&s, 0, NULL, GOV_RUNENV_CPU_ONLY);

        assert_int_equal(find(env, "TF_FORCE_GPU_ALLOW_GROWTH", NULL)->reason,
                         GOV_RUNENV_NOT_ASKED);
        assert_null(var(env, "TF_FORCE_GPU_ALLOW_GROWTH"));
        gov_runenv_free(env);
    }
}

/* The user's values stay, and are compared in the share's terms; a
 * user's XLA_CLIENT_MEM_FRACTION keeps ours out, even with --force. */
static void test_gpu_user_values(void **state)
{
    static const char *const envp[] = {
        "XLA_CLIENT_MEM_FRACTION=.9", "CUPY_GPU_MEMORY_LIMIT=2147483648",
        "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=1=1G,0=2G", "TF_FORCE_GPU_ALLOW_GROWTH=false", NULL,
    };
    gov_snapshot s = gpu_share(GOV_GPU_SHARE_MPS, 0.25);
    gov_runenv *env;
    const gov_runenv_entry *e;

    (void)state;
    for (int force = 0; force < 2; force++) {
        env = compute(&s, 0, envp, force ? GOV_RUNENV_FORCE : 0);
        e = find(env, "XLA_PYTHON_CLIENT_MEM_FRACTION", NULL);
        assert_int_equal(e->action, GOV_RUNENV_KEEP);
        assert_string_equal(e->setting, ".9");
        assert_int_equal(e->user, 900);
        assert_true(e->exceeds);
        assert_null(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"));
        if (!force) {
            /* 2 GiB of a 16 GiB card: 125 thousandths, within 180. */
            e = find(env, "CUPY_GPU_MEMORY_LIMIT", NULL);
            assert_int_equal(e->user, 125);
            assert_false(e->exceeds);
            e = find(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", NULL);
            assert_int_equal(e->user, 2048 * MIB);
            assert_false(e->exceeds);
            e = find(env, "TF_FORCE_GPU_ALLOW_GROWTH", NULL);
            assert_int_equal(e->action, GOV_RUNENV_KEEP);
            assert_int_equal(e->user, GOV_UNKNOWN);
        } else {
            assert_string_equal(var(env, "TF_FORCE_GPU_ALLOW_GROWTH"), "true");
        }
        gov_runenv_free(env);
    }
}

/* What a batch step exported for its share is replaced by a step's own,
 * or removed where the step holds no share; the user's stays. */
static void test_gpu_earlier_export(void **state)
{
    static const char *const envp[] = {
        "GOVERNOR_GPU_SHARE=0.500", "GOVERNOR_GPU_MEMORY=8589934592",
        "XLA_PYTHON_CLIENT_MEM_FRACTION=0.375", "CUPY_GPU_MEMORY_LIMIT=37%",
        "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=8192MB", "TF_FORCE_GPU_ALLOW_GROWTH=true", NULL,
    };
    gov_snapshot s = gpu_share(GOV_GPU_SHARE_MPS, 0.25);
    gov_runenv *env = compute(&s, 0, envp, 0);

    (void)state;
    assert_int_equal(find(env, "XLA_PYTHON_CLIENT_MEM_FRACTION", NULL)->reason,
                     GOV_RUNENV_REPLACED);
    assert_string_equal(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"), "0.187");
    assert_string_equal(var(env, "CUPY_GPU_MEMORY_LIMIT"), "18%");
    assert_string_equal(var(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=4096MB");
    assert_string_equal(var(env, "GOVERNOR_GPU_SHARE"), "0.250");
    gov_runenv_free(env);

    s = gpu_share(GOV_GPU_SHARE_GPU, 1);
    env = compute(&s, 0, envp, 0);
    assert_int_equal(find(env, "XLA_PYTHON_CLIENT_MEM_FRACTION", NULL)->reason,
                     GOV_RUNENV_CLEARED);
    assert_string_equal(var(env, "XLA_PYTHON_CLIENT_MEM_FRACTION"), "(unset)");
    assert_string_equal(var(env, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "(unset)");
    assert_string_equal(var(env, "TF_FORCE_GPU_ALLOW_GROWTH"), "(unset)");
    assert_string_equal(var(env, "GOVERNOR_GPU_SHARE"), "(unset)");
    assert_string_equal(var(env, "GOVERNOR_GPU_MEMORY"), "(unset)");
    gov_runenv_free(env);
}

static void test_bad_arguments(void **state)
{
    gov_snapshot s = alloc();
    gov_runenv *env = (gov_runenv *)&s;

    assert_int_equal(gov_runenv_compute(NULL, 0, NULL, 0, &env), GOV_EINVAL);
    assert_int_equal(gov_runenv_compute(&s, 0, NULL, 0, NULL), GOV_EINVAL);
    assert_int_equal(gov_runenv_compute(&s, 0, NULL, 0x80, &env), GOV_EINVAL);
    assert_string_equal(gov_runenv_reason_name(GOV_RUNENV_CLEARED), "cleared");
    assert_string_equal(gov_runenv_reason_name(GOV_RUNENV_NOT_ASKED), "not_asked");
    gov_runenv_free(NULL);
    assert_string_equal(gov_runenv_action_name(GOV_RUNENV_KEEP), "keep");
    assert_string_equal(gov_runenv_reason_name(GOV_RUNENV_RUNTIME_SEES), "runtime_sees");
    /* Outside its enum a value has no name, as every enum's (base.h). */
    assert_null(gov_runenv_reason_name((gov_runenv_reason)99));
    assert_null(gov_runenv_reason_text((gov_runenv_reason)99));
    assert_null(gov_runenv_action_name((gov_runenv_action)7));
    assert_non_null(gov_runenv_reason_text(GOV_RUNENV_TOO_SMALL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fresh_environment),
        cmocka_unit_test(test_user_values_kept),
        cmocka_unit_test(test_force_replaces),
        cmocka_unit_test(test_earlier_export_replaced),
        cmocka_unit_test(test_earlier_memory_replaced),
        cmocka_unit_test(test_cpu_only_and_clear),
        cmocka_unit_test(test_affinity_narrowed),
        cmocka_unit_test(test_affinity_spread),
        cmocka_unit_test(test_node_options_appended),
        cmocka_unit_test(test_node_heap_sizes),
        cmocka_unit_test(test_java_when_blind),
        cmocka_unit_test(test_java_heap_share),
        cmocka_unit_test(test_reasons_fit_the_run),
        cmocka_unit_test(test_memory_hints_need_an_allocation),
        cmocka_unit_test(test_hints_within_the_limit),
        cmocka_unit_test(test_long_user_value_cut),
        cmocka_unit_test(test_dotnet_and_julia),
        cmocka_unit_test(test_gpu_shard),
        cmocka_unit_test(test_gpu_mps),
        cmocka_unit_test(test_gpu_not_shared),
        cmocka_unit_test(test_gpu_user_values),
        cmocka_unit_test(test_gpu_earlier_export),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
