/* Pressure triggers: systemd's variables (core/evidence/pressure_protocol.c) and
 * the library's use of them (runtime/admission/admission_triggers.c).  A
 * regular file stands in for a PSI file here: it takes the trigger's
 * write and never polls POLLPRI; the firing itself is tested in a real
 * step (tests/slurm/cases/pressure_triggers.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "governor.h"
#include "evidence.h"

static void test_encode(void **state)
{
    char b64[GOV_PRESSURE_WRITE_MAX], out[GOV_PRESSURE_TRIGGER_MAX];
    size_t len;

    /* systemd's default, as it writes it. */
    assert_int_equal(gov__pressure_write_encode(200000, GOV_PRESSURE_WINDOW_US, b64, sizeof b64), 0);
    assert_string_equal(b64, "c29tZSAyMDAwMDAgMjAwMDAwMA==");
    assert_int_equal(gov__pressure_write_decode(b64, out, sizeof out, &len), 0);
    assert_string_equal(out, "some 200000 2000000");
    assert_int_equal(len, 19);
    assert_int_equal(gov__pressure_write_encode(1, 2, b64, sizeof b64), 0);
    assert_int_equal(gov__pressure_write_decode(b64, out, sizeof out, &len), 0);
    assert_string_equal(out, "some 1 2");

    assert_int_equal(gov__pressure_write_encode(0, 2000000, b64, sizeof b64), GOV_EINVAL);
    assert_int_equal(gov__pressure_write_encode(2000000, 2000000, b64, sizeof b64), GOV_EINVAL);
    assert_int_equal(gov__pressure_write_encode(200000, 2000000, b64, 28), GOV_ENOSPC);
    assert_int_equal(gov__pressure_write_encode(200000, 2000000, b64, 29), 0);
}

static void test_decode(void **state)
{
    static const char *const good[] = {
        "ZnVsbCAxMDAwMDAgMjAwMDAwMAo",   /* "full 100000 2000000\n", unpadded */
        "c29tZSAxIDI=",                   /* "some 1 2" */
    };
    static const char *const bad[] = {
        "", "=", "====", "c29tZSAxIDI===", "c29tZSAxIDI*", "c29tZSAx",   /* "some 1" */
        "c29tZSAxIDIgMw==",               /* "some 1 2 3" */
        "aGVsbG8=",                       /* "hello" */
        "c29tZSAgMSAy",                   /* "some  1 2" */
        "Zg==Zg==",
    };
    char out[GOV_PRESSURE_TRIGGER_MAX];
    size_t len;

    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(gov__pressure_write_decode(good[i], out, sizeof out, &len), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(gov__pressure_write_decode(bad[i], out, sizeof out, &len), 0);
    assert_int_equal(gov__pressure_write_decode("c29tZSAxIDI=", out, 4, &len), GOV_ENOSPC);
    assert_int_equal(gov__pressure_write_decode(NULL, out, sizeof out, &len), GOV_EPARSE);
}

static void clear_env(void)
{
    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++) {
        unsetenv(gov__pressure_kinds[k].watch_var);
        unsetenv(gov__pressure_kinds[k].write_var);
    }
}

static void test_none(void **state)
{
    gov_pressure_triggers *t = NULL;
    unsigned fired = 7;

    clear_env();
    assert_int_equal(gov_pressure_triggers_open(&t), 0);
    assert_non_null(t);
    assert_int_equal(gov_pressure_triggers_kinds(t), 0);
    assert_int_equal(gov_pressure_triggers_wait(t, 1, &fired), GOV_ETIMEDOUT);
    assert_int_equal(fired, 0);
    gov_pressure_triggers_close(t);
    /* systemd's "none": /dev/null, and an empty value. */
    setenv("MEMORY_PRESSURE_WATCH", "/dev/null", 1);
    setenv("CPU_PRESSURE_WATCH", "", 1);
    assert_int_equal(gov_pressure_triggers_open(&t), 0);
    assert_int_equal(gov_pressure_triggers_kinds(t), 0);
    gov_pressure_triggers_close(t);
    assert_int_equal(gov_pressure_triggers_open(NULL), GOV_EINVAL);
    assert_int_equal(gov_pressure_triggers_kinds(NULL), 0);
    assert_int_equal(gov_pressure_triggers_wait(NULL, 1, &fired), GOV_EINVAL);
    gov_pressure_triggers_close(NULL);
    clear_env();
}

/* A regular file takes the trigger's text as one write. */
static void test_written(void **state)
{
    char path[] = "/tmp/gov-trigger-XXXXXX", text[64] = { 0 };
    int fd = mkstemp(path);
    gov_pressure_triggers *t = NULL;
    gov_governor *gov = NULL;
    gov_pressure_state ps;
    unsigned fired = 7;
    FILE *f;

    assert_true(fd >= 0);
    close(fd);
    clear_env();
    setenv("IO_PRESSURE_WATCH", path, 1);
    setenv("IO_PRESSURE_WRITE", "c29tZSAyMDAwMDAgMjAwMDAwMA==", 1);
    assert_int_equal(gov_pressure_triggers_open(&t), 0);
    assert_int_equal(gov_pressure_triggers_kinds(t), GOV_TRIGGER_IO);
    assert_int_equal(gov_pressure_triggers_wait(t, 20, &fired), GOV_ETIMEDOUT);
    assert_int_equal(fired, 0);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "some 200000 2000000");

    /* A governor follows them once; destroying it stops its thread. */
    assert_int_equal(gov_governor_create(NULL, &gov), 0);
    assert_int_equal(gov_governor_follow_triggers(gov, t), 0);
    assert_int_equal(gov_governor_follow_triggers(gov, t), GOV_EALREADY);
    assert_int_equal(gov_governor_wait_for_change(gov, gov_governor_generation(gov), 20, NULL),
                     GOV_ETIMEDOUT);
    assert_int_equal(gov_governor_pressure(gov, NULL, &ps), 0);
    assert_int_equal(ps.triggers_fired, 0);
    gov_governor_destroy(gov);
    gov_pressure_triggers_close(t);
    unlink(path);
    clear_env();
}

static void test_refused(void **state)
{
    gov_pressure_triggers *t = NULL, *none = NULL;
    gov_governor *gov = NULL;

    clear_env();
    setenv("MEMORY_PRESSURE_WATCH", "/nonexistent/memory.pressure", 1);
    assert_int_equal(gov_pressure_triggers_open(&t), GOV_EPARSE);   /* no WRITE */
    setenv("MEMORY_PRESSURE_WRITE", "aGVsbG8=", 1);
    assert_int_equal(gov_pressure_triggers_open(&t), GOV_EPARSE);   /* not a trigger */
    setenv("MEMORY_PRESSURE_WRITE", "c29tZSAyMDAwMDAgMjAwMDAwMA==", 1);
    assert_int_equal(gov_pressure_triggers_open(&t), GOV_ENOENT);
    assert_null(t);
    clear_env();

    assert_int_equal(gov_pressure_triggers_open(&none), 0);
    assert_int_equal(gov_governor_create(NULL, &gov), 0);
    assert_int_equal(gov_governor_follow_triggers(gov, none), GOV_EINVAL);
    assert_int_equal(gov_governor_follow_triggers(gov, NULL), GOV_EINVAL);
    assert_int_equal(gov_governor_follow_triggers(NULL, none), GOV_EINVAL);
    gov_governor_destroy(gov);
    gov_pressure_triggers_close(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_written),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
