/* Parsers of runtime settings found in the environment (base.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "base.h"
#include "governor.h"

#define S(x) x, strlen(x)

static void test_counts(void **state)
{
    uint64_t v;

    assert_int_equal(gov__envval_count(S("4"), &v), 0);
    assert_int_equal(v, 4);
    assert_int_equal(gov__envval_count(S("8,2,1"), &v), 0);
    assert_int_equal(v, 8);
    assert_int_equal(gov__envval_count(S(" 3 "), &v), 0);
    assert_int_equal(v, 3);
    assert_int_equal(gov__envval_count(S("auto"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_count(S("default"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_count(S("0"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_count(S(""), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_count(S(",4"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_count(S("99999999999999999999"), &v), GOV_ERANGE);
}

static void test_go_bytes(void **state)
{
    uint64_t v;

    assert_int_equal(gov__envval_go_bytes(S("400MiB"), &v), 0);
    assert_int_equal(v, 400ull << 20);
    assert_int_equal(gov__envval_go_bytes(S("1073741824"), &v), 0);
    assert_int_equal(v, 1ull << 30);
    assert_int_equal(gov__envval_go_bytes(S("512B"), &v), 0);
    assert_int_equal(v, 512);
    assert_int_equal(gov__envval_go_bytes(S("2TiB"), &v), 0);
    assert_int_equal(v, 2ull << 40);
    assert_int_equal(gov__envval_go_bytes(S("off"), &v), 0);
    assert_int_equal(v, INT64_MAX);
    assert_int_equal(gov__envval_go_bytes(S("400MB"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_go_bytes(S("MiB"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_go_bytes(S("-1"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_go_bytes(S("99999999999TiB"), &v), GOV_ERANGE);
}

/* JAX's fraction and CuPy's percentage, in thousandths. */
static void test_fractions(void **state)
{
    uint64_t v;

    (void)state;
    assert_int_equal(gov__envval_fraction(S("0.25"), &v), 0);
    assert_int_equal(v, 250);
    assert_int_equal(gov__envval_fraction(S(".9"), &v), 0);
    assert_int_equal(v, 900);
    assert_int_equal(gov__envval_fraction(S("1"), &v), 0);
    assert_int_equal(v, 1000);
    assert_int_equal(gov__envval_fraction(S("0.18759"), &v), 0);
    assert_int_equal(v, 187);
    assert_int_equal(gov__envval_fraction(S("."), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_fraction(S(""), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_fraction(S("0.5x"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_fraction(S("-0.5"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_fraction(S("99999999999999999999"), &v), GOV_ERANGE);
    assert_int_equal(gov__envval_percent(S("25%"), &v), 0);
    assert_int_equal(v, 250);
    assert_int_equal(gov__envval_percent(S("18.75%"), &v), 0);
    assert_int_equal(v, 187);
    assert_int_equal(gov__envval_percent(S("25"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_percent(S("%"), &v), GOV_EPARSE);
}

/* CUDA MPS's per-device limits: device 0's, in bytes. */
static void test_mps_limits(void **state)
{
    uint64_t v;

    (void)state;
    assert_int_equal(gov__envval_mps_limit(S("0=4G"), &v), 0);
    assert_int_equal(v, 4ull << 30);
    assert_int_equal(gov__envval_mps_limit(S("1=1G,0=512MB"), &v), 0);
    assert_int_equal(v, 512ull << 20);
    assert_int_equal(gov__envval_mps_limit(S("0=1024"), &v), 0);
    assert_int_equal(v, 1024);
    assert_int_equal(gov__envval_mps_limit(S("0=2tb"), &v), 0);
    assert_int_equal(v, 2ull << 40);
    assert_int_equal(gov__envval_mps_limit(S("1=1G"), &v), GOV_ENOENT);
    assert_int_equal(gov__envval_mps_limit(S(""), &v), GOV_ENOENT);
    assert_int_equal(gov__envval_mps_limit(S("4G"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_mps_limit(S("=4G"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_mps_limit(S("0=4X"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_mps_limit(S("0=99999999999T"), &v), GOV_ERANGE);
    assert_int_equal(gov__envval_size(S("512m"), &v), 0);
    assert_int_equal(v, 512ull << 20);
    assert_int_equal(gov__envval_size(S("4GB"), &v), 0);
    assert_int_equal(v, 4ull << 30);
    assert_int_equal(gov__envval_size(S("1.5G"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_size(S("50%"), &v), GOV_EPARSE);
}

static void test_java_sizes(void **state)
{
    uint64_t v;

    assert_int_equal(gov__envval_java_size(S("8g"), &v), 0);
    assert_int_equal(v, 8ull << 30);
    assert_int_equal(gov__envval_java_size(S("512M"), &v), 0);
    assert_int_equal(v, 512ull << 20);
    assert_int_equal(gov__envval_java_size(S("1024"), &v), 0);
    assert_int_equal(v, 1024);
    assert_int_equal(gov__envval_java_size(S("1gb"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_java_size(S("g"), &v), GOV_EPARSE);
    assert_int_equal(gov__envval_java_size(S("99999999999t"), &v), GOV_ERANGE);
}

static void test_find_option(void **state)
{
    static const char *const node[] = { "--max-old-space-size", "--max_old_space_size" };
    static const char *const java[] = { "-XX:MaxRAM=", "-Xmx" };
    const char *t;
    gov_envval_option o;

    t = "--inspect --max-old-space-size=100 --max_old_space_size 200";
    assert_int_equal(gov__envval_find_option(S(t), node, 2, &o), 0);
    /* The last one wins, as in Node. */
    assert_int_equal(o.which, 1);
    assert_memory_equal(t + o.start, "--max_old_space_size 200", o.len);
    assert_int_equal(o.value_len, 3);
    assert_memory_equal(t + o.value, "200", 3);

    t = "--title=\"a --max-old-space-size=1\"";
    assert_int_equal(gov__envval_find_option(S(t), node, 2, &o), GOV_ENOENT);
    t = "--max-old-space-size-x=1 --max-old-space-sizes";
    assert_int_equal(gov__envval_find_option(S(t), node, 2, &o), GOV_ENOENT);
    /* A bare name at the end has no value, nor one before another option. */
    t = "--max-old-space-size";
    assert_int_equal(gov__envval_find_option(S(t), node, 2, &o), GOV_ENOENT);
    t = "--max-old-space-size --max-old-space-size=384";
    assert_int_equal(gov__envval_find_option(S(t), node, 2, &o), 0);
    assert_memory_equal(t + o.start, "--max-old-space-size=384", o.len);

    t = "-Dx=1\t-XX:MaxRAMPercentage=50 -Xmx2g";
    assert_int_equal(gov__envval_find_option(S(t), java, 2, &o), 0);
    assert_int_equal(o.which, 1);
    assert_memory_equal(t + o.value, "2g", o.value_len);
    t = "-XX:MaxRAMPercentage=50";
    assert_int_equal(gov__envval_find_option(S(t), java, 2, &o), GOV_ENOENT);
    assert_int_equal(gov__envval_find_option(S(""), java, 2, &o), GOV_ENOENT);
    /* An unterminated quote runs to the end of the text. */
    t = "\"-Xmx1g -Xmx2g";
    assert_int_equal(gov__envval_find_option(S(t), java, 2, &o), GOV_ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_go_bytes),
        cmocka_unit_test(test_java_sizes),
        cmocka_unit_test(test_fractions),
        cmocka_unit_test(test_mps_limits),
        cmocka_unit_test(test_find_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
