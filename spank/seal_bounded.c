/* seal_bounded.c - gov__seal_encode() with a deadline (seal.h).
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

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

    rc = gov__seal_encode(j->socket, j->ttl_s, j->uid, j->payload, j->len, &cred, why);
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

/* The first descriptor numbers free before the request starts.  The
 * kernel gives every new descriptor the lowest free number and, in a
 * process with no other thread, only the request opens any meanwhile; so
 * whatever a cancelled request left open is among these, whatever path its
 * socket took (a symlink, /var/run/...), and nothing else is.  fcntl()
 * probes them without listing /proc/self/fd: in each task child of a
 * 64-task step, listing slurmstepd's hundreds of inherited descriptors
 * cost about 1.5 ms (dentries made, then flushed at exec). */
#define FREE_SLOTS 16

static bool is_open(int fd)
{
    return fcntl(fd, F_GETFD) >= 0 || errno != EBADF;
}

static size_t free_slots(int *slot)
{
    struct rlimit lim;
    rlim_t max = getrlimit(RLIMIT_NOFILE, &lim) == 0 ? lim.rlim_cur : 1024;
    size_t n = 0;

    for (rlim_t fd = 0; fd < max && fd <= INT_MAX && n < FREE_SLOTS; fd++)
        if (!is_open((int)fd))
            slot[n++] = (int)fd;
    return n;
}

int gov__seal_bounded(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                      size_t len, unsigned timeout_ms, char **cred, char *why)
{
    struct job *j;
    struct timespec deadline;
    pthread_condattr_t attr;
    pthread_t t;
    int slot[FREE_SLOTS];
    size_t nslots;
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
    nslots = free_slots(slot);
    if (pthread_create(&t, NULL, run, j)) {
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
        for (size_t i = 0; i < nslots; i++)
            if (is_open(slot[i]))
                close(slot[i]);
        job_free(j);
        return GOV_ETIMEDOUT;
    }
    *cred = j->cred;
    rc = j->rc;
    if (why)
        memcpy(why, j->why, sizeof j->why);
    job_free(j);
    return rc;
}
