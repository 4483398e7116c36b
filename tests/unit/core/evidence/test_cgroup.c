/* cgroup evidence: per-file parsers at their boundaries, and the collector
 * on fixture trees of real layouts (tests/fixtures/cgroup/<layout>). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixture_root.h"
#include "evidence.h"

#define U GOV_UNKNOWN
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

/* ---- parsers ------------------------------------------------------------- */

static int cpu_max(const char *s, double *r, bool *unl)
{
    return gov__parse_cpu_max(s, strlen(s), r, unl);
}

static void test_parse_cpu_max(void **state)
{
    double r;
    bool unl;

    assert_int_equal(cpu_max("150000 100000\n", &r, &unl), 0);
    assert_false(unl);
    assert_true(r == 1.5);
    assert_int_equal(cpu_max("max 100000\n", &r, &unl), 0);
    assert_true(unl);
    assert_true(isnan(r));
    assert_int_equal(cpu_max("1000 1000000", &r, &unl), 0);
    assert_true(r == 0.001);
    assert_int_equal(cpu_max("18446744073709551615 1", &r, &unl), 0);
    assert_true(r > 1e19);

    /* Zero period or quota, missing fields, garbage: an error, never unlimited. */
    const char *bad[] = { "", "\n", "max", "max ", "150000", "150000 0", "max 0", "0 100000",
                          "-1 100000", "150000 100000 1", "150000  100000", "1.5 1", "max max",
                          "MAX 100000", "150000 100000x", "18446744073709551616 100000" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_not_equal(cpu_max(bad[i], &r, &unl), 0);
        assert_false(unl);
        assert_true(isnan(r));
    }
    assert_int_equal(cpu_max("150000 0", &r, &unl), GOV_ERANGE);
    assert_int_equal(cpu_max("150000", &r, &unl), GOV_EPARSE);
}

static void test_parse_memory_value(void **state)
{
    uint64_t b;
    bool unl;

    assert_int_equal(gov__parse_memory_value("max\n", 4, &b, &unl), 0);
    assert_true(unl);
    assert_int_equal(b, U);
    assert_int_equal(gov__parse_memory_value("1073741824\n", 11, &b, &unl), 0);
    assert_false(unl);
    assert_int_equal(b, GiB);
    assert_int_equal(gov__parse_memory_value("0\n", 2, &b, &unl), 0);
    assert_int_equal(b, 0);
    /* v2 never prints a sentinel: a huge number is a finite limit. */
    assert_int_equal(gov__parse_memory_value("9223372036854771712", 19, &b, &unl), 0);
    assert_false(unl);
    assert_int_equal(b, UINT64_C(9223372036854771712));
    assert_int_equal(gov__parse_memory_value("", 0, &b, &unl), GOV_EPARSE);
    assert_int_equal(b, U);
    assert_int_equal(gov__parse_memory_value("-1", 2, &b, &unl), GOV_EPARSE);
    assert_int_equal(gov__parse_memory_value("max max", 7, &b, &unl), GOV_EPARSE);
    assert_int_equal(gov__parse_memory_value("1G", 2, &b, &unl), GOV_EPARSE);
    assert_int_equal(gov__parse_memory_value("18446744073709551616", 20, &b, &unl), GOV_ERANGE);
    assert_int_equal(gov__parse_memory_value("18446744073709551615", 20, &b, &unl), GOV_ERANGE);
    assert_false(unl);
    assert_int_equal(b, U);
    assert_int_equal(gov__parse_memory_value("18446744073709551614", 20, &b, &unl), 0);
    assert_int_equal(b, UINT64_MAX - 1);
}

