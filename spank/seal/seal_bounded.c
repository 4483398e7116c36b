/* seal_bounded.c - gov__seal_encode() with a deadline (seal_bounded.h).
 *
 * libmunge offers no timeout: against a daemon that accepts connections but
 * does not answer (stopped, hung, overloaded) each munge_encode waits 2 s
 * per attempt and makes 5, and against a socket nobody listens on it
 * retries the connection for 2.25 s.  A step's launch would wait that long.
 * So the request runs in a child process, which hands back the credential
 * (or MUNGE's words) through a pipe; at the deadline the child is killed.
 * The caller may start it and take its answer later (gov__seal_start,
 * gov__seal_finish), doing other work while munged answers.
 * A process, not a thread: the caller is slurmstepd, whose other threads
 * must not share a request cancelled half-way (its socket, its memory), and
 * whatever the child opened dies with it. */
#define _GNU_SOURCE /* pipe2 */
#include "seal_bounded.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the child writes: its result, then the credential (rc 0) or
 * MUNGE's words, len bytes. */
struct reply {
    int32_t rc;
    uint32_t len;
};

static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static void child(int fd, const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                  size_t len)
{
    char *cred = NULL, why[GOV_SEAL_WHY_MAX] = "";
    struct reply r;
    const char *text;

    r.rc = gov__seal_encode(socket, ttl_s, uid, payload, len, &cred, why);
    text = r.rc == 0 ? cred : why;
    r.len = (uint32_t)strlen(text);
    write_all(fd, &r, sizeof r);
    write_all(fd, text, r.len);
    _exit(0);
}

static int64_t now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Everything the child writes until it closes the pipe, or until the
 * deadline (GOV_ETIMEDOUT).  *out is malloc'd, NUL-terminated. */
static int read_reply(int fd, int64_t deadline, char **out, size_t *n)
{
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap + 1);

    if (!buf)
        return GOV_ENOMEM;
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int64_t left = deadline - now_ms();
        ssize_t r;
        int rc;

        if (left <= 0) {
            free(buf);
            return GOV_ETIMEDOUT;
        }
        rc = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            continue;  /* the deadline is checked above */
        if (used == cap) {
            char *bigger = cap < 65536 ? realloc(buf, 2 * cap + 1) : NULL;
            if (!bigger) {
                free(buf);
                return GOV_ENOSPC;
            }
            buf = bigger;
            cap *= 2;
        }
        r = read(fd, buf + used, cap - used);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        used += (size_t)r;
    }
    buf[used] = '\0';
    *out = buf;
    *n = used;
    return 0;
}

int gov__seal_start(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                   size_t len, unsigned timeout_ms, gov_seal_job *job)
{
    int p[2], rc;

    job->pid = -1;
    job->fd = -1;
    job->deadline_ms = now_ms() + timeout_ms;
    if (pipe2(p, O_CLOEXEC))
        return -errno;
    job->pid = fork();
    if (job->pid < 0) {
        rc = -errno;
        close(p[0]);
        close(p[1]);
        return rc;
    }
    if (job->pid == 0) {
        close(p[0]);
        child(p[1], socket, ttl_s, uid, payload, len);
    }
    close(p[1]);
    job->fd = p[0];
    return 0;
}

/* The child killed where it has not answered, and reaped (slurmstepd may
 * have reaped it first: ECHILD). */
static void reap(gov_seal_job *job, bool kill_it)
{
    int status;

    if (job->fd >= 0)
        close(job->fd);
    job->fd = -1;
    if (job->pid <= 0)
        return;
    if (kill_it)
        kill(job->pid, SIGKILL);
    while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR)
        ;
    job->pid = -1;
}

int gov__seal_finish(gov_seal_job *job, char **cred, char *why)
{
    struct reply r;
    char *buf = NULL;
    size_t n = 0;
    int rc;

    *cred = NULL;
    if (job->fd < 0)
        return GOV_EINVAL;
    rc = read_reply(job->fd, job->deadline_ms, &buf, &n);
    reap(job, rc != 0);
    if (rc)
        return rc;
    if (n < sizeof r) {
        free(buf);
        return GOV_EMUNGE;   /* the child died before it could answer */
    }
    memcpy(&r, buf, sizeof r);
    if (r.len != n - sizeof r) {
        free(buf);
        return GOV_EMUNGE;
    }
    if (r.rc == 0) {
        memmove(buf, buf + sizeof r, r.len + 1);
        *cred = buf;
        return 0;
    }
    if (why) {
        size_t k = r.len < GOV_SEAL_WHY_MAX - 1 ? r.len : GOV_SEAL_WHY_MAX - 1;
        memcpy(why, buf + sizeof r, k);
        why[k] = '\0';
    }
    free(buf);
    return r.rc;
}

void gov__seal_abandon(gov_seal_job *job)
{
    reap(job, true);
}

int gov__seal_bounded(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                      size_t len, unsigned timeout_ms, char **cred, char *why)
{
    gov_seal_job job;
    int rc;

    if (!cred)
        return GOV_EINVAL;
    *cred = NULL;
    rc = gov__seal_start(socket, ttl_s, uid, payload, len, timeout_ms, &job);
    return rc ? rc : gov__seal_finish(&job, cred, why);
}
