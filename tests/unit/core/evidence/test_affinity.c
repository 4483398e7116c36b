/* Affinity: sched_getaffinity live, Cpus_allowed_list under a sysroot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "evidence.h"
#include "fixture_root.h"

static int collect(const char *fixture, gov_cpuset *set, uint64_t *count)
{
    gov_root root = fixture_root(fixture);
    int rc = gov__affinity_collect(&root, set, count);

    gov__root_close(&root);
    return rc;
}

static void test_fixture_bound(void **state)
{
    gov_cpuset set;
    uint64_t count;
    char buf[64];

    assert_int_equal(collect(GOV_FIXTURES "/affinity/bound", &set, &count), 0);
    assert_int_equal(count, 4);
    assert_int_equal(gov_cpuset_format(&set, buf, sizeof buf), 9);
    assert_string_equal(buf, "2-3,10-11");
}

static void test_fixture_this_machine(void **state)
{
    gov_cpuset set;
    uint64_t count;

    assert_int_equal(collect(GOV_FIXTURES "/affinity/thismachine", &set, &count), 0);
    assert_int_equal(count, 2);
}

static void test_missing_status_is_unknown(void **state)
{
    gov_cpuset set;
    uint64_t count = 7;

    assert_int_equal(collect(GOV_FIXTURES "/affinity/none", &set, &count), GOV_ENOENT);
    assert_true(count == GOV_UNKNOWN);
    assert_int_equal(gov_cpuset_count(&set), 0);
}

static void test_live_matches_proc_status(void **state)
{
    gov_cpuset live, status;
    uint64_t count;
    char buf[16384];
    size_t len;

    assert_int_equal(gov__affinity_collect(NULL, &live, &count), 0);
    assert_true(count >= 1 && count <= GOV_CPUSET_BITS);
    assert_int_equal(gov__read_file(NULL, "/proc/self/status", buf, sizeof buf, &len), 0);
    assert_int_equal(gov__status_parse_cpus_allowed(buf, len, &status), 0);
    assert_memory_equal(&live, &status, sizeof live);
    assert_int_equal(gov_cpuset_count(&live), count);
}

static void test_parser(void **state)
{
    gov_cpuset s;
    const char *ok = "Name:\tx\nCpus_allowed:\tff\nCpus_allowed_list:\t0-7\nMems_allowed:\t1\n";
    const char *last = "Cpus_allowed_list:\t4,6"; /* no trailing newline */
    const char *absent = "Name:\tx\nCpus_allowed:\tff\n";
    const char *inline_key = "Name:\tCpus_allowed_list: 1\n";
    const char *bad = "Cpus_allowed_list:\tzz\n";

    assert_int_equal(gov__status_parse_cpus_allowed(ok, strlen(ok), &s), 0);
    assert_int_equal(gov_cpuset_count(&s), 8);
    assert_int_equal(gov__status_parse_cpus_allowed(last, strlen(last), &s), 0);
    assert_int_equal(gov_cpuset_count(&s), 2);
    assert_int_equal(gov__status_parse_cpus_allowed(absent, strlen(absent), &s), GOV_ENOENT);
    assert_int_equal(gov__status_parse_cpus_allowed(inline_key, strlen(inline_key), &s),
                     GOV_ENOENT);
    assert_int_equal(gov__status_parse_cpus_allowed(bad, strlen(bad), &s), GOV_EPARSE);
    assert_int_equal(gov_cpuset_count(&s), 0);
    /* A truncated buffer that stops inside the key finds nothing. */
    assert_int_equal(gov__status_parse_cpus_allowed(ok, 20, &s), GOV_ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_bound),
        cmocka_unit_test(test_fixture_this_machine),
        cmocka_unit_test(test_missing_status_is_unknown),
        cmocka_unit_test(test_live_matches_proc_status),
        cmocka_unit_test(test_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