static void test_parse_v1_limit(void **state)
{
    uint64_t b;
    bool unl;
    struct { const char *s; bool unl; uint64_t b; } cases[] = {
        { "9223372036854771712\n", true, U },     /* 4 KiB pages */
        { "9223372036854710272\n", true, U },     /* 64 KiB pages */
        { "9223372036854759424\n", true, U },     /* 16 KiB pages */
        { "9223372036854513664\n", true, U },     /* 256 KiB pages */
        { "9223372036853727232\n", true, U },     /* the threshold: LONG_MAX - (1 MiB - 1) */
        { "9223372036853727231\n", false, UINT64_C(9223372036853727231) },
        { "9223372036854775807\n", true, U },     /* LONG_MAX itself */
        { "18446744073709551615\n", true, U },
        { "209715200\n", false, 200 * MiB },
        { "0\n", false, 0 },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(gov__parse_v1_limit(cases[i].s, strlen(cases[i].s), &b, &unl), 0);
        assert_int_equal(unl, cases[i].unl);
        assert_int_equal(b, cases[i].b);
    }
    assert_int_equal(gov__parse_v1_limit("", 0, &b, &unl), GOV_EPARSE);
    assert_int_equal(gov__parse_v1_limit("-1", 2, &b, &unl), GOV_EPARSE);
    assert_int_equal(gov__parse_v1_limit("max", 3, &b, &unl), GOV_EPARSE);
    assert_int_equal(gov__parse_v1_limit("18446744073709551616", 20, &b, &unl), GOV_ERANGE);
    assert_false(unl);
    assert_int_equal(b, U);
}

/* ---- collector on fixtures ------------------------------------------------ */

typedef struct expect {
    int cpu_version;
    double quota;                  /* NaN when unknown or unlimited */
    gov_limit_status quota_status;
    uint64_t cpuset_count;
    const char *cpuset;            /* canonical list, "" when unseen */
    int memory_version;
    gov_limit_status memory_status;
    uint64_t limit, high;
    uint64_t current, working_set; /* of the level that binds */
    uint64_t remaining, planning;  /* to the hard limit; to min(max, high) */
    const char *pressure_dir;      /* NULL when none */
} expect;

static void check(const char *layout, const expect *x)
{
    char tree[1024], list[256];
    gov_root root;
    gov_cgroup_evidence ev;

    snprintf(tree, sizeof tree, "%s/cgroup/%s", GOV_FIXTURES, layout);
    root = fixture_root(tree);
    memset(&ev, 0xa5, sizeof ev);
    gov__cgroup_collect(&root, &ev);
    gov__root_close(&root);

    assert_int_equal(ev.cpu.version, x->cpu_version);
    if (isnan(x->quota))
        assert_true(isnan(ev.cpu.quota_cores));
    else
        assert_true(fabs(ev.cpu.quota_cores - x->quota) < 1e-12);
    assert_int_equal(ev.cpu.quota_status, x->quota_status);
    assert_int_equal(ev.cpu.cpuset_count, x->cpuset_count);
    assert_true(gov_cpuset_format(&ev.cpu.cpuset, list, sizeof list) >= 0);
    assert_string_equal(list, x->cpuset);

    assert_int_equal(ev.memory.version, x->memory_version);
    assert_int_equal(ev.memory.status, x->memory_status);
    assert_int_equal(ev.memory.limit_bytes, x->limit);
    assert_int_equal(ev.memory.high_bytes, x->high);
    assert_int_equal(ev.memory.current_bytes, x->current);
    assert_int_equal(ev.memory.working_set_bytes, x->working_set);
    assert_int_equal(ev.memory.remaining_bytes, x->remaining);
    assert_int_equal(ev.memory.planning_remaining_bytes, x->planning);

    assert_int_equal(ev.has_pressure_dir, x->pressure_dir != NULL);
    assert_string_equal(ev.pressure_dir, x->pressure_dir ? x->pressure_dir : "");
}

#define LIM GOV_LIMIT_LIMITED
#define UNL GOV_LIMIT_UNLIMITED
#define UNK GOV_LIMIT_UNKNOWN

