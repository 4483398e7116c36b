/* The MUNGE socket the seal cases use: GOV_TEST_MUNGE_SOCKET, a daemon of
 * their own that tests/unit/with_munged.sh starts; NULL (libmunge's default
 * socket) when it could not.  Include after <cmocka.h> and skip_because.h. */
#ifndef GOV_TEST_MUNGE_H
#define GOV_TEST_MUNGE_H

#include <stdlib.h>

static inline const char *test_munge_socket(void)
{
    const char *s = getenv("GOV_TEST_MUNGE_SOCKET");

    return s && *s ? s : NULL;
}

/* A seal failed (rc, why: MUNGE's words).  On the test's own socket the
 * test fails here: that daemon is there however loaded the machine, and
 * one slow to answer must never pass for one that is missing.  On MUNGE's
 * default socket, where no daemon may run, the caller skips. */
static inline void test_munge_fail_on_own(int rc, const char *why)
{
    if (test_munge_socket())
        fail_msg("the test's munged did not seal (%d): %s", rc, why);
}

/* The same in a test function (void): fails, or ends it as skipped. */
#define TEST_MUNGE_SKIP_UNLESS_OWN(rc, why)                                            \
    do {                                                                               \
        test_munge_fail_on_own((rc), (why));                                           \
        SKIP_BECAUSE(GOV_FACT_NO_MUNGED, "nothing to seal with");                      \
    } while (0)

#endif
