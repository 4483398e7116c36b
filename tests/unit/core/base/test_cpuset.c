/* Linux CPU list parsing and canonical formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "governor.h"
#include "base.h"

static void roundtrip(const char *in, const char *canon, uint64_t count)
{
    gov_cpuset s;
    char buf[256];

    assert_int_equal(gov_cpuset_parse(in, strlen(in), &s), 0);
    assert_int_equal(gov_cpuset_count(&s), count);
    assert_int_equal(gov_cpuset_format(&s, buf, sizeof buf), (int)strlen(canon));
    assert_string_equal(buf, canon);
}

static void test_valid_lists(void **state)
{
    roundtrip("0-3,8\n", "0-3,8", 5);
    roundtrip("  5 ", "5", 1);
    roundtrip("", "", 0);
    roundtrip("\n", "", 0);
    roundtrip("3,1,2", "1-3", 3);
    roundtrip("0-1,1-2", "0-2", 3);
    roundtrip("8191", "8191", 1);
    roundtrip("0,2,4,6", "0,2,4,6", 4);
}

static void test_invalid_lists(void **state)
{
    const char *bad[] = { "a", "1-", "-1", "3-1", "1,,2", "1,", ",1", "1 2", "0x1", "1-2-3" };
    gov_cpuset s;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gov_cpuset_parse(bad[i], strlen(bad[i]), &s), GOV_EPARSE);
        assert_int_equal(gov_cpuset_count(&s), 0);
    }
    assert_int_equal(gov_cpuset_parse("8192", 4, &s), GOV_ERANGE);
    assert_int_equal(gov_cpuset_parse("99999999999999999999999", 23, &s), GOV_ERANGE);
}

static void test_format_too_small(void **state)
{
    gov_cpuset s;
    char buf[4];

    assert_int_equal(gov_cpuset_parse("0,2,4,6", 7, &s), 0);
    assert_int_equal(gov_cpuset_format(&s, buf, sizeof buf), GOV_ENOSPC);
    assert_string_equal(buf, "");
}

/* A list written after other text: its commas come from the list alone. */
static void test_put_after_text(void **state)
{
    gov_cpuset s;
    char buf[32];
    gov_text_buf o = gov__text_fixed(buf, sizeof buf);

    (void)state;
    assert_int_equal(gov_cpuset_parse("8,0-3,9", 7, &s), 0);
    gov__text_put(&o, "cpus=");
    gov__cpuset_put(&o, &s);
    memset(&s, 0, sizeof s);
    gov__text_put(&o, ";");
    gov__cpuset_put(&o, &s);   /* empty: nothing */
    assert_int_equal(o.err, 0);
    assert_string_equal(buf, "cpus=0-3,8-9;");
}

/* The whole-set operations of base.h, across word boundaries. */
static void test_set_operations(void **state)
{
    gov_cpuset a, b, c;
    char buf[64];

    (void)state;
    assert_int_equal(gov_cpuset_parse("0-3,63-65,200", 13, &a), 0);
    assert_int_equal(gov_cpuset_parse("2-70", 4, &b), 0);
    gov__cpuset_and(&c, &a, &b);
    assert_true(gov_cpuset_format(&c, buf, sizeof buf) > 0);
    assert_string_equal(buf, "2-3,63-65");
    assert_true(gov__cpuset_intersects(&a, &b));
    assert_true(gov__cpuset_within(&c, &a));
    assert_true(gov__cpuset_within(&c, &b));
    assert_false(gov__cpuset_within(&a, &b));
    assert_int_equal(gov__cpuset_count_outside(&a, &b), 3);   /* 0, 1, 200 */
    gov__cpu_del(&a, 64);
    gov__cpu_del(&a, GOV_CPUSET_BITS);                           /* past the end: nothing */
    gov__cpuset_or(&a, &c);                                      /* 64 back */
    assert_true(gov_cpuset_format(&a, buf, sizeof buf) > 0);
    assert_string_equal(buf, "0-3,63-65,200");
    assert_int_equal(gov_cpuset_parse("100", 3, &c), 0);
    assert_false(gov__cpuset_intersects(&a, &c));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_lists),
        cmocka_unit_test(test_invalid_lists),
        cmocka_unit_test(test_format_too_small),
        cmocka_unit_test(test_put_after_text),
        cmocka_unit_test(test_set_operations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
