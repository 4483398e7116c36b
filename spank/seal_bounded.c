/* seal_bounded.c - gov_seal_encode() with a deadline (seal.h).
 *
 * libmunge offers no timeout: against a daemon that accepts connections but
 * does not answer (stopped, hung, overloaded) each munge_encode waits 2 s
 * per attempt and makes 5, and against a socket nobody listens on it
 * retries the connection for 2.25 s.  Every governed task of a step would
 * wait that long.  So the call runs in a thread; at the deadline the thread
 * is cancelled (libmunge blocks only in poll, connect, nanosleep, read and
 * write, all cancellation points) and joined, so that no thread survives
 * into setuid and exec, and every descriptor it left open is closed so that
 * the task does not inherit it. */
#include "seal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct job {
    const char *socket;
    uint32_t ttl_s, uid;
    const void *payload;
    size_t len;
    char *cred;
    char why[GOV_SEAL_WHY_MAX];
    int rc;
    bool done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

static void *run(void *arg)
{
    struct job *j = arg;
    char *cred = NULL, why[GOV_SEAL_WHY_MAX] = "";
    int rc;

    rc = gov_seal_encode(j->socket, j->ttl_s, j->uid, j->payload, j->len, &cred, why);
    pthread_mutex_lock(&j->lock);
    memcpy(j->why, why, sizeof why);
    j->rc = rc;
    j->cred = cred;
    j->done = true;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

static void job_free(struct job *j)
{
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->cond);
    free(j);
}

/* The descriptors open before the request starts, so that afterwards
 * whatever the cancelled request opened, and only that, is closed, whatever
 * path its socket took (a symlink, /var/run/...). */
typedef struct fd_list {
    int *fd;
    size_t n, cap;
    bool failed;
} fd_list;

/* Calls fn on every open descriptor but the one that lists them. */
static int each_fd(void (*fn)(int fd, void *arg), void *arg)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;

    if (!d)
        return -1;
    while ((e = readdir(d))) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || fd == dirfd(d))
            continue;
        fn((int)fd, arg);
    }
    closedir(d);
    return 0;
}

static void remember_fd(int fd, void *arg)
{
    fd_list *l = arg;

    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        int *grown = realloc(l->fd, cap * sizeof *grown);
        if (!grown) {
            l->failed = true;
            return;
        }
        l->fd = grown;
        l->cap = cap;
    }
    l->fd[l->n++] = fd;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

static void close_if_new(int fd, void *arg)
{
    const fd_list *before = arg;

    if (fd > 2 && !bsearch(&fd, before->fd, before->n, sizeof *before->fd, cmp_int))
        close(fd);
}

int gov_seal_bounded(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                     size_t len, unsigned timeout_ms, char **cred, char *why)
{
    struct job *j;
    struct timespec deadline;
    pthread_condattr_t attr;
    pthread_t t;
    fd_list before = { NULL, 0, 0, false };
    int rc = 0;

    if (!cred)
        return GOV_EINVAL;
    *cred = NULL;
    j = calloc(1, sizeof *j);
    if (!j)
        return GOV_ENOMEM;
    j->socket = socket;
    j->ttl_s = ttl_s;
    j->uid = uid;
    j->payload = payload;
    j->len = len;
    pthread_mutex_init(&j->lock, NULL);
    /* The deadline on the monotonic clock: a clock step must not stretch
     * or cut it. */
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&j->cond, &attr);
    pthread_condattr_destroy(&attr);
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    /* Without the list of what was open, a cancelled request's socket
     * could not be told apart: do not start one. */
    if (each_fd(remember_fd, &before) || before.failed) {
        free(before.fd);
        job_free(j);
        return GOV_EIO;
    }
    qsort(before.fd, before.n, sizeof *before.fd, cmp_int);
    if (pthread_create(&t, NULL, run, j)) {
        free(before.fd);
        job_free(j);
        return GOV_ENOMEM;
    }
    pthread_mutex_lock(&j->lock);
    while (!j->done && rc == 0)
        rc = pthread_cond_timedwait(&j->cond, &j->lock, &deadline);
    pthread_mutex_unlock(&j->lock);
    /* The thread takes the lock only after libmunge returned, and nothing
     * after that is a cancellation point: a cancelled thread holds none. */
    if (!j->done)
        pthread_cancel(t);
    pthread_join(t, NULL);
    if (!j->done) {
        each_fd(close_if_new, &before);
        free(before.fd);
        job_free(j);
        return GOV_ETIMEDOUT;
    }
    free(before.fd);
    *cred = j->cred;
    rc = j->rc;
    if (why)
        memcpy(why, j->why, sizeof j->why);
    job_free(j);
    return rc;
}
