/* unix_socket.h - a unix socket at a path, for the tests of what the plugin
 * does with MUNGE's socket.  Include after <cmocka.h>. */
#ifndef GOV_TEST_UNIX_SOCKET_H
#define GOV_TEST_UNIX_SOCKET_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>

/* Bound at path; listening (a stopped daemon) or only bound (nobody
 * listens: connections are refused).  Returns its descriptor. */
static inline int socket_at(const char *path, bool listening)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    assert_true(fd >= 0);
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    if (listening)
        assert_int_equal(listen(fd, 16), 0);
    return fd;
}

#endif
