/* The --governor MODE parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "parse.h"

static void test_defaults(void **state)
{
    const char *same[] = { NULL, "", "(null)" };
    gov_mode m;

    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        memset(&m, 0xff, sizeof m);
        assert_int_equal(gov__mode_parse(same[i], &m), 0);
        assert_true(m.given);
        assert_false(m.off);
        assert_false(m.threads);
        assert_false(m.profile_set);
        assert_int_equal(m.profile, GOV_PROFILE_BATCH);
    }
}

static void test_lists(void **state)
{
    gov_mode m;

    assert_int_equal(gov__mode_parse("interactive", &m), 0);
    assert_true(m.profile_set);
    assert_int_equal(m.profile, GOV_PROFILE_INTERACTIVE);
    assert_false(m.threads);
    assert_int_equal(gov__mode_parse("threads,batch", &m), 0);
    assert_true(m.threads);
    assert_int_equal(m.profile, GOV_PROFILE_BATCH);
    assert_int_equal(gov__mode_parse("interactive,threads,interactive", &m), 0);
    assert_int_equal(gov__mode_parse("off", &m), 0);
    assert_true(m.off);
    assert_true(m.given);
    assert_int_equal(gov__mode_parse("interactive,runtimes", &m), 0);
    assert_true(m.runtimes);
    assert_false(m.noruntimes);
    assert_int_equal(gov__mode_parse("noruntimes,threads", &m), 0);
    assert_true(m.noruntimes);
    assert_true(m.threads);
    assert_false(m.pressure);
    assert_int_equal(gov__mode_parse("interactive,pressure", &m), 0);
    assert_true(m.pressure);
    assert_int_equal(m.profile, GOV_PROFILE_INTERACTIVE);
}

static void test_bad(void **state)
{
    const char *bad[] = {
        "on", "Batch", "batch,", ",batch", "batch,,threads", "batch interactive",
        "batch,interactive", "off,threads", "off,batch", " batch", "threads=2", ",",
        "nul\001l", "runtimes,noruntimes", "off,runtimes", "off,noruntimes", "runtime",
        "off,pressure", "pressure=on", "Pressure",
    };
    gov_mode m = { .given = true, .threads = true };

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gov__mode_parse(bad[i], &m), GOV_EPARSE);
        /* A refused value leaves the previous one in place. */
        assert_true(m.threads);
    }
    assert_int_equal(gov__mode_parse("x", NULL), GOV_EINVAL);
}

/* "srun --governor runtimes true": the word srun takes as the program. */
static void test_mode_word(void **state)
{
    (void)state;
    assert_true(gov__mode_word("runtimes"));
    assert_true(gov__mode_word("interactive"));
    assert_true(gov__mode_word("off"));
    assert_false(gov__mode_word("runtimes,threads"));
    assert_false(gov__mode_word("python3"));
    assert_false(gov__mode_word(""));
    assert_false(gov__mode_word("(null)"));
    assert_false(gov__mode_word(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_mode_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