/* Slurm task/cgroup v1: the task's own memory cgroup is unlimited; the step
 * (200 MiB) and the job (512 MiB) above it carry limits.  Remaining is the
 * tightest level: the step's 200 MiB minus its 60 MiB usage.  The cpuset is
 * the task's own (4-5), inside the step's 4-7, as Slurm 24.11 places it. */
static void test_slurm_v1(void **state)
{
    expect x = { 1, NAN, UNL, 2, "4-5",
                 1, LIM, 200 * MiB, U, 60 * MiB, 60 * MiB, 140 * MiB, 140 * MiB,
                 NULL };
    check("slurm-v1", &x);
}

/* The same with Slurm 22.05's v1 cpuset: the task sits in the step's cpuset
 * (4-5, inside the job's 4-7) and there is no task level. */
static void test_slurm_v1_step_cpuset(void **state)
{
    expect x = { 1, NAN, UNL, 2, "4-5",
                 1, LIM, 200 * MiB, U, 60 * MiB, 60 * MiB, 140 * MiB, 140 * MiB,
                 NULL };
    check("slurm-v1-step-cpuset", &x);
}

/* Slurm 24.11's cgroup/v2 under systemd, captured from a real step
 * (srun --mem=200M -c1, tests/guest/capture.sh): the task sits in
 * node1_slurmstepd.scope/job_1/step_0/user/task_0.  job_1 and step_0/user
 * carry memory.max = memory.high = 200 MiB; task_0 and step_0 are
 * unlimited; every cpu.max is "max".  The job's working set (2154496 bytes
 * used, 24576 of them inactive file cache) is the larger, so the job binds;
 * the cpuset is the step's one CPU. */
#define V2_JOB_USAGE UINT64_C(2154496)
#define V2_JOB_INACTIVE UINT64_C(24576)

static void test_slurm_v2(void **state)
{
    expect x = { 2, NAN, UNL, 1, "0",
                 2, LIM, 200 * MiB, 200 * MiB, V2_JOB_USAGE, V2_JOB_USAGE - V2_JOB_INACTIVE,
                 200 * MiB - (V2_JOB_USAGE - V2_JOB_INACTIVE),
                 200 * MiB - (V2_JOB_USAGE - V2_JOB_INACTIVE),
                 "/sys/fs/cgroup/system.slice/node1_slurmstepd.scope/job_1/step_0/user/task_0" };
    check("slurm-v2", &x);
}

/* The limits alone (what a task's environment is planned from at its
 * start): the same limits and statuses as the whole collection on every
 * fixture tree (v1's hierarchical_memory_limit standing for the walk, a
 * hidden limit, unreadable levels, v2), no usage read, so no remaining
 * figure, and no pressure files. */
static void test_limits_only(void **state)
{
    char dir[1024];
    DIR *d;
    struct dirent *e;
    size_t trees = 0;

    (void)state;
    snprintf(dir, sizeof dir, "%s/cgroup", GOV_FIXTURES);
    d = opendir(dir);
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        char tree[2048];
        gov_root root;
        gov_cgroup_evidence all, limits;

        if (e->d_name[0] == '.')
            continue;
        snprintf(tree, sizeof tree, "%s/%s", dir, e->d_name);
        root = fixture_root(tree);
        gov__cgroup_collect(&root, &all);
        gov__cgroup_collect_limits(&root, &limits);
        gov__root_close(&root);
        print_message("%s\n", e->d_name);
        assert_int_equal(limits.memory.status, all.memory.status);
        assert_int_equal(limits.memory.limit_bytes, all.memory.limit_bytes);
        assert_int_equal(limits.memory.high_bytes, all.memory.high_bytes);
        assert_int_equal(limits.cpu.cpuset_count, all.cpu.cpuset_count);
        assert_int_equal(limits.cpu.quota_status, all.cpu.quota_status);
        assert_int_equal(limits.memory.current_bytes, GOV_UNKNOWN);
        assert_int_equal(limits.memory.remaining_bytes, GOV_UNKNOWN);
        assert_int_equal(limits.memory.planning_remaining_bytes, GOV_UNKNOWN);
        assert_false(limits.has_pressure_dir);
        trees++;
    }
    closedir(d);
    assert_true(trees >= 20);
}

