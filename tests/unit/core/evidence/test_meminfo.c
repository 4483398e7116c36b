/* Host memory from /proc/meminfo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "evidence.h"
#include "fixture_root.h"

static void collect(const char *fixture, uint64_t *total, uint64_t *available)
{
    gov_root root = fixture_root(fixture);

    gov__meminfo_collect(&root, total, available);
    gov__root_close(&root);
}

static void test_this_machine(void **state)
{
    uint64_t t, a;

    /* Copied from the machine this project was started on. */
    collect(GOV_FIXTURES "/meminfo/thismachine", &t, &a);
    assert_int_equal(t, UINT64_C(24684096) * 1024);
    assert_int_equal(a, UINT64_C(24304276) * 1024);
}

static void test_no_memavailable(void **state)
{
    uint64_t t, a;

    /* Kernels before 3.14: MemAvailable is unknown, never estimated. */
    collect(GOV_FIXTURES "/meminfo/no-memavailable", &t, &a);
    assert_true(t != GOV_UNKNOWN);
    assert_true(a == GOV_UNKNOWN);
}

static void test_missing_file(void **state)
{
    uint64_t t = 1, a = 1;

    collect(GOV_FIXTURES "/meminfo/absent", &t, &a);
    assert_true(t == GOV_UNKNOWN);
    assert_true(a == GOV_UNKNOWN);
}

static void test_live(void **state)
{
    uint64_t t, a;

    gov__meminfo_collect(NULL, &t, &a);
    assert_true(t != GOV_UNKNOWN && t > 0);
    assert_true(a != GOV_UNKNOWN && a <= t);
}

static void test_parser(void **state)
{
    const char *ok = "MemTotal:       16318412 kB\nMemFree:  1 kB\nMemAvailable:    9931172 kB\n";
    const char *units = "MemTotal: 100 MB\nMemAvailable: 12\n";
    const char *huge = "MemTotal: 18014398509481984 kB\nMemAvailable: 18014398509481983 kB";
    const char *none = "MemFree: 1 kB\n";
    const char *prefix = "XMemTotal: 5 kB\nMemTotalX: 6 kB\nMemAvailable: 1 kB\n";
    uint64_t t, a;

    assert_int_equal(gov__meminfo_parse(ok, strlen(ok), &t, &a), 0);
    assert_int_equal(t, UINT64_C(16318412) * 1024);
    assert_int_equal(a, UINT64_C(9931172) * 1024);
    assert_int_equal(gov__meminfo_parse(units, strlen(units), &t, &a), GOV_ENOENT);
    assert_true(t == GOV_UNKNOWN && a == GOV_UNKNOWN);
    /* 2^54 kB overflows bytes: unknown; one less fits. */
    assert_int_equal(gov__meminfo_parse(huge, strlen(huge), &t, &a), 0);
    assert_true(t == GOV_UNKNOWN);
    assert_int_equal(a, UINT64_C(18014398509481983) * 1024);
    assert_int_equal(gov__meminfo_parse(none, strlen(none), &t, &a), GOV_ENOENT);
    assert_int_equal(gov__meminfo_parse(prefix, strlen(prefix), &t, &a), 0);
    assert_true(t == GOV_UNKNOWN);
    assert_int_equal(a, 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_this_machine),
        cmocka_unit_test(test_no_memavailable),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_live),
        cmocka_unit_test(test_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
