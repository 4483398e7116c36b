/* Every error code has a distinct name and text; unknown codes are named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "governor.h"

static void test_known_codes(void **state)
{
    const int codes[] = { GOV_EINVAL, GOV_ENOMEM, GOV_ENOENT, GOV_EACCES, GOV_EIO,
                          GOV_ERANGE, GOV_ENOSPC, GOV_ETIMEDOUT, GOV_EALREADY,
                          GOV_ENOTSUP, GOV_EOVERFLOW, GOV_EPARSE, GOV_ESEAL,
                          GOV_EUNTRUSTED, GOV_EBINDING, GOV_EVERSION, GOV_EMUNGE,
                          GOV_ENAMESPACE, GOV_ENODE, GOV_EUNREACHABLE };
    size_t n = sizeof codes / sizeof codes[0];

    for (size_t i = 0; i < n; i++) {
        assert_string_not_equal(gov_err_name(codes[i]), "UNKNOWN");
        assert_string_not_equal(gov_strerror(codes[i]), "unknown error");
        for (size_t j = i + 1; j < n; j++)
            assert_string_not_equal(gov_err_name(codes[i]), gov_err_name(codes[j]));
    }
    assert_string_equal(gov_err_name(0), "OK");
}

/* gov_err_codes() is GOV_ERRNO_MAP: every code, once, each named. */
static void test_code_list(void **state)
{
    size_t n = 0;
    const int *codes = gov_err_codes(&n);

    assert_int_equal(n, 22);
    assert_int_equal(codes[0], GOV_EINVAL);
    assert_int_equal(codes[n - 1], GOV_EUNVOUCHED);
    for (size_t i = 0; i < n; i++) {
        assert_true(codes[i] < 0);
        assert_string_not_equal(gov_err_name(codes[i]), "UNKNOWN");
        for (size_t j = i + 1; j < n; j++)
            assert_int_not_equal(codes[i], codes[j]);
    }
    assert_non_null(gov_err_codes(NULL));
}

/* The library that runs is the one this header describes (and meson's). */
static void test_version(void **state)
{
    assert_int_equal(gov_version(), GOV_VERSION_HEX);
    assert_string_equal(gov_version_string(), GOV_PROJECT_VERSION);
}

static void test_unknown_code(void **state)
{
    assert_string_equal(gov_err_name(-123456), "UNKNOWN");
    assert_string_equal(gov_strerror(42), "unknown error");
}

/* A system error the list does not name still has its own name and text:
 * the readers pass on what open() said (issue 27, item 3). */
static void test_system_errors(void **state)
{
    static const int escaping[] = { -EPERM, -ELOOP, -ENOTDIR, -EISDIR, -EBUSY, -EAGAIN };

    for (size_t i = 0; i < sizeof escaping / sizeof escaping[0]; i++) {
        assert_string_not_equal(gov_strerror(escaping[i]), "unknown error");
        assert_string_not_equal(gov_err_name(escaping[i]), "UNKNOWN");
    }
#ifdef GOV_HAVE_STRERRORDESC_NP
    assert_string_equal(gov_err_name(-ELOOP), "ELOOP");
    assert_string_equal(gov_strerror(-EPERM), "Operation not permitted");
#endif
    /* The list's own text wins over the C library's. */
    assert_string_equal(gov_strerror(GOV_ENOSPC), "buffer too small");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_codes),
        cmocka_unit_test(test_unknown_code),
        cmocka_unit_test(test_system_errors),
        cmocka_unit_test(test_code_list),
        cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