/* This machine: v1 controllers, a cgroup2 at /sys/fs/cgroup/unified with
 * only hugetlb (falls back to v1 for cpu, cpuset, memory), the memory
 * cgroup /process_api/<id> at the 4 KiB sentinel.  The process sits in the
 * v2 root, whose pressure files are the pressure directory. */
static void test_hybrid_host(void **state)
{
    expect x = { 1, NAN, UNL, 2, "0-1",
                 1, UNL, U, U, 6795264, 6795264 - 778240, U, U,
                 "/sys/fs/cgroup/unified" };
    check("hybrid-host", &x);
}

/* Pure v2, systemd user session: the quota (200%) and MemoryMax=8G sit on
 * user-1000.slice; the session scope has neither cpu nor cpuset enabled, so
 * the cpuset comes from the nearest ancestor with it (the root). */
static void test_v2_systemd(void **state)
{
    expect x = { 2, 2.0, LIM, 8, "0-7",
                 2, LIM, 8 * GiB, U, 1536 * MiB, 1536 * MiB, 8 * GiB - 1536 * MiB, 8 * GiB - 1536 * MiB,
                 "/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope" };
    check("v2-systemd", &x);
}

/* Docker, private cgroup namespace: mount root "/" is the container. */
static void test_docker_v2(void **state)
{
    expect x = { 2, 1.5, LIM, 8, "0-7",
                 2, LIM, GiB, U, 52690944, 52690944, GiB - 52690944, GiB - 52690944,
                 "/sys/fs/cgroup" };
    check("docker-v2", &x);
}

/* Kubernetes on v1: the mount roots are the container's own cgroup. */
static void test_k8s_v1_pod(void **state)
{
    expect x = { 1, 2.0, LIM, 16, "0-15",
                 1, LIM, 512 * MiB, U, 100 * MiB, 100 * MiB - 598016, 412 * MiB + 598016, 412 * MiB + 598016,
                 NULL };
    check("k8s-v1-pod", &x);
}

/* v1 container without its own limit under a hidden 1 GiB parent: only
 * hierarchical_memory_limit shows it. */
static void test_v1_hidden_limit(void **state)
{
    expect x = { 1, NAN, UNL, 4, "0-3",
                 1, LIM, GiB, U, 300 * MiB, 300 * MiB - 598016, GiB - 300 * MiB + 598016, GiB - 300 * MiB + 598016,
                 NULL };
    check("v1-hidden-limit", &x);
}

/* The parent's 0.5 CPU and 256 MiB beat the child's 3 CPUs and 1 GiB; the
 * parent's usage (200 MiB) leaves 56 MiB. */
static void test_v2_nested_stricter(void **state)
{
    expect x = { 2, 0.5, LIM, 8, "0-7",
                 2, LIM, 256 * MiB, U, 200 * MiB, 200 * MiB, 56 * MiB, 56 * MiB,
                 "/sys/fs/cgroup/jobs/worker" };
    check("v2-nested-stricter", &x);
}

static void test_v2_quota_below_one(void **state)
{
    expect x = { 2, 0.25, LIM, 4, "0-3",
                 2, UNL, U, U, 8 * MiB, 8 * MiB, U, U,
                 "/sys/fs/cgroup/app.slice/app.service" };
    check("v2-quota-below-one", &x);
}

/* cpuset (2 CPUs) and quota (4 CPUs) are kept apart. */
static void test_v2_cpuset_small(void **state)
{
    expect x = { 2, 4.0, LIM, 2, "2-3",
                 2, UNL, U, U, 8 * MiB, 8 * MiB, U, U,
                 "/sys/fs/cgroup/batch/task" };
    check("v2-cpuset-small", &x);
}

