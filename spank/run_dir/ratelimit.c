/* ratelimit.c - a message at most once per period on a node, whichever of
 * its processes (tasks of many steps) has it to say: the time stamp of a
 * root-only file in the plugin's run directory is the shared memory.
 *
 * This runs as root on the task launch path, so nothing here may wait for
 * anything a user can hold: the file is root's alone (an older one that
 * others could open is replaced, which also leaves any lock they hold on
 * a file nobody uses), and its lock is tried for at most LOCK_WAIT_MS. */
#include "run_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define STAMP_FLAGS (O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
#define LOCK_WAIT_MS 50

/* The stamp, root's and private; -1 when it cannot be had. */
static int open_stamp(int dirfd, const char *file)
{
    struct stat st;
    int fd = openat(dirfd, file, STAMP_FLAGS | O_CREAT, 0600);

    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (st.st_uid == geteuid() && !(st.st_mode & 077))
        return fd;
    close(fd);
    if (unlinkat(dirfd, file, 0) && errno != ENOENT)
        return -1;
    fd = openat(dirfd, file, STAMP_FLAGS | O_CREAT | O_EXCL, 0600);
    /* Another task replaced it at the same moment: use theirs. */
    if (fd < 0 && errno == EEXIST)
        fd = openat(dirfd, file, STAMP_FLAGS);
    return fd;
}

/* The count the stamp holds: messages not logged since the last one. */
static uint64_t read_count(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    uint64_t v = 0;

    if (n <= 0)
        return 0;
    buf[n] = '\0';
    for (char *p = buf; *p >= '0' && *p <= '9' && v < UINT64_MAX / 10; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

static void write_count(int fd, uint64_t v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%llu\n", (unsigned long long)v);

    if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) == n)
        return;
}

/* A holder keeps the lock for a read and a write, so tasks that fail
 * together (every task of a step when munged is down) wait their turn and
 * are all counted; a holder stuck past wait_ms costs that message its
 * count, never the task its start. */
bool gov__lock_briefly(int fd, unsigned wait_ms)
{
    const struct timespec pause = { 0, 1000000L };

    for (unsigned ms = 0; ms < wait_ms; ms++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return true;
        if (errno != EWOULDBLOCK)
            return false;
        nanosleep(&pause, NULL);
    }
    return false;
}

bool gov__note_due(int dirfd, const char *name, unsigned period_s, uint64_t *folded)
{
    return gov__note_due_wait(dirfd, name, period_s, LOCK_WAIT_MS, folded);
}

bool gov__note_due_wait(int dirfd, const char *name, unsigned period_s, unsigned wait_ms,
                        uint64_t *folded)
{
    char file[96];
    struct stat st;
    struct timespec now;
    bool due;
    int fd;

    *folded = 0;
    if (dirfd < 0 || snprintf(file, sizeof file, "%s.stamp", name) >= (int)sizeof file)
        return true;
    fd = open_stamp(dirfd, file);
    if (fd < 0)
        return true;
    /* Check and stamp under the lock: tasks that fail together must not
     * all log. */
    if (!gov__lock_briefly(fd, wait_ms)) {
        close(fd);
        return false;
    }
    if (fstat(fd, &st)) {
        close(fd);
        return true;
    }
    clock_gettime(CLOCK_REALTIME, &now);
    /* An empty file was created just now and nobody used it yet: a stamp
     * that has been used holds a count. */
    due = st.st_size == 0 || now.tv_sec < st.st_mtime ||
          now.tv_sec - st.st_mtime >= (time_t)period_s;
    if (due) {
        *folded = read_count(fd);
        write_count(fd, 0);
        futimens(fd, NULL);
    } else {
        /* The time stamp is when the last message was logged: keep it. */
        const struct timespec keep[2] = { st.st_atim, st.st_mtim };
        write_count(fd, read_count(fd) + 1);
        futimens(fd, keep);
    }
    close(fd);   /* releases the lock */
    return due;
}
