/* text.c: the one set of rules for lines, records, tokens and numbers, and
 * the one text writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governor.h"
#include "base.h"

static void test_lines(void **state)
{
    const char text[] = "a\n\nbc\nd";
    gov_lines it = gov__lines_of(text, strlen(text), false);
    const char *l;
    size_t n;

    assert_true(gov__line_next(&it, &l, &n) && n == 1 && l[0] == 'a');
    assert_true(gov__line_next(&it, &l, &n) && n == 0);
    assert_true(gov__line_next(&it, &l, &n) && n == 2 && !memcmp(l, "bc", 2));
    assert_true(gov__line_next(&it, &l, &n) && n == 1 && l[0] == 'd');
    assert_false(gov__line_next(&it, &l, &n));
    /* Complete lines only: a cut-off last line is not a line. */
    it = gov__lines_of(text, strlen(text), true);
    for (int i = 0; i < 3; i++)
        assert_true(gov__line_next(&it, &l, &n));
    assert_false(gov__line_next(&it, &l, &n));
}

static void test_records(void **state)
{
    const char good[] = "a=1\nkey=value=x\n";
    const char *bad[] = { "a=1", "=1\n", "a=\n", "a\n" };
    gov_lines it = gov__lines_of(good, strlen(good), true);
    const char *k, *v;
    size_t kn, vn;

    assert_int_equal(gov__record_next(&it, &k, &kn, &v, &vn), 1);
    assert_true(gov__token_eq(k, kn, "a") && gov__token_eq(v, vn, "1"));
    assert_int_equal(gov__record_next(&it, &k, &kn, &v, &vn), 1);
    assert_true(gov__token_eq(k, kn, "key") && gov__token_eq(v, vn, "value=x"));
    assert_int_equal(gov__record_next(&it, &k, &kn, &v, &vn), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        it = gov__lines_of(bad[i], strlen(bad[i]), true);
        assert_int_equal(gov__record_next(&it, &k, &kn, &v, &vn), GOV_EPARSE);
    }
}

static void test_tokens(void **state)
{
    const char *s = " \tword\r\n";
    size_t n = strlen(s);

    gov__trim(&s, &n);
    assert_true(gov__token_eq(s, n, "word"));
    assert_false(gov__token_eq(s, n, "wor"));
    assert_false(gov__token_eq(s, n, "words"));
}

static void test_prefix_and_words(void **state)
{
    const char *rest = NULL, *line = "MemTotal:  16 kB";
    size_t n = 0;

    (void)state;
    assert_true(gov__prefix(line, strlen(line), "MemTotal:", &rest, &n));
    assert_string_equal(rest, "  16 kB");
    assert_int_equal(n, 7);
    assert_true(gov__prefix(line, 9, "MemTotal:", &rest, &n));
    assert_int_equal(n, 0);
    assert_false(gov__prefix(line, 8, "MemTotal:", NULL, NULL));
    assert_false(gov__prefix(line, strlen(line), "MemFree:", NULL, NULL));
    assert_true(gov__words_have("cpuset cpu io memory", 20, "memory"));
    assert_true(gov__words_have(" cpu\tio\n", 8, "io"));
    assert_false(gov__words_have("cpuset cpu", 10, "cpus"));
    assert_false(gov__words_have("", 0, "cpu"));
}

