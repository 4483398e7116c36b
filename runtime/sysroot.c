/* sysroot.c - read kernel files under a root directory (tests use fixture
 * trees; the live system uses "/"). */
#include "evidence.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int gov_path_join(const char *root, const char *path, char *out, size_t cap)
{
    int n;

    if (!root || !*root || (root[0] == '/' && root[1] == '\0'))
        root = "";
    n = snprintf(out, cap, "%s%s%s", root, path[0] == '/' ? "" : "/", path);
    if (n < 0 || (size_t)n >= cap)
        return GOV_ENOSPC;
    return 0;
}

int gov_read_file(const char *root, const char *path, char *buf, size_t cap,
                  size_t *len)
{
    char full[4096];
    size_t used = 0;
    int fd, rc;

    if (!buf || cap == 0)
        return GOV_EINVAL;
    buf[0] = '\0';
    if (len)
        *len = 0;
    rc = gov_path_join(root, path, full, sizeof full);
    if (rc)
        return rc;
    fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
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
