/* Sealing with a deadline against a MUNGE socket that never answers (a
 * stopped daemon: the kernel accepts the connection into the backlog) and
 * one that refuses connections (a dead daemon's socket file), also when
 * the path is a link to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "seal.h"
#include "skip_because.h"
#include "test_munge.h"
#include "unix_socket.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gov-seal-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    char cmd[96];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;

    assert_non_null(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* via_link: the socket named through a symbolic link, as a site's
 * munge_socket= may (/var/run/... on a system where /var/run is /run):
 * the socket's peer name is then not the path that was given. */
static void give_up_on(bool listening, bool via_link)
{
    char path[96], link[96], *cred = (char *)1;
    struct timespec t0;
    int sock, fds;

    snprintf(path, sizeof path, "%s/%s", dir, listening ? "stopped" : "dead");
    snprintf(link, sizeof link, "%s/link-to-%s", dir, listening ? "stopped" : "dead");
    sock = socket_at(path, listening);
    if (via_link)
        assert_int_equal(symlink(path, link), 0);
    fds = open_fds();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(gov__seal_bounded(via_link ? link : path, 0, GOV_UID_NONE, "x", 1, 300,
                                       &cred, NULL),
                     GOV_ETIMEDOUT);
    /* libmunge alone waits 2.25 s (refused) or about 10 s (no answer). */
    assert_true(seconds_since(&t0) < 1.0);
    assert_null(cred);
    /* The cancelled request's socket is not left to the task. */
    assert_int_equal(open_fds(), fds);
    close(sock);
    unlink(path);
    if (via_link)
        unlink(link);
}

static void test_stopped_daemon(void **state)
{
    (void)state;
    give_up_on(true, false);
    give_up_on(true, true);
}

static void test_dead_socket(void **state)
{
    (void)state;
    give_up_on(false, false);
    give_up_on(false, true);
}

static void test_no_socket(void **state)
{
    char path[96], *cred = NULL;

    (void)state;
    snprintf(path, sizeof path, "%s/none", dir);
    assert_int_equal(gov__seal_bounded(path, 0, GOV_UID_NONE, "x", 1, 300, &cred, NULL),
                     GOV_EMUNGE);
    assert_null(cred);
    assert_int_equal(gov__seal_bounded(NULL, 0, GOV_UID_NONE, "x", 1, 300, NULL, NULL), GOV_EINVAL);
}

/* Where a MUNGE daemon answers, the bounded seal is the seal. */
static void test_live_daemon(void **state)
{
    char *cred = NULL;
    int rc = gov__seal_bounded(test_munge_socket(), 0, GOV_UID_NONE, "hello", 5, 2000, &cred, NULL);

    (void)state;
    if (rc == GOV_EMUNGE)
        SKIP_BECAUSE(GOV_FACT_NO_MUNGED, "nothing to seal with");
    assert_int_equal(rc, 0);
    assert_non_null(cred);
    assert_int_equal(strncmp(cred, "MUNGE:", 6), 0);
    free(cred);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopped_daemon),
        cmocka_unit_test(test_dead_socket),
        cmocka_unit_test(test_no_socket),
        cmocka_unit_test(test_live_daemon),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
