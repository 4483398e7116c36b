/* The MUNGE socket the seal cases use: GOV_TEST_MUNGE_SOCKET, a daemon of
 * their own that tests/unit/with_munged.sh starts; NULL (libmunge's default
 * socket) when it could not. */
#ifndef GOV_TEST_MUNGE_H
#define GOV_TEST_MUNGE_H

#include <stdlib.h>

static inline const char *test_munge_socket(void)
{
    const char *s = getenv("GOV_TEST_MUNGE_SOCKET");

    return s && *s ? s : NULL;
}

#endif
