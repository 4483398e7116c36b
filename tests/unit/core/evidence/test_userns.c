/* Whether this process's user namespace is the initial one, as the kernel
 * vouches for it (core/evidence/userns.c): both ways say yes here, and no
 * in a user namespace of the test's own, also when a mount there puts
 * another process's /proc/PID/ns, whose links name the initial namespace,
 * over /proc/self/ns (the procfs text a user controls there), and under a
 * second thread (setns would answer EINVAL to the threaded process itself). */
#define _GNU_SOURCE /* unshare, CLONE_*, mount */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evidence.h"
#include "skip_because.h"

static void test_initial_here(void **state)
{
    (void)state;
    /* The suite runs in the node's initial user namespace (a build
     * daemon's chroot and the Slurm roots are chroots, not namespaces). */
    assert_int_equal(gov__userns_initial_nsfs(), GOV_VOUCH_YES);
    assert_int_not_equal(gov__userns_initial_pidfd(), GOV_VOUCH_NO);
    assert_int_equal(gov__userns_initial(), GOV_VOUCH_YES);
}

static void *idle(void *arg)
{
    (void)arg;
    pause();
    return NULL;
}

/* A second thread: setns answers EINVAL to a threaded caller whatever the
 * namespace, so a check made in the process itself would say yes anywhere;
 * the child asks alone. */
static void test_threads(void **state)
{
    pthread_t t;

    (void)state;
    assert_int_equal(pthread_create(&t, NULL, idle, NULL), 0);
    assert_int_equal(gov__userns_initial_nsfs(), GOV_VOUCH_YES);
    pthread_cancel(t);
    pthread_join(t, NULL);
}

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return -1;
    n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* In a child: a user namespace mapping this uid to 0, a mount namespace
 * with it, and (forge) the parent's /proc/PID/ns bound over /proc/self/ns.
 * Exit status: the nsfs way's answer times 10 plus the pidfd way's; 99
 * when the namespace cannot be made, 98 or 97 when it or the forgery
 * cannot be set up. */
static int in_userns(bool forge)
{
    pid_t parent = getpid(), pid = fork();
    int status;

    if (pid == 0) {
        char map[64], ns[64];
        uid_t uid = getuid();
        gid_t gid = getgid();
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
            _exit(99);
        snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
        if (write_text("/proc/self/setgroups", "deny") ||
            write_text("/proc/self/uid_map", map))
            _exit(98);
        snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
        if (write_text("/proc/self/gid_map", map))
            _exit(98);
        if (forge) {
            snprintf(ns, sizeof ns, "/proc/%d/ns", (int)parent);
            if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
                mount(ns, "/proc/self/ns", NULL, MS_BIND, NULL))
                _exit(97);
        }
        _exit((int)gov__userns_initial_nsfs() * 10 + (int)gov__userns_initial_pidfd());
    }
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_user_namespace(void **state)
{
    int r;

    (void)state;
    r = in_userns(false);
    if (r == 99)
        SKIP_BECAUSE(GOV_FACT_NO_USERNS, "unshare(CLONE_NEWUSER) refused");
    assert_int_equal(r / 10, GOV_VOUCH_NO);
    /* The pidfd way where the kernel has it (6.11), else no answer. */
    assert_true(r % 10 == GOV_VOUCH_NO || r % 10 == GOV_VOUCH_UNKNOWN);
}

/* The parent's namespace directory over /proc/self/ns: its user link names
 * the initial namespace, which the kernel will not open from here (the
 * ptrace check) nor let this process join (setns): never "yes". */
static void test_forged_proc(void **state)
{
    int r;

    (void)state;
    r = in_userns(true);
    if (r == 99)
        SKIP_BECAUSE(GOV_FACT_NO_USERNS, "unshare(CLONE_NEWUSER) refused");
    assert_int_not_equal(r, 97);   /* the forgery was made */
    assert_int_not_equal(r / 10, GOV_VOUCH_YES);
    assert_true(r % 10 == GOV_VOUCH_NO || r % 10 == GOV_VOUCH_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_here),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_user_namespace),
        cmocka_unit_test(test_forged_proc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
