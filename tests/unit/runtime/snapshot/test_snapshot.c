/* Whole captures on fixture trees: every collector through the context, the
 * layers combined, and nothing identifying in the JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_root.h"
#include "snapshot_base.h"

#define MiB (UINT64_C(1) << 20)

static void capture(const char *fixture, const char *const *envp, gov_snapshot *s)
{
    gov_options o = { .sysroot = fixture, .envp = envp, .trusted_uid = GOV_UID_NONE };
    gov_context *ctx = NULL;

    assert_int_equal(fixture_context(&o, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, s), 0);
    gov_context_destroy(ctx);
}

/* A task of `srun -n1 -c2 --mem=200M` under task/cgroup v1: the task's own
 * memory cgroup is unlimited, the step's carries the limit. */
static const char *const slurm_step_env[] = {
    "SLURM_JOB_ID=5", "SLURM_STEP_ID=0", "SLURM_NODEID=0", "SLURM_CPUS_PER_TASK=2",
    "SLURM_CPUS_ON_NODE=2", "SLURM_TASKS_PER_NODE=1", "SLURM_STEP_TASKS_PER_NODE=1",
    "SLURM_NTASKS=1", "SLURM_NNODES=1", "SLURM_MEM_PER_NODE=200",
    "SLURMD_NODENAME=secret-node", "HOME=/home/secret-user", NULL,
};

static void test_slurm_v1_step(void **state)
{
    gov_snapshot s;
    char *j;

    capture(GOV_FIXTURES "/snapshot/slurm-v1-node", slurm_step_env, &s);
    assert_int_equal(s.descriptor.status, GOV_DESCRIPTOR_ABSENT);
    assert_int_equal(s.scheduler.source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(s.scheduler.tasks_on_node, 1);
    assert_int_equal(s.cpu.host.logical, 16);
    assert_int_equal(s.cpu.host.physical, 8);
    assert_int_equal(s.cpu.affinity.count, 2);
    assert_int_equal(s.cpu.cgroup.version, 1);
    assert_int_equal(s.cpu.cgroup.cpuset_count, 2);
    assert_int_equal(s.cpu.scheduler.cpus, 2);
    assert_true(s.cpu.effective.capacity_cores == 2.0);
    assert_int_equal(s.cpu.effective.workers, 2);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_AFFINITY);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCED);

    assert_int_equal(s.memory.cgroup.version, 1);
    assert_int_equal(s.memory.cgroup.status, GOV_LIMIT_LIMITED);
    assert_int_equal(s.memory.cgroup.limit_bytes, 200 * MiB);
    assert_int_equal(s.memory.scheduler.limit_bytes, 200 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 200 * MiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_CGROUP);
    assert_true(s.memory.effective.remaining_bytes <= 200 * MiB);
    assert_int_equal(s.memory.effective.remaining_bytes, s.memory.cgroup.remaining_bytes);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCED);
    assert_int_equal(s.pressure.source, GOV_PRESSURE_SOURCE_SYSTEM);

    assert_int_equal(gov_snapshot_json(&s, &j, NULL), 0);
    assert_null(strstr(j, "secret"));
    assert_null(strstr(j, "uid_1000"));
    assert_null(strstr(j, "job_5"));
    assert_null(strstr(j, "/sys/"));
    assert_null(strstr(j, GOV_FIXTURES));
    free(j);
}

/* A task of `srun -n1 -c1 --mem=200M` under Slurm 24.11's cgroup/v2 with
 * systemd, on the files captured from a real step (tests/fixtures/cgroup/
 * slurm-v2): job_1 and step_0/user hold memory.max = memory.high =
 * 200 MiB, the task's cpuset and affinity are its one CPU, and its own
 * cgroup's PSI files are the pressure source. */
static void test_slurm_v2_step(void **state)
{
    static const char *const env[] = {
        "SLURM_JOB_ID=1", "SLURM_STEP_ID=0", "SLURM_NODEID=0", "SLURM_CPUS_PER_TASK=1",
        "SLURM_CPUS_ON_NODE=1", "SLURM_TASKS_PER_NODE=1", "SLURM_STEP_TASKS_PER_NODE=1",
        "SLURM_NTASKS=1", "SLURM_NNODES=1", "SLURM_MEM_PER_NODE=200",
        "SLURMD_NODENAME=node1", NULL,
    };
    gov_snapshot s;
    char *j;

    capture(GOV_FIXTURES "/cgroup/slurm-v2", env, &s);
    assert_int_equal(s.cpu.cgroup.version, 2);
    assert_int_equal(s.cpu.affinity.count, 1);
    assert_int_equal(s.cpu.cgroup.cpuset_count, 1);
    assert_int_equal(s.cpu.cgroup.quota_status, GOV_LIMIT_UNLIMITED);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCED);
    assert_int_equal(gov__cpu_held(&s), (1u << GOV_LAYER_AFFINITY) | (1u << GOV_LAYER_CPUSET));
    assert_int_equal(s.memory.cgroup.version, 2);
    assert_int_equal(s.memory.cgroup.limit_bytes, 200 * MiB);
    assert_int_equal(s.memory.cgroup.high_bytes, 200 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 200 * MiB);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCED);
    assert_int_equal(s.pressure.source, GOV_PRESSURE_SOURCE_CGROUP);
    /* No device controller to read on v2, and no GPU node refused. */
    assert_int_equal(s.accel.devices_confined, -1);

    assert_int_equal(gov_snapshot_json(&s, &j, NULL), 0);
    assert_null(strstr(j, "node1"));
    assert_null(strstr(j, "slurmstepd"));
    assert_null(strstr(j, "job_1"));
    assert_null(strstr(j, "/sys/"));
    free(j);
}