/* memory.high (1 GiB) below memory.max (2 GiB): remaining is the distance
 * to the OOM point (max); high bounds only the planning figure. */
static void test_v2_high_below_max(void **state)
{
    expect x = { 2, NAN, UNL, 8, "0-7",
                 2, LIM, 2 * GiB, GiB, 768 * MiB, 768 * MiB, 1280 * MiB, 256 * MiB,
                 "/sys/fs/cgroup/batch/task" };
    check("v2-high-below-max", &x);
}

/* 64 KiB pages: every level at 9223372036854710272 is unlimited. */
static void test_v1_64k_sentinel(void **state)
{
    expect x = { 1, NAN, UNL, 160, "0-159",
                 1, UNL, U, U, 256 * MiB, 256 * MiB - 598016, U, U,
                 NULL };
    check("v1-64k-sentinel", &x);
}

/* "/../.." is outside the cgroup namespace: the v2 hierarchy governs, but
 * nothing about the process's cgroup is known. */
static void test_v2_outside_ns(void **state)
{
    expect x = { 2, NAN, UNK, U, "",
                 2, UNK, U, U, U, U, U, U,
                 NULL };
    check("v2-outside-ns", &x);
}

/* Mount root "/job" is not a prefix of "/jobx/step". */
static void test_v2_root_not_prefix(void **state)
{
    expect x = { 2, NAN, UNK, U, "",
                 2, UNK, U, U, U, U, U, U,
                 NULL };
    check("v2-root-not-prefix", &x);
}

/* A second mount of the same hierarchy, root "/jobx", does hold the path;
 * the walk stops at that mount's root. */
static void test_v2_bind_mounts(void **state)
{
    expect x = { 2, 1.0, LIM, U, "",
                 2, LIM, 512 * MiB, U, 80 * MiB, 80 * MiB, 432 * MiB, 432 * MiB,
                 "/mnt/jobx/step" };
    check("v2-bind-mounts", &x);
}

/* Mount point "/sys/fs/cgroup\040x" decodes to "/sys/fs/cgroup x". */
static void test_escaped_mount(void **state)
{
    expect x = { 2, 0.5, LIM, 8, "0-7",
                 2, LIM, 256 * MiB, U, 64 * MiB, 64 * MiB, 192 * MiB, 192 * MiB,
                 "/sys/fs/cgroup x/app" };
    check("escaped-mount", &x);
}

/* The root cgroup carries no limit files by design: unlimited, not unknown;
 * its usage is not shown (memory.current does not exist there). */
static void test_v2_root_cgroup(void **state)
{
    expect x = { 2, NAN, UNL, 8, "0-7",
                 2, UNL, U, U, U, U, U, U,
                 "/sys/fs/cgroup" };
    check("v2-root-cgroup", &x);
}

/* cpu.max and memory.max absent where the controllers are enabled. */
static void test_v2_missing_files(void **state)
{
    expect x = { 2, NAN, UNK, 8, "0-7",
                 2, UNK, U, U, 8 * MiB, 8 * MiB, U, U,
                 "/sys/fs/cgroup/app" };
    check("v2-missing-files", &x);
}

/* Empty cpu.cfs_quota_us and memory.limit_in_bytes; cpuset.cpus stands in
 * for a missing cpuset.effective_cpus. */
static void test_v1_empty_files(void **state)
{
    expect x = { 1, NAN, UNK, 2, "1-2",
                 1, UNK, U, U, 8 * MiB, 8 * MiB - 598016, U, U,
                 NULL };
    check("v1-empty-files", &x);
}

static void test_v1_zero_period(void **state)
{
    expect x = { 1, NAN, UNK, 4, "0-3",
                 1, UNL, U, U, 8 * MiB, 8 * MiB - 598016, U, U,
                 NULL };
    check("v1-zero-period", &x);
}

