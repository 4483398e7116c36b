/* report_file.c - one locked append per record.  Readers (`governor
 * report`, logrotate's copy) never see half a line: O_APPEND puts each
 * write at the end, the lock orders writers on filesystems where appends
 * are not atomic (NFS), and a write the disk cut short is taken back.
 *
 * The append runs on slurmstepd's reaping path, as root: nothing a user
 * could hold may make it wait.  The file must be root's alone (no group or
 * other bits, one link), so no user can open it to take its lock, and the
 * lock is tried for REPORT_LOCK_WAIT_MS at most: past that the record is
 * dropped, with a line in slurmd's log (issue 35). */
#include "run_dir.h"

#include "governor.h"
#include "step_report.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Appends take microseconds: this is many writers at once, or a holder
 * that is not one. */
#define REPORT_LOCK_WAIT_MS 50

static int append_locked(int fd, const char *line, size_t len, const char **why)
{
    struct stat st;
    size_t done = 0;

    if (fstat(fd, &st)) {
        *why = "the report file cannot be examined";
        return -errno;
    }
    while (done < len) {
        ssize_t n = write(fd, line + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int err = n < 0 ? -errno : GOV_ENOSPC;
            *why = err == -ENOSPC || err == GOV_ENOSPC ? "the report file's disk is full"
                                                       : "the report file cannot be written";
            if (done && ftruncate(fd, st.st_size))
                *why = "the report file cannot be written, and a partial record is left";
            return err;
        }
        done += (size_t)n;
    }
    return 0;
}

int gov__report_append(const char *dir, const char *line, size_t len, const char **why)
{
    struct stat st;
    int dfd, fd, rc;

    dfd = gov__run_dir_open(dir, true, why);
    if (dfd < 0)
        return dfd;
    fd = openat(dfd, GOV_REPORT_FILE, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
                                          O_NOCTTY | O_NONBLOCK, 0600);
    rc = fd < 0 ? -errno : 0;
    close(dfd);
    if (rc) {
        *why = rc == -ELOOP ? "the report file is a link" : "the report file cannot be opened";
        return rc;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0) {
        *why = "the report file is not a regular file of root's";
        close(fd);
        return GOV_EACCES;
    }
    /* Readable by others, anyone could hold its lock; a second link could
     * be a user's way to it, or to somewhere else. */
    if ((st.st_mode & 077) || st.st_nlink != 1) {
        *why = "the report file may be read by others or has another link (it must be root's "
               "alone: chmod 600, one link; logrotate's create 0600 root root)";
        close(fd);
        return GOV_EACCES;
    }
    if (!gov__lock_briefly(fd, REPORT_LOCK_WAIT_MS)) {
        *why = "the report file stayed locked by another process, and the record was dropped "
               "(only root should open it)";
        rc = GOV_ETIMEDOUT;
    } else {
        rc = append_locked(fd, line, len, why);
    }
    close(fd);   /* releases the lock */
    return rc;
}