static void test_decimal(void **state)
{
    uint64_t v;

    assert_int_equal(gov__parse_dec("42", 2, 0, 100, &v), 0);
    assert_int_equal(v, 42);
    assert_int_equal(gov__parse_dec("101", 3, 0, 100, &v), GOV_ERANGE);
    assert_int_equal(gov__parse_dec(" 42\n", 4, 0, 100, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_dec(" 42\n", 4, GOV_NUM_SPACE, 100, &v), 0);
    assert_int_equal(gov__parse_dec("042", 3, 0, 100, &v), 0);
    assert_int_equal(gov__parse_dec("042", 3, GOV_NUM_CANONICAL, 100, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_dec("0", 1, GOV_NUM_CANONICAL, 100, &v), 0);
    assert_int_equal(gov__parse_dec("", 0, 0, 100, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_dec("-1", 2, 0, 100, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_dec("+1", 2, 0, 100, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_dec("18446744073709551615", 20, 0, UINT64_MAX, &v), 0);
    assert_int_equal(v, UINT64_MAX);
    assert_int_equal(gov__parse_dec("18446744073709551616", 20, 0, UINT64_MAX, &v), GOV_ERANGE);
    assert_int_equal(gov__parse_dec("9", 1, 0, 5, &v), GOV_ERANGE);
    assert_int_equal(gov__parse_u64("7\n", 2, &v), 0);
    assert_int_equal(v, 7);
}

static void test_scan(void **state)
{
    const char *t = "12(x3)", *p = t;
    uint64_t v;

    assert_int_equal(gov__scan_dec(&p, t + 6, 100, &v), 0);
    assert_int_equal(v, 12);
    assert_int_equal(p - t, 2);
    assert_int_equal(gov__scan_dec(&p, t + 6, 100, &v), GOV_EPARSE);
    assert_int_equal(p - t, 2);    /* not advanced on error */
}

static void test_hex(void **state)
{
    uint64_t v;

    assert_int_equal(gov__parse_hex("0x1002\n", 7, GOV_NUM_SPACE | GOV_HEX_PREFIX, &v), 0);
    assert_int_equal(v, 0x1002);
    assert_int_equal(gov__parse_hex("1002", 4, GOV_HEX_PREFIX, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_hex("0x", 2, GOV_HEX_PREFIX, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_hex("ABcd", 4, 0, &v), 0);
    assert_int_equal(v, 0xabcd);
    assert_int_equal(gov__parse_hex("ABcd", 4, GOV_HEX_LOWER, &v), GOV_EPARSE);
    assert_int_equal(gov__parse_hex("ffffffffffffffff", 16, GOV_HEX_LOWER, &v), 0);
    assert_int_equal(v, UINT64_MAX);
    assert_int_equal(gov__parse_hex("10000000000000000", 17, 0, &v), GOV_ERANGE);
    assert_int_equal(gov__parse_hex("0g", 2, 0, &v), GOV_EPARSE);
}

/* Device entries: "renderD128" yes, "card0-DP-1" (a connector) no. */
static void test_name_number(void **state)
{
    uint64_t n = 7;

    assert_true(gov__name_number("renderD128", "renderD", &n));
    assert_int_equal(n, 128);
    assert_true(gov__name_number("nvidia0", "nvidia", &n));
    assert_int_equal(n, 0);
    assert_true(gov__name_number("12", "", &n));
    assert_int_equal(n, 12);
    assert_false(gov__name_number("card0-DP-1", "card", &n));
    assert_false(gov__name_number("nvidiactl", "nvidia", &n));
    assert_false(gov__name_number("nvidia", "nvidia", &n));
    assert_false(gov__name_number("nvidia 1", "nvidia", &n));
    assert_false(gov__name_number("card", "renderD", &n));
    assert_false(gov__name_number("nvidia99999999999999999999", "nvidia", &n));
}

/* Outside text bound for a log line: a newline would forge a line. */
static void test_printable(void **state)
{
    char s[] = "MUNGE: bad\n[2026] error: forged\r\x7f\tend \xc3\xa9";

    (void)state;
    gov__text_printable(s);
    assert_string_equal(s, "MUNGE: bad?[2026] error: forged???end \xc3\xa9");
}

/* A fixed writer: a piece fits with its NUL or not at all; once one does
 * not, nothing more is written and the text ends after the last piece. */
static void test_writer_fixed(void **state)
{
    char buf[8];
    gov_text_buf o = gov__text_fixed(buf, sizeof buf);

    (void)state;
    gov__text_put(&o, "%s=%d", "ab", 12);
    assert_int_equal(o.err, 0);
    assert_string_equal(buf, "ab=12");
    gov__text_append(&o, "xy", 2);   /* 7 bytes and the NUL: exactly full */
    assert_int_equal(o.err, 0);
    assert_int_equal(o.used, 7);
    assert_string_equal(buf, "ab=12xy");
    gov__text_put(&o, "z");
    assert_int_equal(o.err, GOV_ENOSPC);
    assert_string_equal(buf, "ab=12xy");

    o = gov__text_fixed(buf, sizeof buf);
    gov__text_put(&o, "abc");
    gov__text_put(&o, "%s", "defghij");   /* cut by vsnprintf, then undone */
    assert_int_equal(o.err, GOV_ENOSPC);
    assert_string_equal(buf, "abc");
    gov__text_put(&o, "d");               /* sticky: it would fit */
    gov__text_append(&o, "d", 1);
    assert_int_equal(o.used, 3);
    assert_string_equal(buf, "abc");

    o = gov__text_fixed(buf, 0);
    gov__text_append(&o, "", 0);
    assert_int_equal(o.err, GOV_ENOSPC);
    o = gov__text_fixed(buf, sizeof buf);
    assert_int_equal(gov__text_take(&o, &(char *){ NULL }, NULL), GOV_EINVAL);
}

/* A growable writer: the text survives several reallocations, raw bytes
 * (NULs too) as they are, and the caller gets it all. */
static void test_writer_growable(void **state)
{
    gov_text_buf o = gov__text_growable();
    char *want = malloc(70000), *text;
    size_t n = 0, len;

    (void)state;
    assert_non_null(want);
    for (int i = 0; n < 60000; i++) {
        int m = snprintf(want + n, 70000 - n, "%d:%0*d,", i, i % 300, i);
        gov__text_put(&o, "%d:%0*d,", i, i % 300, i);
        n += (size_t)m;
        memcpy(want + n, "a\0b", 3);
        gov__text_append(&o, "a\0b", 3);
        n += 3;
    }
    assert_int_equal(o.err, 0);
    assert_int_equal(o.used, n);
    assert_true(o.cap > 60000 && o.cap <= 2 * 65536);
    assert_int_equal(gov__text_take(&o, &text, &len), 0);
    assert_int_equal(len, n);
    assert_memory_equal(text, want, n);
    assert_int_equal(text[n], '\0');
    assert_null(o.buf);
    free(text);

    /* Nothing written: still a text, "". */
    assert_int_equal(gov__text_take(&o, &text, &len), 0);
    assert_int_equal(len, 0);
    assert_string_equal(text, "");
    free(text);
    free(want);
}

/* Out of memory is sticky, and taking the text frees it. */
static void test_writer_out_of_memory(void **state)
{
    gov_text_buf o = gov__text_growable();
    char *text = NULL;

    (void)state;
    gov__text_put(&o, "kept");
    gov__text_append(&o, "never read", SIZE_MAX / 2);
    assert_int_equal(o.err, GOV_ENOMEM);
    gov__text_put(&o, "x");
    assert_int_equal(o.used, 4);
    assert_string_equal(o.buf, "kept");
    assert_int_equal(gov__text_take(&o, &text, NULL), GOV_ENOMEM);
    assert_null(text);
    assert_null(o.buf);
    assert_int_equal(o.err, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_prefix_and_words),
        cmocka_unit_test(test_decimal),
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_hex),
        cmocka_unit_test(test_name_number),
        cmocka_unit_test(test_printable),
        cmocka_unit_test(test_writer_fixed),
        cmocka_unit_test(test_writer_growable),
        cmocka_unit_test(test_writer_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
