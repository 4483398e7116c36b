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

#include "seal_bounded.h"
#include "skip_because.h"
#include "test_munge.h"
#include "unix_socket.h"

/* A deadline for calls that must end by libmunge's answer, not by it: far
 * beyond a loaded machine's delays, and beyond libmunge's own 10 s. */
#define LIVE_DEADLINE_MS 30000

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

/* Entries of a /proc/self directory: descriptors (fd) or threads (task). */
static int entries(const char *what)
{
    char path[32];
    DIR *d;
    int n = 0;

    snprintf(path, sizeof path, "/proc/self/%s", what);
    d = opendir(path);
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

/* Whether this process is back to n threads within `by` s of t0: the
 * kernel drops a thread from /proc a moment after pthread_join() saw it
 * end. */
static bool threads_back_to(int n, const struct timespec *t0, double by)
{
    const struct timespec ms = { 0, 1000000L };

    while (entries("task") != n) {
        if (seconds_since(t0) >= by)
            return false;
        nanosleep(&ms, NULL);
    }
    return true;
}

/* via_link: the socket named through a symbolic link, as a site's
 * munge_socket= may (/var/run/... on a system where /var/run is /run):
 * the socket's peer name is then not the path that was given.
 *
 * libmunge alone gives up with GOV_EMUNGE: after 2.25 s when the connection
 * is refused, about 10 s when the daemon does not answer.  GOV_ETIMEDOUT
 * says that the 300 ms deadline ended the request first, however late a
 * loaded machine ran this thread after it.  Only the silent daemon's wait
 * leaves room for bounds in time as well, SILENT_BOUND_S: a call that gave
 * up at its deadline returns within it with seconds to spare, one that
 * waited for libmunge cannot, and a request thread left running would
 * still be in libmunge's wait. */
#define SILENT_BOUND_S 8.0

static void give_up_on(bool listening, bool via_link)
{
    char path[96], link[96], *cred = (char *)1;
    struct timespec t0;
    int sock, fds, threads;

    snprintf(path, sizeof path, "%s/%s", dir, listening ? "stopped" : "dead");
    snprintf(link, sizeof link, "%s/link-to-%s", dir, listening ? "stopped" : "dead");
    sock = socket_at(path, listening);
    if (via_link)
        assert_int_equal(symlink(path, link), 0);
    fds = entries("fd");
    threads = entries("task");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(gov__seal_bounded(via_link ? link : path, 0, GOV_UID_NONE, "x", 1, 300,
                                       &cred, NULL),
                     GOV_ETIMEDOUT);
    if (listening)
        assert_true(seconds_since(&t0) < SILENT_BOUND_S);
    assert_null(cred);
    /* The cancelled request's socket is not left to the caller, nor a
     * thread or a child process of it. */
    assert_int_equal(entries("fd"), fds);
    assert_true(threads_back_to(threads, &t0, SILENT_BOUND_S));
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
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

/* No socket at all: libmunge says so at once, and that answer, not the
 * deadline (long, so that a slow start of the request cannot reach it),
 * is what the call returns. */
static void test_no_socket(void **state)
{
    char path[96], *cred = NULL;

    (void)state;
    snprintf(path, sizeof path, "%s/none", dir);
    assert_int_equal(gov__seal_bounded(path, 0, GOV_UID_NONE, "x", 1, LIVE_DEADLINE_MS, &cred,
                                       NULL),
                     GOV_EMUNGE);
    assert_null(cred);
    assert_int_equal(gov__seal_bounded(NULL, 0, GOV_UID_NONE, "x", 1, 300, NULL, NULL), GOV_EINVAL);
}

/* Where a MUNGE daemon answers, the bounded seal is the seal. */
static void test_live_daemon(void **state)
{
    char *cred = NULL, why[GOV_SEAL_WHY_MAX] = "";
    int rc = gov__seal_bounded(test_munge_socket(), 0, GOV_UID_NONE, "hello", 5, LIVE_DEADLINE_MS,
                               &cred, why);

    (void)state;
    if (rc == GOV_EMUNGE)
        TEST_MUNGE_SKIP_UNLESS_OWN(rc, why);
    assert_int_equal(rc, 0);
    assert_non_null(cred);
    assert_int_equal(strncmp(cred, "MUNGE:", 6), 0);
    free(cred);
}

/* In two halves (the plugin starts the seal in init_post_opt and takes it
 * in user_init): the deadline runs from the start, whatever the caller did
 * meanwhile; a seal not wanted leaves no child and no descriptor behind. */
static void test_halves(void **state)
{
    char path[96], *cred = (char *)1;
    gov_seal_job job;
    int sock, fds = entries("fd");

    (void)state;
    snprintf(path, sizeof path, "%s/halves", dir);
    sock = socket_at(path, true);
    assert_int_equal(gov__seal_start(path, 0, GOV_UID_NONE, "x", 1, 300, &job), 0);
    assert_true(job.pid > 0 && job.fd >= 0);
    usleep(400 * 1000);   /* past the deadline before the answer is asked */
    assert_int_equal(gov__seal_finish(&job, &cred, NULL), GOV_ETIMEDOUT);
    assert_null(cred);
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(gov__seal_start(path, 0, GOV_UID_NONE, "x", 1, LIVE_DEADLINE_MS, &job), 0);
    gov__seal_abandon(&job);
    assert_int_equal(job.pid, -1);
    assert_int_equal(job.fd, -1);
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(entries("fd"), fds + 1);   /* the listening socket alone */
    close(sock);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopped_daemon),
        cmocka_unit_test(test_dead_socket),
        cmocka_unit_test(test_no_socket),
        cmocka_unit_test(test_live_daemon),
        cmocka_unit_test(test_halves),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
