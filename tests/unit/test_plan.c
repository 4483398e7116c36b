/* The planner: workers x threads within capacity; ceilings, not promises. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include "evidence.h"

static gov_snapshot with_capacity(double cap)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.cpu.cgroup.quota_cores = cap;
    gov_snapshot_resolve(&s);
    return s;
}

static void test_default_workers(void **state)
{
    gov_snapshot s = with_capacity(8.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, &p), 0);
    assert_int_equal(p.workers, 8);
    assert_int_equal(p.threads_per_worker, 1);
    assert_int_equal(p.cpu_workers, 8);
    assert_int_equal(p.io_workers, 12);
    assert_false(p.oversubscribed);
}

static void test_threads_fill_capacity(void **state)
{
    gov_snapshot s = with_capacity(8.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 3, &p), 0);
    assert_int_equal(p.workers, 3);
    assert_int_equal(p.threads_per_worker, 2);
    assert_true(p.workers * p.threads_per_worker <= 8);
    assert_int_equal(gov_plan_compute(&s, 1, &p), 0);
    assert_int_equal(p.threads_per_worker, 8);
}

static void test_fractional_capacity(void **state)
{
    gov_snapshot s = with_capacity(1.5);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, &p), 0);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.threads_per_worker, 1);
}

static void test_oversubscribed(void **state)
{
    gov_snapshot s = with_capacity(2.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 5, &p), 0);
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
    assert_int_equal(gov_plan_compute(&s, 0, &p), 0);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.threads_per_worker, 1);
    assert_int_equal(p.io_workers, 5);
}

static void test_io_capped(void **state)
{
    gov_snapshot s = with_capacity(64.0);
    gov_plan p;

    assert_int_equal(gov_plan_compute(&s, 0, &p), 0);
    assert_int_equal(p.io_workers, 32);
    assert_int_equal(gov_plan_compute(NULL, 0, &p), GOV_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_workers),
        cmocka_unit_test(test_threads_fill_capacity),
        cmocka_unit_test(test_fractional_capacity),
        cmocka_unit_test(test_oversubscribed),
        cmocka_unit_test(test_unknown_capacity_plans_one),
        cmocka_unit_test(test_io_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
