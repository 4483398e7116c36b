/* PSI and swap activity: cgroup first, system otherwise, unknown is NaN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collect/collect.h"
#include "evidence.h"
#include "fixture_root.h"

#define CGDIR "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_42/step_0/user/task_0"

static gov_snapshot snap;

static void collect(const char *fixture, const gov_cgroup_evidence *cg)
{
    gov_root root = fixture_root(fixture);

    memset(&snap, 0xa5, sizeof snap);
    gov__pressure_collect(&root, cg, &snap.pressure);
    gov__root_close(&root);
}

static gov_cgroup_evidence cgroup_with_dir(const char *dir)
{
    gov_cgroup_evidence cg;

    memset(&cg, 0, sizeof cg);
    cg.cpu.version = cg.memory.version = 2;
    cg.has_pressure_dir = true;
    strcpy(cg.pressure_dir, dir);
    return cg;
}

static void test_system(void **state)
{
    collect(GOV_FIXTURES "/pressure/system", NULL);
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_SYSTEM);
    assert_float_equal(snap.pressure.cpu_some_avg10, 2.87, 1e-9);
    assert_float_equal(snap.pressure.memory_some_avg10, 2.88, 1e-9);
    assert_float_equal(snap.pressure.memory_full_avg10, 1.50, 1e-9);
    assert_int_equal(snap.pressure.swap_in_pages, 1234);
    assert_int_equal(snap.pressure.swap_out_pages, 5678);
}

static void test_cgroup_preferred(void **state)
{
    gov_cgroup_evidence cg = cgroup_with_dir(CGDIR);

    collect(GOV_FIXTURES "/pressure/cgroup", &cg);
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_CGROUP);
    assert_float_equal(snap.pressure.cpu_some_avg10, 25.40, 1e-9);
    /* Zero pressure measured is zero, not unknown. */
    assert_float_equal(snap.pressure.memory_some_avg10, 0.0, 0);
    assert_float_equal(snap.pressure.memory_full_avg10, 0.0, 0);
    assert_int_equal(snap.pressure.swap_in_pages, 1234);
}

static void test_cgroup_without_files_falls_back(void **state)
{
    gov_cgroup_evidence cg = cgroup_with_dir("/sys/fs/cgroup/system.slice");

    collect(GOV_FIXTURES "/pressure/cgroup", &cg);
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_SYSTEM);
    assert_float_equal(snap.pressure.cpu_some_avg10, 2.87, 1e-9);
    cg.has_pressure_dir = false;
    strcpy(cg.pressure_dir, CGDIR);
    collect(GOV_FIXTURES "/pressure/cgroup", &cg);
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_SYSTEM);
}

/* The label follows the cgroup the collector found: a hybrid host keeps the
 * process in the v2 root, whose figures are the whole system's. */
static void collect_through_cgroups(const char *layout)
{
    char tree[1024];
    gov_root root;
    gov_cgroup_evidence cg;

    snprintf(tree, sizeof tree, GOV_FIXTURES "/cgroup/%s", layout);
    root = fixture_root(tree);
    gov__cgroup_collect(&root, &cg);
    gov__root_close(&root);
    collect(tree, &cg);
}

static void test_root_cgroup_is_system(void **state)
{
    collect_through_cgroups("hybrid-host");
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_SYSTEM);
    assert_float_equal(snap.pressure.cpu_some_avg10, 2.35, 1e-9);
    collect_through_cgroups("v2-root-cgroup");
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_SYSTEM);
}

static void test_non_root_cgroup_is_cgroup(void **state)
{
    collect_through_cgroups("slurm-v2");
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_CGROUP);
    /* A container's namespace root is a non-root cgroup (it has a type). */
    collect_through_cgroups("docker-v2");
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_CGROUP);
}

static void test_no_psi_is_unknown(void **state)
{
    collect(GOV_FIXTURES "/pressure/nopsi", NULL);
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_NONE);
    assert_true(isnan(snap.pressure.cpu_some_avg10));
    assert_true(isnan(snap.pressure.memory_some_avg10));
    assert_true(isnan(snap.pressure.memory_full_avg10));
    assert_int_equal(snap.pressure.swap_in_pages, 0);
    assert_int_equal(snap.pressure.swap_out_pages, 0);

    collect(GOV_FIXTURES "/pressure/absent", NULL);
    assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_NONE);
    assert_true(isnan(snap.pressure.cpu_some_avg10));
    assert_true(snap.pressure.swap_in_pages == GOV_UNKNOWN);
    assert_true(snap.pressure.swap_out_pages == GOV_UNKNOWN);
}

static void test_live(void **state)
{
    collect(NULL, NULL);
    /* Either this kernel has PSI, or everything says unknown. */
    if (snap.pressure.source == GOV_PRESSURE_SOURCE_SYSTEM) {
        assert_true(snap.pressure.cpu_some_avg10 >= 0 && snap.pressure.cpu_some_avg10 <= 100);
        assert_false(isnan(snap.pressure.memory_full_avg10));
    } else {
        assert_int_equal(snap.pressure.source, GOV_PRESSURE_SOURCE_NONE);
        assert_true(isnan(snap.pressure.cpu_some_avg10));
    }
    assert_true(snap.pressure.swap_in_pages != GOV_UNKNOWN);
}

static void test_parser(void **state)
{
    const char *cpu_old = "some avg10=0.25 avg60=0.10 avg300=0.00 total=12\n";
    const char *no_full_avg = "some avg10=7 avg60=1 avg300=0 total=5\nfull total=3\n";
    const char *bad[] = { "", "some\n", "some avg10=\n", "some avg10=1.2.3 avg60=0\n",
                          "some avg10=-1\n", "some avg10=100.01\n", "some avg10=abc\n",
                          "some avg10=1e3\n", "avg10=5\n", "somex avg10=1\n" };
    gov_psi p;

    assert_int_equal(gov__psi_parse(cpu_old, strlen(cpu_old), 0, &p), 0);
    assert_float_equal(p.some_avg10, 0.25, 1e-12);
    assert_true(isnan(p.full_avg10)); /* cpu "full" appeared in 5.13 */
    assert_int_equal(gov__psi_parse(no_full_avg, strlen(no_full_avg), 0, &p), 0);
    assert_float_equal(p.some_avg10, 7.0, 0);
    assert_true(isnan(p.full_avg10));
    assert_int_equal(p.full_total_us, 3);
    assert_int_equal(gov__psi_parse("some avg10=100.00", 17, 0, &p), 0);
    assert_float_equal(p.some_avg10, 100.0, 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gov__psi_parse(bad[i], strlen(bad[i]), 0, &p), GOV_EPARSE);
        assert_true(isnan(p.some_avg10) && isnan(p.full_avg10));
    }
    assert_int_equal(gov__psi_parse(NULL, 1, 0, &p), GOV_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system),
        cmocka_unit_test(test_cgroup_preferred),
        cmocka_unit_test(test_cgroup_without_files_falls_back),
        cmocka_unit_test(test_root_cgroup_is_system),
        cmocka_unit_test(test_non_root_cgroup_is_cgroup),
        cmocka_unit_test(test_no_psi_is_unknown),
        cmocka_unit_test(test_live),
        cmocka_unit_test(test_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
