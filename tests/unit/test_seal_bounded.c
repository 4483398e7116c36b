/* Sealing with a deadline against a MUNGE socket that never answers (a
 * stopped daemon: the kernel accepts the connection into the backlog) and
 * one that refuses connections (a dead daemon's socket file), and the
 * node-wide log rate limit. */
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

/* A unix socket at path; listening (a stopped daemon) or only bound (nobody
 * listens: connections are refused). */
static int socket_at(const char *path, bool listening)
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

static void give_up_on(bool listening)
{
    char path[96], *cred = (char *)1;
    struct timespec t0;
    int sock, fds;

    snprintf(path, sizeof path, "%s/%s", dir, listening ? "stopped" : "dead");
    sock = socket_at(path, listening);
    fds = open_fds();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(gov_seal_bounded(path, 0, GOV_UID_NONE, "x", 1, 300, &cred, NULL),
                     GOV_ETIMEDOUT);
    /* libmunge alone waits 2.25 s (refused) or about 10 s (no answer). */
    assert_true(seconds_since(&t0) < 1.0);
    assert_null(cred);
    /* The cancelled request's socket is not left to the task. */
    assert_int_equal(open_fds(), fds);
    close(sock);
}

static void test_stopped_daemon(void **state)
{
    (void)state;
    give_up_on(true);
}

static void test_dead_socket(void **state)
{
    (void)state;
    give_up_on(false);
}

static void test_no_socket(void **state)
{
    char path[96], *cred = NULL;

    (void)state;
    snprintf(path, sizeof path, "%s/none", dir);
    assert_int_equal(gov_seal_bounded(path, 0, GOV_UID_NONE, "x", 1, 300, &cred, NULL), GOV_EMUNGE);
    assert_null(cred);
    assert_int_equal(gov_seal_bounded(NULL, 0, GOV_UID_NONE, "x", 1, 300, NULL, NULL), GOV_EINVAL);
}

/* Where a MUNGE daemon answers, the bounded seal is the seal. */
static void test_live_daemon(void **state)
{
    char *cred = NULL;
    int rc = gov_seal_bounded(NULL, 0, GOV_UID_NONE, "hello", 5, 2000, &cred, NULL);

    (void)state;
    if (rc == GOV_EMUNGE) {
        skip();
        return;
    }
    assert_int_equal(rc, 0);
    assert_non_null(cred);
    assert_int_equal(strncmp(cred, "MUNGE:", 6), 0);
    free(cred);
}

static void test_note_due(void **state)
{
    char victim[96], stamp[96];
    struct stat st;
    int fd;

    (void)state;
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_true(gov_note_due(fd, "munge", 60));
    assert_false(gov_note_due(fd, "munge", 60));
    assert_false(gov_note_due(fd, "munge", 60));
    assert_true(gov_note_due(fd, "munge", 0));
    assert_true(gov_note_due(fd, "other", 60));
    /* Tasks that fail together: one of them logs. */
    {
        int due = 0, status;
        for (int i = 0; i < 8; i++)
            if (fork() == 0)
                _exit(gov_note_due(fd, "together", 60) ? 1 : 0);
        for (int i = 0; i < 8; i++) {
            assert_true(wait(&status) > 0);
            due += WIFEXITED(status) && WEXITSTATUS(status) == 1;
        }
        assert_int_equal(due, 1);
    }
    /* No directory: no limit. */
    assert_true(gov_note_due(-1, "munge", 60));
    /* A link at the stamp's name is neither followed nor written through. */
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(stamp, sizeof stamp, "%s/linked.stamp", dir);
    assert_int_equal(symlink(victim, stamp), 0);
    assert_true(gov_note_due(fd, "linked", 60));
    assert_int_equal(lstat(victim, &st), -1);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopped_daemon),
        cmocka_unit_test(test_dead_socket),
        cmocka_unit_test(test_no_socket),
        cmocka_unit_test(test_live_daemon),
        cmocka_unit_test(test_note_due),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