/* No cgroup.controllers anywhere: the v2 hierarchy is used because the
 * process's cgroup has the controllers' files; the root, whose files cannot
 * be told apart from missing ones, is unknown, so finite levels still give
 * "limited" but nothing could give "unlimited". */
static void test_v2_files_only(void **state)
{
    expect x = { 2, 2.0, LIM, 4, "0-3",
                 2, LIM, GiB, U, 100 * MiB, 100 * MiB, GiB - 100 * MiB, GiB - 100 * MiB,
                 NULL };
    check("v2-files-only", &x);
}

/* A real Slurm v1 step (--mem=300M) right after writing, fsyncing and
 * reading back 450 MiB on a disk filesystem: nearly all of the usage is
 * clean inactive page cache that the kernel reclaims before an OOM kill.
 * The job level (the step plus 0.4 MiB) binds. */
#define PC_JOB_USAGE UINT64_C(313184256)
#define PC_JOB_INACTIVE UINT64_C(310448128)
#define PC_LIMIT (300 * MiB)

static void test_slurm_v1_page_cache(void **state)
{
    expect x = { 1, NAN, UNK, U, "",
                 1, LIM, PC_LIMIT, U, PC_JOB_USAGE, PC_JOB_USAGE - PC_JOB_INACTIVE,
                 PC_LIMIT - (PC_JOB_USAGE - PC_JOB_INACTIVE),
                 PC_LIMIT - (PC_JOB_USAGE - PC_JOB_INACTIVE), NULL };
    check("slurm-v1-page-cache", &x);
}

/* The same step without memory.stat: the working set falls back to the
 * usage, and the figure is the old, conservative one. */
static void test_slurm_v1_page_cache_no_stat(void **state)
{
    expect x = { 1, NAN, UNK, U, "",
                 1, LIM, PC_LIMIT, U, PC_JOB_USAGE, PC_JOB_USAGE,
                 PC_LIMIT - PC_JOB_USAGE, PC_LIMIT - PC_JOB_USAGE, NULL };
    check("slurm-v1-page-cache-no-stat", &x);
}

/* Captured from a real Slurm 24.11 v2 step (srun --mem=300M -c1) right after
 * writing, fsyncing and reading back 450 MiB on the guest's ext4 disk
 * (tests/guest/capture.sh): v2 accounts the cache hierarchically, so every
 * level is nearly full of it.  Of the two limited levels (job_2 and
 * step_0/user, 300 MiB each), the job has the larger working set (3129344
 * bytes) and binds: remaining 297 MiB, against 0.26 MiB by raw usage. */
#define SLURM_V2_PC_TASK "/sys/fs/cgroup/system.slice/node1_slurmstepd.scope/job_2/step_0/user/task_0"
#define V2_PC_JOB_USAGE UINT64_C(314302464)
#define V2_PC_JOB_INACTIVE UINT64_C(311173120)

static void test_slurm_v2_page_cache(void **state)
{
    expect x = { 2, NAN, UNL, 1, "0",
                 2, LIM, PC_LIMIT, PC_LIMIT, V2_PC_JOB_USAGE, V2_PC_JOB_USAGE - V2_PC_JOB_INACTIVE,
                 PC_LIMIT - (V2_PC_JOB_USAGE - V2_PC_JOB_INACTIVE),
                 PC_LIMIT - (V2_PC_JOB_USAGE - V2_PC_JOB_INACTIVE), SLURM_V2_PC_TASK };
    check("slurm-v2-page-cache", &x);
}

/* The same tree without its memory.stat files: the working set falls back
 * to the usage, and the job's raw 270336 bytes bind. */
static void test_slurm_v2_page_cache_no_stat(void **state)
{
    expect x = { 2, NAN, UNL, 1, "0",
                 2, LIM, PC_LIMIT, PC_LIMIT, V2_PC_JOB_USAGE, V2_PC_JOB_USAGE,
                 PC_LIMIT - V2_PC_JOB_USAGE, PC_LIMIT - V2_PC_JOB_USAGE, SLURM_V2_PC_TASK };
    check("slurm-v2-page-cache-no-stat", &x);
}