/* The same node without the cgroup limit's evidence of enforcement: the
 * variables alone are an allocation, not enforcement. */
static void test_variables_are_not_enforcement(void **state)
{
    static const char *const env[] = {
        "SLURM_JOB_ID=5", "SLURM_STEP_ID=0", "SLURM_NODEID=0", "SLURM_CPUS_PER_TASK=1",
        "SLURM_MEM_PER_CPU=100", NULL,
    };
    gov_snapshot s;

    capture(GOV_FIXTURES "/snapshot/slurm-v1-node", env, &s);
    assert_int_equal(s.cpu.scheduler.cpus, 1);
    assert_true(s.cpu.effective.capacity_cores == 1.0);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_SCHEDULER);
    /* Affinity (2 CPUs) does not hold the process to 1 CPU. */
    assert_int_equal(s.enforcement.cpu, GOV_NOT_ENFORCED);
    assert_int_equal(s.memory.scheduler.per_task_bytes, 100 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 100 * MiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_SCHEDULER);
    assert_int_equal(s.enforcement.memory, GOV_NOT_ENFORCED);
}

/* A container tree with only cgroup files: a 1.5 quota, and everything the
 * tree does not show stays unknown. */
static void test_container_only_cgroup(void **state)
{
    static const char *const env[] = { "PATH=/usr/bin", NULL };
    gov_snapshot s;

    capture(GOV_FIXTURES "/cgroup/docker-v2", env, &s);
    assert_int_equal(s.scheduler.source, GOV_SCHED_NONE);
    assert_int_equal(s.cpu.host.logical, GOV_UNKNOWN);
    assert_int_equal(s.cpu.affinity.count, GOV_UNKNOWN);
    assert_int_equal(s.cpu.cgroup.version, 2);
    assert_true(s.cpu.cgroup.quota_cores == 1.5);
    assert_true(s.cpu.effective.capacity_cores == 1.5);
    assert_int_equal(s.cpu.effective.workers, 1);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_QUOTA);
    assert_int_equal(s.memory.host.total_bytes, GOV_UNKNOWN);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_CGROUP);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCEMENT_UNKNOWN);
    assert_int_equal(s.pressure.source, GOV_PRESSURE_SOURCE_CGROUP);
}

/* memory.high (1 GiB) below memory.max (2 GiB), 768 MiB used: the cgroup's
 * remaining is the distance to max, the effective one plans with high. */
static void test_high_plans_max_remains(void **state)
{
    static const char *const env[] = { NULL };
    gov_snapshot s;

    capture(GOV_FIXTURES "/cgroup/v2-high-below-max", env, &s);
    assert_int_equal(s.memory.cgroup.remaining_bytes, 1280 * MiB);
    assert_int_equal(s.memory.cgroup.planning_remaining_bytes, 256 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 1024 * MiB);
    assert_int_equal(s.memory.effective.remaining_bytes, 256 * MiB);
}

/* A Slurm step full of clean page cache (the real capture of
 * tests/slurm/cases/page_cache.sh): every remaining figure is measured
 * against the working set, the scheduler's bound included. */
static void test_page_cache_is_not_used(void **state)
{
    static const char *const env[] = {
        "SLURM_JOB_ID=1", "SLURM_STEP_ID=0", "SLURM_NODEID=0", "SLURM_CPUS_PER_TASK=1",
        "SLURM_MEM_PER_NODE=300", NULL,
    };
    uint64_t ws = UINT64_C(313184256) - UINT64_C(310448128);
    gov_snapshot s;

    capture(GOV_FIXTURES "/cgroup/slurm-v1-page-cache", env, &s);
    assert_int_equal(s.memory.cgroup.current_bytes, UINT64_C(313184256));
    assert_int_equal(s.memory.cgroup.working_set_bytes, ws);
    assert_int_equal(s.memory.cgroup.remaining_bytes, 300 * MiB - ws);
    assert_int_equal(s.memory.effective.remaining_bytes, 300 * MiB - ws);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_CGROUP);

    capture(GOV_FIXTURES "/cgroup/slurm-v1-page-cache-no-stat", env, &s);
    assert_int_equal(s.memory.effective.remaining_bytes, 300 * MiB - UINT64_C(313184256));
}

