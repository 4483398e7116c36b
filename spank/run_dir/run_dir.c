/* run_dir.c - opening the plugin's run directory (run_dir.h) as root in a
 * place nobody else may have prepared: every step from "/" down is opened
 * with O_NOFOLLOW and checked on its descriptor (not on its name, which
 * could change between a check and a use). */
#define _GNU_SOURCE /* O_PATH */
#include "run_dir.h"

#include "governor.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Only root may change what the directory holds.  The sticky bit is not
 * enough anywhere on the way: under /tmp a user can create the directory
 * (or any missing one above it) before root does. */
static bool dir_safe(const struct stat *st)
{
    return S_ISDIR(st->st_mode) && st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static int open_step(int at, const char *name, size_t n, int *out)
{
    char comp[256];

    if (n == 0 || n >= sizeof comp || (n == 1 && name[0] == '.') ||
        (n == 2 && name[0] == '.' && name[1] == '.'))
        return GOV_EINVAL;
    memcpy(comp, name, n);
    comp[n] = '\0';
    *out = openat(at, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return *out < 0 ? -errno : 0;
}

static const char *open_failure(int rc)
{
    if (rc == GOV_ENOENT)
        return "the directory does not exist";
    if (rc == GOV_EINVAL)
        return "the directory's path has '.', '..' or too long a name";
    if (rc == -ENOTDIR || rc == -ELOOP)
        return "a part of the directory's path is a link or not a directory";
    return "a part of the directory's path cannot be opened";
}

int gov__run_dir_open(const char *dir, bool create, const char **why)
{
    const char *p;
    struct stat st;
    int fd, next, rc;

    *why = "the directory's path is not absolute";
    if (!dir || dir[0] != '/')
        return GOV_EINVAL;
    fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    for (p = dir; *p;) {
        size_t n;
        while (*p == '/')
            p++;
        n = strcspn(p, "/");
        if (n == 0)
            break;
        *why = "a directory on its path is writable by others (sticky ones such as /tmp "
               "included), not root's, or a link";
        if (fstat(fd, &st) || !dir_safe(&st)) {
            close(fd);
            return GOV_EACCES;
        }
        rc = open_step(fd, p, n, &next);
        if (rc == GOV_ENOENT && create && p[n + strspn(p + n, "/")] == '\0') {
            char comp[256];
            memcpy(comp, p, n);
            comp[n] = '\0';
            if (mkdirat(fd, comp, 0755) && errno != EEXIST)
                rc = -errno;
            else
                rc = open_step(fd, p, n, &next);
        }
        close(fd);
        if (rc) {
            *why = open_failure(rc);
            return rc;
        }
        fd = next;
        p += n;
    }
    *why = "the directory is writable by others or not root's";
    if (fstat(fd, &st) || !dir_safe(&st)) {
        close(fd);
        return GOV_EACCES;
    }
    return fd;
}
