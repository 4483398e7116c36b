/* step_file.c - the step's descriptor as a file of root's (handoff=file):
 * RUN_DIR/steps/NAME, NAME 32 random hex digits, mode 0444 in a directory
 * of mode 0711.  Anyone may read a file whose name they know, nobody may
 * list them: the name reaches only the step's tasks, in their
 * environment.  The library checks who owns the file, not where it is
 * (core/descriptor/descriptor_file.c), so a container may bind it in anywhere.
 * The file carries root's mark, the immutable flag, which only root of the
 * node's initial user namespace can set: in a user namespace of the task's
 * own, where owners are the namespace maker's to choose, it is what shows
 * the file to be root's.  It comes off before the file is removed. */
#define _GNU_SOURCE /* O_PATH */
#include "run_dir.h"

#include "governor.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define STEPS "steps"

/* RUN_DIR/steps, made if missing; refused unless root's, 0711 or
 * stricter for others (listing it would give every name away). */
static int steps_dir(const char *run_dir, const char **why)
{
    struct stat st;
    int dir = gov__run_dir_open(run_dir, true, why), fd;

    if (dir < 0)
        return dir;
    if (mkdirat(dir, STEPS, 0711) && errno != EEXIST) {
        *why = "cannot make the steps directory in run_dir";
        close(dir);
        return -errno;
    }
    fd = openat(dir, STEPS, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(dir);
    *why = "run_dir's steps directory is not root's, or others may list or write it (it must "
           "be 0711)";
    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) || st.st_uid != 0 || (st.st_mode & (S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH))) {
        close(fd);
        return GOV_EACCES;
    }
    return fd;
}

/* Set or clear the immutable flag: 0, or a negative errno (EOPNOTSUPP,
 * ENOTTY where the filesystem has no such flag). */
static int mark(int fd, bool on)
{
    int flags = 0;

    if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
        return -errno;
    flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
    return ioctl(fd, FS_IOC_SETFLAGS, &flags) ? -errno : 0;
}

int gov__step_file_unlink(int dir, const char *name)
{
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

    if (fd >= 0) {
        mark(fd, false);
        close(fd);
    }
    return unlinkat(dir, name, 0) ? -errno : 0;
}

int gov__step_file_write(const char *run_dir, const char *text, size_t len, char *path,
                         size_t cap, const char **why)
{
    unsigned char r[16];
    char name[2 * sizeof r + 1];
    ssize_t w;
    int dir, fd;

    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        *why = "no random name for the file";
        return -errno;
    }
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(name + 2 * i, 3, "%02x", r[i]);
    if (snprintf(path, cap, "%s/" STEPS "/%s", run_dir, name) >= (int)cap) {
        *why = "run_dir's path is too long";
        return GOV_ENOSPC;
    }
    dir = steps_dir(run_dir, why);
    if (dir < 0)
        return dir;
    fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
    close(dir);
    if (fd < 0) {
        *why = "cannot create the file in run_dir's steps directory";
        return -errno;
    }
    w = write(fd, text, len);
    if (w == (ssize_t)len)
        mark(fd, true);   /* a filesystem without the flag leaves it unmarked */
    if (close(fd) || w != (ssize_t)len) {
        *why = "cannot write the file (run_dir's filesystem full?)";
        unlink(path);
        return GOV_EIO;
    }
    return 0;
}

void gov__step_file_remove(const char *run_dir, const char *path)
{
    const char *why, *name = strrchr(path, '/');
    int dir;

    if (!name || !path[0])
        return;
    dir = steps_dir(run_dir, &why);
    if (dir < 0)
        return;
    gov__step_file_unlink(dir, name + 1);
    close(dir);
}
