/* The planner: workers x threads within capacity; ceilings, not promises. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include "base.h"

/* Inside an allocation the default profile is batch, which keeps nothing
 * back: the figures below are the capacity's own. */
static gov_snapshot with_capacity(double cap)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.cpu.cgroup.quota_cores = cap;
    gov_snapshot_resolve(&s);
    return s;
}

/* Without a pool size, one process uses every CPU: OMP_NUM_THREADS and its
 * kin count the threads of one process. */
static void test_default_is_one_process(void **state)
{
    gov_snapshot s = with_capacity(8.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.threads_per_worker, 8);
    assert_int_equal(p.cpu_workers, 8);
    assert_int_equal(p.io_workers, 12);
    assert_false(p.oversubscribed);
}

static void test_pool_at_the_ceiling(void **state)
{
    gov_snapshot s = with_capacity(8.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 8, 0, &p), 0);
    assert_int_equal(p.workers, 8);
    assert_int_equal(p.threads_per_worker, 1);
    assert_false(p.oversubscribed);
}

static void test_threads_fill_capacity(void **state)
{
    gov_snapshot s = with_capacity(8.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 3, 0, &p), 0);
    assert_int_equal(p.workers, 3);
    assert_int_equal(p.threads_per_worker, 2);
    assert_true(p.workers * p.threads_per_worker <= 8);
    assert_int_equal(gov_plan_compute(&s, 1, 0, &p), 0);
    assert_int_equal(p.threads_per_worker, 8);
}

static void test_fractional_capacity(void **state)
{
    gov_snapshot s = with_capacity(1.5);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.threads_per_worker, 1);
    s = with_capacity(0.5);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.threads_per_worker, 1);
}

static void test_oversubscribed(void **state)
{
    gov_snapshot s = with_capacity(2.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 5, 0, &p), 0);
    assert_int_equal(p.workers, 5);
    assert_int_equal(p.threads_per_worker, 1);
    assert_true(p.oversubscribed);
}

static void test_unknown_capacity_plans_one(void **state)
{
    gov_snapshot s;
    gov_plan p;

    gov_snapshot_init(&s);
    gov_snapshot_resolve(&s);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.threads_per_worker, 1);
    assert_int_equal(p.io_workers, 5);
}

static void test_io_capped(void **state)
{
    gov_snapshot s = with_capacity(64.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.io_workers, 32);
    assert_int_equal(gov_plan_compute(NULL, 0, 0, &p), GOV_EINVAL);
}

/* A cgroup limit with its remaining memory, nothing else known. */
static gov_snapshot with_memory(uint64_t limit, uint64_t remaining)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.cpu.cgroup.quota_cores = 4.0;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    s.memory.cgroup.limit_bytes = limit;
    s.memory.cgroup.remaining_bytes = remaining;
    s.memory.cgroup.planning_remaining_bytes = remaining;
    gov_snapshot_resolve(&s);
    return s;
}

static void test_memory_divided_among_workers(void **state)
{
    gov_snapshot s = with_memory(8ull << 30, 6ull << 30);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.memory_limit_per_worker, 8ull << 30);
    assert_int_equal(p.memory_remaining_per_worker, 6ull << 30);
    assert_int_equal(gov_plan_compute(&s, 4, 0, &p), 0);
    assert_int_equal(p.memory_limit_per_worker, 2ull << 30);
    assert_int_equal(p.memory_remaining_per_worker, 1536ull << 20);
}

/* A step's memory on a node is shared by its local tasks; per-CPU memory
 * is each task's own. */
static void test_memory_shared_by_tasks(void **state)
{
    gov_snapshot s = with_memory(8ull << 30, 8ull << 30);
    gov_plan p;

    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.tasks_on_node = 4;
    s.scheduler.cpus_per_task = 1;
    s.scheduler.mem_per_node_bytes = 8ull << 30;
    gov_snapshot_resolve(&s);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.memory_limit_per_worker, 2ull << 30);
    assert_int_equal(gov_plan_compute(&s, 2, 0, &p), 0);
    assert_int_equal(p.memory_limit_per_worker, 1ull << 30);

    s.scheduler.mem_per_node_bytes = GOV_UNKNOWN;
    s.scheduler.cpus_on_node = 4;
    s.scheduler.mem_per_cpu_bytes = 1ull << 30;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_SCHEDULER);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.memory_limit_per_worker, 1ull << 30);
}

static void test_memory_unknown(void **state)
{
    gov_snapshot s = with_capacity(2.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 3, 0, &p), 0);
    assert_int_equal(p.memory_limit_per_worker, GOV_UNKNOWN);
    assert_int_equal(p.memory_remaining_per_worker, GOV_UNKNOWN);
}

/* Outside any scheduler the interactive profile keeps a quarter of the
 * threads and memory back for the person at the host, in the plan as in
 * the governor; never below one thread. */
static void test_interactive_keeps_a_quarter(void **state)
{
    gov_snapshot s = with_memory(8ull << 30, 6ull << 30);
    gov_plan p;

    s.scheduler.source = GOV_SCHED_NONE;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.policy.profile, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.reserve_threads, 1);
    assert_int_equal(p.reserve_memory_bytes, 2ull << 30);
    assert_int_equal(p.cpu_workers, 3);
    assert_int_equal(p.threads_per_worker, 3);
    assert_int_equal(p.memory_limit_per_worker, 6ull << 30);
    assert_int_equal(p.memory_remaining_per_worker, 4ull << 30);

    s = with_capacity(1.0);
    s.scheduler.source = GOV_SCHED_NONE;
    s.policy.present = 1;
    s.policy.profile = GOV_PROFILE_INTERACTIVE;
    s.policy.cpu_reserve_threads = 4;
    gov_snapshot_resolve(&s);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.reserve_threads, 4);
    assert_int_equal(p.threads_per_worker, 1);
    assert_int_equal(p.cpu_workers, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_is_one_process),
        cmocka_unit_test(test_pool_at_the_ceiling),
        cmocka_unit_test(test_threads_fill_capacity),
        cmocka_unit_test(test_fractional_capacity),
        cmocka_unit_test(test_oversubscribed),
        cmocka_unit_test(test_unknown_capacity_plans_one),
        cmocka_unit_test(test_io_capped),
        cmocka_unit_test(test_memory_divided_among_workers),
        cmocka_unit_test(test_memory_shared_by_tasks),
        cmocka_unit_test(test_memory_unknown),
        cmocka_unit_test(test_interactive_keeps_a_quarter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
