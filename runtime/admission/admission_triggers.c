/* admission_triggers.c - the pressure triggers a process is handed
 * (systemd's protocol, core/evidence/evidence.h): open each PSI file
 * read-write, write its trigger, and poll for POLLPRI. */
#include "admission/admission.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct gov_pressure_triggers {
    int fd[GOV_PRESSURE_KINDS];      /* -1: no trigger for that kind */
};

static int open_one(const gov_pressure_kind *k, int *fd)
{
    const char *watch = getenv(k->watch_var), *write_b64 = getenv(k->write_var);
    char trigger[GOV_PRESSURE_TRIGGER_MAX];
    size_t len;
    int rc;

    *fd = -1;
    if (!watch || !*watch || !strcmp(watch, "/dev/null"))
        return 0;
    if (!write_b64)
        return GOV_EPARSE;
    rc = gov__pressure_write_decode(write_b64, trigger, sizeof trigger, &len);
    if (rc)
        return rc == GOV_ENOSPC ? GOV_EPARSE : rc;
    *fd = open(watch, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return -errno;
    /* The kernel takes the trigger whole, in one write. */
    if (write(*fd, trigger, len) != (ssize_t)len) {
        rc = errno ? -errno : GOV_EIO;
        close(*fd);
        *fd = -1;
        return rc;
    }
    return 0;
}

int gov_pressure_triggers_open(gov_pressure_triggers **out)
{
    gov_pressure_triggers *t;
    int rc = 0;

    if (!out)
        return GOV_EINVAL;
    *out = NULL;
    t = malloc(sizeof *t);
    if (!t)
        return GOV_ENOMEM;
    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++)
        t->fd[k] = -1;
    for (size_t k = 0; k < GOV_PRESSURE_KINDS && !rc; k++) {
        errno = 0;
        rc = open_one(&gov__pressure_kinds[k], &t->fd[k]);
    }
    if (rc) {
        gov_pressure_triggers_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

unsigned gov_pressure_triggers_kinds(const gov_pressure_triggers *t)
{
    unsigned bits = 0;

    for (size_t k = 0; t && k < GOV_PRESSURE_KINDS; k++)
        if (t->fd[k] >= 0)
            bits |= 1u << k;
    return bits;
}

size_t gov__triggers_pollfds(const gov_pressure_triggers *t, struct pollfd *fds,
                             unsigned *kind)
{
    size_t n = 0;

    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++)
        if (t->fd[k] >= 0) {
            fds[n] = (struct pollfd){ .fd = t->fd[k], .events = POLLPRI };
            kind[n++] = 1u << k;
        }
    return n;
}

int gov__triggers_fired(const struct pollfd *fds, const unsigned *kind, size_t n,
                        unsigned *fired)
{
    *fired = 0;
    for (size_t i = 0; i < n; i++) {
        /* A PSI file whose cgroup was removed polls POLLERR. */
        if (fds[i].revents & (POLLERR | POLLNVAL))
            return -ENODEV;
        if (fds[i].revents & POLLPRI)
            *fired |= kind[i];
    }
    return 0;
}

int gov_pressure_triggers_wait(gov_pressure_triggers *t, uint64_t timeout_ms, unsigned *fired)
{
    struct pollfd fds[GOV_PRESSURE_KINDS];
    unsigned kind[GOV_PRESSURE_KINDS], got = 0;
    size_t n;
    int r, rc;

    if (fired)
        *fired = 0;
    if (!t)
        return GOV_EINVAL;
    n = gov__triggers_pollfds(t, fds, kind);
    /* poll(2) takes an int: longer waits are several. */
    do {
        int slice = timeout_ms > INT32_MAX ? INT32_MAX : (int)timeout_ms;

        r = poll(fds, n, slice);
        if (r < 0 && errno != EINTR)
            return -errno;
        if (r > 0)
            break;
        if (r == 0)
            timeout_ms -= (uint64_t)slice;
    } while (timeout_ms);
    if (r <= 0)
        return GOV_ETIMEDOUT;
    rc = gov__triggers_fired(fds, kind, n, &got);
    if (fired)
        *fired = got;
    return rc;
}

void gov_pressure_triggers_close(gov_pressure_triggers *t)
{
    if (!t)
        return;
    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++)
        if (t->fd[k] >= 0)
            close(t->fd[k]);
    free(t);
}
