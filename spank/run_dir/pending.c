/* pending.c - what root still owes a step on this node if its slurmstepd
 * ends before the step does (OOM-killed: on cgroup v1 Slurm puts it in the
 * step's memory cgroup): RUN_DIR/pending/NODE.JOB.STEP, a root-only note
 * written at the step's start, replaced when its cgroups are known, removed
 * at its end.  The job's epilog (slurm_spank_job_epilog, root, after every
 * step of the job on the node) finds what is left by the job's id and
 * finishes it: the descriptor file removed, the record written.
 *
 * The directory is 0700: a note names the step's descriptor file, whose
 * name is the secret that keeps it from other users. */
#include "run_dir.h"

#include "governor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PENDING "pending"

/* RUN_DIR/pending, made if missing; refused unless root's alone. */
static int pending_dir(const char *run_dir, bool create, const char **why)
{
    struct stat st;
    int dir = gov__run_dir_open(run_dir, create, why), fd;

    if (dir < 0)
        return dir;
    if (create && mkdirat(dir, PENDING, 0700) && errno != EEXIST) {
        *why = "cannot make the pending directory in run_dir";
        close(dir);
        return -errno;
    }
    fd = openat(dir, PENDING, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(dir);
    *why = "run_dir's pending directory is not root's alone (it must be 0700)";
    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) || st.st_uid != 0 || (st.st_mode & 077)) {
        close(fd);
        return GOV_EACCES;
    }
    return fd;
}

/* NODE.JOB.STEP: node names are [A-Za-z0-9._-], the step a number or a
 * word; a name that would not fit is refused. */
static int key(char *buf, size_t cap, const char *node, uint64_t job, const char *step)
{
    int n = snprintf(buf, cap, "%s.%" PRIu64 ".%s", node, job, step);

    return n > 0 && (size_t)n < cap && !strchr(buf, '/') ? 0 : GOV_EINVAL;
}

int gov__pending_write(const char *run_dir, const char *node, uint64_t job, const char *step,
                       const char *text, size_t len, const char **why)
{
    char name[160], tmp[176];
    int dir, fd, rc = 0;
    ssize_t w;

    *why = "the step's name does not fit a pending note";
    if (key(name, sizeof name, node, job, step))
        return GOV_EINVAL;
    dir = pending_dir(run_dir, true, why);
    if (dir < 0)
        return dir;
    /* Whole or not at all: a note replaced by rename. */
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *why = "cannot create a pending note";
        rc = -errno;
    } else {
        w = write(fd, text, len);
        if (close(fd) || w != (ssize_t)len || renameat(dir, tmp, dir, name)) {
            *why = "cannot write a pending note (run_dir's filesystem full?)";
            unlinkat(dir, tmp, 0);
            rc = GOV_EIO;
        }
    }
    close(dir);
    return rc;
}

void gov__pending_remove(const char *run_dir, const char *node, uint64_t job, const char *step)
{
    char name[160];
    const char *why;
    int dir;

    if (key(name, sizeof name, node, job, step) || (dir = pending_dir(run_dir, false, &why)) < 0)
        return;
    unlinkat(dir, name, 0);
    close(dir);
}

/* One note's text, if it is root's regular file with one link. */
static int read_note(int dir, const char *name, char *buf, size_t cap, size_t *len)
{
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    ssize_t n;
    int rc = 0;

    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 || st.st_nlink != 1 ||
        st.st_size <= 0 || (size_t)st.st_size >= cap)
        rc = GOV_EACCES;
    else if ((n = read(fd, buf, cap - 1)) != st.st_size)
        rc = GOV_EIO;
    else {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    close(fd);
    return rc;
}

int gov__pending_sweep(const char *run_dir, const char *node, uint64_t job,
                       gov_pending_fn fn, void *arg, const char **why)
{
    char prefix[160];
    size_t plen;
    DIR *d;
    struct dirent *e;
    int dir, found = 0;

    if (key(prefix, sizeof prefix, node, job, "")) {
        *why = "the node's name does not fit a pending note";
        return GOV_EINVAL;
    }
    plen = strlen(prefix);
    dir = pending_dir(run_dir, false, why);
    if (dir == GOV_ENOENT)
        return 0;   /* no step ever needed one here */
    if (dir < 0)
        return dir;
    d = fdopendir(dup(dir));
    if (!d) {
        close(dir);
        *why = "cannot list the pending directory";
        return -errno;
    }
    while ((e = readdir(d))) {
        char text[GOV_PENDING_MAX];
        size_t len = 0;
        if (strncmp(e->d_name, prefix, plen) || !e->d_name[plen])
            continue;
        if (!read_note(dir, e->d_name, text, sizeof text, &len))
            fn(text, len, e->d_name + plen, arg);
        unlinkat(dir, e->d_name, 0);
        found++;
    }
    closedir(d);
    close(dir);
    return found;
}
