/* userns.c - whether this process's user namespace is the node's initial
 * one, as the kernel vouches for it (evidence.h).
 *
 * Only there does a file's owner, or a socket's, say who it is: in a user
 * namespace a user made, their own uid may show as 0, and in the mount
 * namespace that comes with it they may put any file anywhere, /proc's
 * included (a bind mount over /proc/self/ns/user, or over /proc/self/ns
 * with another of their processes' directory, whose links name the initial
 * namespace).  So no path alone answers.  Two ways that do:
 *  - a pidfd of this process (pidfd_open, Linux 5.3) asked for its user
 *    namespace (PIDFD_GET_USER_NAMESPACE, Linux 6.11): no path at all;
 *  - before 6.11, /proc/self/ns/user opened and checked to be a user
 *    namespace's file on nsfs; when it names the initial namespace, asking
 *    the kernel to join it (setns) tells whether it is this process's own:
 *    EINVAL for the namespace one is in, EPERM for another one cannot
 *    enter, the initial one seen from inside a user namespace.  setns
 *    answers EINVAL as well to a process of several threads or a shared
 *    filesystem context, so the question is asked by a child made for it
 *    (clone: sharing the memory, not the threads or the fs context; the
 *    parent waits), which only asks and exits. */
#define _GNU_SOURCE /* clone, setns, CLONE_* */
#include "evidence.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

/* linux/pidfd.h of 6.11; older headers lack it. */
#ifndef PIDFD_GET_USER_NAMESPACE
#define PIDFD_GET_USER_NAMESPACE _IO(0xFF, 9)
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
/* PROC_USER_INIT_INO (linux/proc_ns.h), NSFS_MAGIC (linux/magic.h). */
#define INIT_USER_INO UINT64_C(0xEFFFFFFD)
#define NSFS_MAGIC_ 0x6e736673

/* fd names a user namespace on nsfs: whether it is the initial one. */
static gov_vouch initial_by_fd(int fd)
{
    struct statfs fs;
    struct stat st;

    if (fstatfs(fd, &fs) || fs.f_type != NSFS_MAGIC_ || fstat(fd, &st) ||
        ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWUSER)
        return GOV_VOUCH_UNKNOWN;
    return (uint64_t)st.st_ino == INIT_USER_INO ? GOV_VOUCH_YES : GOV_VOUCH_NO;
}

gov_vouch gov__userns_initial_pidfd(void)
{
    long pidfd = syscall(SYS_pidfd_open, getpid(), 0);
    int ns;
    gov_vouch v;

    if (pidfd < 0)
        return GOV_VOUCH_UNKNOWN;
    ns = ioctl((int)pidfd, PIDFD_GET_USER_NAMESPACE, 0);
    close((int)pidfd);
    if (ns < 0)
        return GOV_VOUCH_UNKNOWN;
    v = initial_by_fd(ns);
    close(ns);
    return v;
}

/* The child's whole life: ask to join the namespace, exit with the answer
 * (never 0: a setns that worked would mean root in the initial namespace,
 * where EINVAL answers too).  It shares the parent's memory, so it writes
 * nothing but its exit status. */
static int ask_setns(void *arg)
{
    long r = syscall(SYS_setns, *(int *)arg, CLONE_NEWUSER);

    syscall(SYS_exit, r == 0 ? 4 : errno == EINVAL ? 1 : errno == EPERM ? 2 : 3);
    return 3;
}

#define CHILD_STACK (64 * 1024)

gov_vouch gov__userns_initial_nsfs(void)
{
    int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC), status = 0;
    gov_vouch v;
    char *stack;
    pid_t pid;

    if (fd < 0)
        return GOV_VOUCH_UNKNOWN;
    v = initial_by_fd(fd);
    /* Another namespace named there, rightly or not: not shown to be the
     * initial one, which is all that counts. */
    if (v != GOV_VOUCH_YES) {
        close(fd);
        return v == GOV_VOUCH_NO ? GOV_VOUCH_NO : GOV_VOUCH_UNKNOWN;
    }
    stack = malloc(CHILD_STACK);
    if (!stack) {
        close(fd);
        return GOV_VOUCH_UNKNOWN;
    }
    pid = clone(ask_setns, stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &fd);
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    free(stack);
    close(fd);
    if (pid <= 0 || !WIFEXITED(status))
        return GOV_VOUCH_UNKNOWN;   /* a seccomp filter that kills, say */
    switch (WEXITSTATUS(status)) {
    case 1:
        return GOV_VOUCH_YES;
    case 2:
        return GOV_VOUCH_NO;       /* the initial namespace is not ours */
    default:
        return GOV_VOUCH_UNKNOWN;
    }
}

gov_vouch gov__userns_initial(void)
{
    gov_vouch v = gov__userns_initial_pidfd();

    return v != GOV_VOUCH_UNKNOWN ? v : gov__userns_initial_nsfs();
}
