/* probe_child.c - one runtime probe as a child process (probe_child.h).
 * The child gets a process group of its own so that a runtime's helpers
 * (a JVM's, a Python pool's) go with it at the deadline. */
#define _GNU_SOURCE
#include "probe_child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static bool executable(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool gov__probe_child_found(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];

    if (strchr(name, '/'))
        return executable(name);
    if (!path || !*path)
        path = "/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && (size_t)snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name) < sizeof buf &&
            executable(buf))
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

static void child(char *const argv[], int out)
{
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);

    setpgid(0, 0);
    if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(127);
    signal(SIGPIPE, SIG_DFL);
    execvp(argv[0], argv);
    _exit(errno == ENOENT ? 127 : 126);
}

/* Read until end of file or the deadline; true at end of file. */
static bool collect(int fd, uint64_t deadline, gov_probe_output *out)
{
    char sink[4096];

    for (;;) {
        uint64_t t = now_ms();
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (t >= deadline)
            return false;
        int r = poll(&p, 1, (int)(deadline - t));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        size_t room = sizeof out->text - 1 - out->len;
        ssize_t n = room ? read(fd, out->text + out->len, room) : read(fd, sink, sizeof sink);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return true;
        if (room)
            out->len += (size_t)n;
    }
}

int gov__probe_child_run(char *const argv[], unsigned timeout_ms, gov_probe_output *out)
{
    uint64_t start = now_ms();
    int fds[2], st = 0;
    pid_t pid;

    out->len = 0;
    out->text[0] = '\0';
    out->status = -1;
    out->timed_out = false;
    out->ms = 0;
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -errno;
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return -e;
    }
    if (pid == 0)
        child(argv, fds[1]);
    close(fds[1]);
    /* Set here too: the group must exist before a kill at the deadline. */
    setpgid(pid, pid);
    bool ended = collect(fds[0], start + timeout_ms, out);
    close(fds[0]);
    out->text[out->len] = '\0';
    /* Its output ended: it has what is left of the time to exit.  WNOWAIT
     * keeps the pid (and so the group id) from being reused until the
     * group is killed below. */
    siginfo_t si = { 0 };
    while (ended && now_ms() < start + timeout_ms &&
           (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 || errno == EINTR) &&
           si.si_pid == 0)
        nanosleep(&(struct timespec){ .tv_nsec = 5000000 }, NULL);
    /* A helper holding the output open past the deadline is no probe's
     * timeout when the probe itself has ended. */
    if (si.si_pid == 0)
        waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
    out->timed_out = si.si_pid == 0;
    /* At the deadline, or helpers left behind by a probe that ended. */
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    out->ms = now_ms() - start;
    out->status = out->timed_out ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return 0;
}