/* A parent (1 GiB) full of cache above a leaf (512 MiB, 400 MiB of
 * anonymous memory): by raw usage the parent would bind with 24 MiB left;
 * by working set (420 MiB) it has 604 MiB, and the leaf's 112 MiB bind. */
static void test_v2_parent_cache(void **state)
{
    expect x = { 2, 0.5, LIM, 8, "0-7",
                 2, LIM, 512 * MiB, U, 400 * MiB, 400 * MiB, 112 * MiB, 112 * MiB,
                 "/sys/fs/cgroup/jobs/worker" };
    check("v2-parent-cache", &x);
}

/* The devices controller: a v1 cgroup below the root is a device allowlist
 * (Slurm's ConstrainDevices); the root allows all; v2 filters cannot be
 * read, and nothing at all is unknown. */
static void test_devices_confined(void **state)
{
    static const struct { const char *layout; int confined; } cases[] = {
        { "slurm-v1", 1 },       /* devices:/slurm/uid_1000/job_5/step_0/task_0 */
        { "hybrid-host", 0 },    /* devices:/ */
        { "slurm-v2", -1 },
        { "does-not-exist", -1 },
    };
    char tree[1024];
    gov_root root;
    gov_cgroup_evidence ev;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(tree, sizeof tree, "%s/cgroup/%s", GOV_FIXTURES, cases[i].layout);
        root = fixture_root(tree);
        gov__cgroup_collect(&root, &ev);
        assert_int_equal(ev.devices_confined, cases[i].confined);
        assert_int_equal(gov__cgroup_devices_confined(&root), cases[i].confined);
        gov__root_close(&root);
    }
}

/* No /proc/self files at all: nothing is known, nothing is unlimited. */
static void test_no_proc(void **state)
{
    expect x = { 0, NAN, UNK, U, "",
                 0, UNK, U, U, U, U, U, U,
                 NULL };
    check("does-not-exist", &x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_cpu_max),
        cmocka_unit_test(test_parse_memory_value),
        cmocka_unit_test(test_parse_v1_limit),
        cmocka_unit_test(test_slurm_v1),
        cmocka_unit_test(test_slurm_v1_step_cpuset),
        cmocka_unit_test(test_slurm_v2),
        cmocka_unit_test(test_limits_only),
        cmocka_unit_test(test_hybrid_host),
        cmocka_unit_test(test_v2_systemd),
        cmocka_unit_test(test_docker_v2),
        cmocka_unit_test(test_k8s_v1_pod),
        cmocka_unit_test(test_v1_hidden_limit),
        cmocka_unit_test(test_v2_nested_stricter),
        cmocka_unit_test(test_v2_quota_below_one),
        cmocka_unit_test(test_v2_cpuset_small),
        cmocka_unit_test(test_v2_high_below_max),
        cmocka_unit_test(test_v1_64k_sentinel),
        cmocka_unit_test(test_v2_outside_ns),
        cmocka_unit_test(test_v2_root_not_prefix),
        cmocka_unit_test(test_v2_bind_mounts),
        cmocka_unit_test(test_escaped_mount),
        cmocka_unit_test(test_v2_root_cgroup),
        cmocka_unit_test(test_v2_missing_files),
        cmocka_unit_test(test_v1_empty_files),
        cmocka_unit_test(test_v1_zero_period),
        cmocka_unit_test(test_v2_files_only),
        cmocka_unit_test(test_slurm_v1_page_cache),
        cmocka_unit_test(test_slurm_v1_page_cache_no_stat),
        cmocka_unit_test(test_slurm_v2_page_cache),
        cmocka_unit_test(test_slurm_v2_page_cache_no_stat),
        cmocka_unit_test(test_v2_parent_cache),
        cmocka_unit_test(test_devices_confined),
        cmocka_unit_test(test_no_proc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