static void test_empty_root(void **state)
{
    static const char *const env[] = { NULL };
    gov_snapshot s;
    char *j;

    capture(GOV_FIXTURES "/does-not-exist", env, &s);
    assert_int_equal(s.cpu.cgroup.version, 0);
    assert_true(isnan(s.cpu.effective.capacity_cores));
    assert_int_equal(s.memory.effective.limit_bytes, GOV_UNKNOWN);
    assert_int_equal(s.pressure.source, GOV_PRESSURE_SOURCE_NONE);
    assert_int_equal(gov_snapshot_json(&s, &j, NULL), 0);
    assert_non_null(strstr(j, "\"capacity_cores\":null"));
    free(j);
}

static void test_live_capture(void **state)
{
    gov_context *ctx;
    gov_snapshot s;

    assert_int_equal(gov_context_create(NULL, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, &s), 0);
    assert_true(s.captured_ns > 0);
    assert_int_not_equal(s.cpu.affinity.count, GOV_UNKNOWN);
    assert_true(s.cpu.affinity.count >= 1);
    assert_int_not_equal(s.cpu.host.logical, GOV_UNKNOWN);
    assert_false(isnan(s.cpu.effective.capacity_cores));
    assert_int_equal(gov_snapshot_capture(NULL, &s), GOV_EINVAL);
    assert_int_equal(gov_snapshot_capture(ctx, NULL), GOV_EINVAL);
    gov_context_destroy(ctx);
    assert_int_equal(gov_context_create(NULL, NULL), GOV_EINVAL);
}

/* Strict mode: without a verified descriptor the variables are not used,
 * the snapshot is filled all the same, and the capture says why it is not
 * what was asked for. */
static void test_require_descriptor(void **state)
{
    const char *const vars[] = { "SLURM_JOB_ID=12", "SLURM_STEP_ID=0", "SLURM_NODEID=0",
                                 "SLURM_CPUS_PER_TASK=4", "SLURM_TASKS_PER_NODE=1", NULL };
    const char *const forged[] = { "SLURM_JOB_ID=12", "SLURM_STEP_ID=0", "SLURM_NODEID=0",
                                   "SLURM_CPUS_PER_TASK=4", "GOVERNOR_DESCRIPTOR=MUNGE:forged:",
                                   NULL };
    gov_options o = { .envp = vars, .trusted_uid = GOV_UID_NONE };
    gov_context *ctx;
    gov_snapshot s;
    int rc;

    (void)state;
    assert_int_equal(gov_context_create(&o, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, &s), 0);
    assert_int_equal(s.scheduler.source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(s.cpu.scheduler.cpus, 4);
    gov_context_destroy(ctx);

    o.flags = GOV_OPT_REQUIRE_DESCRIPTOR;
    assert_int_equal(gov_context_create(&o, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, &s), GOV_ENOENT);
    assert_int_equal(s.descriptor.status, GOV_DESCRIPTOR_ABSENT);
    assert_int_equal(s.scheduler.source, GOV_SCHED_NONE);
    assert_int_equal(s.cpu.scheduler.cpus, GOV_UNKNOWN);
    assert_true(s.cpu.host.logical >= 1);
    gov_context_destroy(ctx);

    o.envp = forged;
    assert_int_equal(gov_context_create(&o, &ctx), 0);
    rc = gov_snapshot_capture(ctx, &s);
    assert_int_equal(s.descriptor.status, GOV_DESCRIPTOR_INVALID);
    assert_int_equal(rc, s.descriptor.reason);
    assert_true(rc == GOV_ESEAL || rc == GOV_EMUNGE);
    assert_int_equal(s.scheduler.source, GOV_SCHED_NONE);
    gov_context_destroy(ctx);

    /* Nothing to verify under a sysroot, or when told not to look. */
    o.sysroot = GOV_FIXTURES "/snapshot/slurm-v1-step";
    assert_int_equal(gov_context_create(&o, &ctx), GOV_EINVAL);
    o.sysroot = NULL;
    o.flags |= GOV_OPT_NO_DESCRIPTOR;
    assert_int_equal(gov_context_create(&o, &ctx), GOV_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slurm_v1_step),
        cmocka_unit_test(test_slurm_v2_step),
        cmocka_unit_test(test_variables_are_not_enforcement),
        cmocka_unit_test(test_container_only_cgroup),
        cmocka_unit_test(test_high_plans_max_remains),
        cmocka_unit_test(test_page_cache_is_not_used),
        cmocka_unit_test(test_empty_root),
        cmocka_unit_test(test_live_capture),
        cmocka_unit_test(test_require_descriptor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
