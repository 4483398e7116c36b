/* sysroot.c - the root under which kernel files are read, opened once as a
 * directory handle (as hwloc's fsroot): tests point it at fixture trees,
 * the live system is NULL or "/".  Every path handed in is absolute inside
 * the root; it is opened relative to the handle, never by string joining. */
#define _GNU_SOURCE
#include "evidence.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

void gov__root_open(const char *path, gov_root *out)
{
    out->live = !path || !*path || !strcmp(path, "/");
    /* A root that cannot be opened reads as an empty tree: every fact in it
     * unknown, as for a missing file. */
    out->fd = out->live ? -1 : open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

void gov__root_close(gov_root *r)
{
    if (r && r->fd >= 0)
        close(r->fd);
    if (r)
        r->fd = -1;
}

bool gov__root_is_live(const gov_root *r)
{
    return !r || r->live;
}

/* The handle and path to use with the *at() calls. */
static int at(const gov_root *r, const char *path, const char **rel)
{
    if (gov__root_is_live(r)) {
        *rel = path;
        return AT_FDCWD;
    }
    *rel = path + strspn(path, "/");
    if (!**rel)
        *rel = ".";
    return r->fd;
}

int gov__root_openat(const gov_root *r, const char *path, int flags)
{
    const char *rel;
    int dirfd = at(r, path, &rel), fd;

    if (dirfd != AT_FDCWD && dirfd < 0)
        return GOV_ENOENT;
    fd = openat(dirfd, rel, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int gov__root_access(const gov_root *r, const char *path, int mode)
{
    const char *rel;
    int dirfd = at(r, path, &rel);

    if (dirfd != AT_FDCWD && dirfd < 0)
        return GOV_ENOENT;
    return faccessat(dirfd, rel, mode, 0) == 0 ? 0 : -errno;
}

DIR *gov__root_opendir(const gov_root *r, const char *path)
{
    int fd = gov__root_openat(r, path, O_RDONLY | O_DIRECTORY);
    DIR *d;

    if (fd < 0) {
        errno = -fd;
        return NULL;
    }
    d = fdopendir(fd);
    if (!d)
        close(fd);
    return d;
}

int gov__read_file(const gov_root *r, const char *path, char *buf, size_t cap, size_t *len)
{
    size_t used = 0;
    int fd, rc = 0;

    if (!buf || cap == 0)
        return GOV_EINVAL;
    buf[0] = '\0';
    if (len)
        *len = 0;
    fd = gov__root_openat(r, path, O_RDONLY);
    if (fd < 0)
        return fd;
    for (;;) {
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = -errno;
            break;
        }
        if (n == 0)
            break;
        used += (size_t)n;
        if (used == cap - 1) {
            char extra;
            ssize_t m;
            do
                m = read(fd, &extra, 1);
            while (m < 0 && errno == EINTR);
            if (m > 0)
                rc = GOV_ENOSPC;
            break;
        }
    }
    close(fd);
    buf[used] = '\0';
    if (len)
        *len = used;
    return rc;
}

/* DIR/NAME into buf; GOV_ENOSPC when it does not fit. */
static int join(const char *dir, const char *name, char *buf, size_t cap)
{
    size_t dl = strlen(dir), nl = strlen(name);

    if (dl + 1 + nl + 1 > cap)
        return GOV_ENOSPC;
    memcpy(buf, dir, dl);
    if (dl == 0 || dir[dl - 1] != '/')
        buf[dl++] = '/';
    memcpy(buf + dl, name, nl + 1);
    return 0;
}

int gov__read_file_in(const gov_root *r, const char *dir, const char *name, char *buf,
                      size_t cap, size_t *len)
{
    char path[PATH_MAX];
    int rc = join(dir, name, path, sizeof path);

    return rc ? rc : gov__read_file(r, path, buf, cap, len);
}

bool gov__exists_in(const gov_root *r, const char *dir, const char *name)
{
    char path[PATH_MAX];

    return join(dir, name, path, sizeof path) == 0 && gov__root_access(r, path, F_OK) == 0;
}
