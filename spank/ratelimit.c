/* ratelimit.c - a message at most once per period on a node, whichever of
 * its processes (tasks of many steps) has it to say: the time stamp of a
 * file in the plugin's root-owned directory is the shared memory. */
#include "seal.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

bool gov_note_due(int dirfd, const char *name, unsigned period_s)
{
    char file[64];
    struct stat st;
    struct timespec now;
    bool due;
    int fd;

    if (dirfd < 0 || snprintf(file, sizeof file, "%s.stamp", name) >= (int)sizeof file)
        return true;
    fd = openat(dirfd, file, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0)
        return true;
    /* Check and stamp under the file's lock: tasks that fail together
     * (every task of a step when munged is down) must not all log. */
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || flock(fd, LOCK_EX) || fstat(fd, &st)) {
        close(fd);
        return true;
    }
    clock_gettime(CLOCK_REALTIME, &now);
    /* An empty file was created just now and nobody used it yet: its first
     * byte marks a stamp that has been used. */
    due = st.st_size == 0 || now.tv_sec < st.st_mtime ||
          now.tv_sec - st.st_mtime >= (time_t)period_s;
    if (due) {
        if (st.st_size == 0) {
            ssize_t n = write(fd, "\n", 1);
            (void)n;
        }
        futimens(fd, NULL);
    }
    close(fd);   /* releases the lock */
    return due;
}
