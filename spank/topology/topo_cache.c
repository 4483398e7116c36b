/* topo_cache.c - the topology table's file in the plugin's run directory
 * (run_dir.h, opened safely there): read through a descriptor checked with
 * fstat, written under a random name with O_EXCL, then renamed.  A link
 * planted anywhere is never followed. */
#include "topo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define GOV_TOPO_FILE_FMT "topology-%s.v2"

static int file_name(char *out, size_t cap)
{
    char boot[64];
    size_t len, j = 0;
    int rc = gov__read_file(NULL, "/proc/sys/kernel/random/boot_id", boot, sizeof boot, &len);

    if (rc)
        return rc;
    /* Keep only the id's hex digits and dashes in a file name. */
    for (size_t i = 0; i < len; i++)
        if ((boot[i] >= '0' && boot[i] <= '9') || (boot[i] >= 'a' && boot[i] <= 'f') ||
            boot[i] == '-')
            boot[j++] = boot[i];
    boot[j] = '\0';
    if (j < 8)
        return GOV_EPARSE;
    return snprintf(out, cap, GOV_TOPO_FILE_FMT, boot) < (int)cap ? 0 : GOV_ENOSPC;
}

int gov__topo_cache_load(int dirfd, gov_topo_table *t, const char **why)
{
    char name[96], *buf;
    struct stat st;
    size_t used = 0;
    int fd, rc;

    *why = "the node's boot id cannot be read";
    if (file_name(name, sizeof name))
        return GOV_EIO;
    /* O_NONBLOCK: a FIFO planted there must not hang the open. */
    fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        rc = -errno;
        *why = rc == -ELOOP ? "the cached file is a link" : "the cached file cannot be opened";
        return rc;
    }
    *why = "the cached file is not a regular file of root's that only root may write";
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
        (st.st_mode & (S_IWGRP | S_IWOTH))) {
        close(fd);
        return GOV_EACCES;
    }
    *why = "the cached file is too large";
    if (st.st_size > GOV_TOPO_MAX_BYTES) {
        close(fd);
        return GOV_ERANGE;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        close(fd);
        return GOV_ENOMEM;
    }
    while (used < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + used, (size_t)st.st_size - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    *why = "the cached file does not parse";
    rc = used == (size_t)st.st_size ? gov__topo_parse(buf, used, t) : GOV_EIO;
    free(buf);
    return rc;
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return GOV_EIO;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

int gov__topo_cache_store(int dirfd, const gov_topo_table *t, const char **why)
{
    char name[96], tmp[128], *text;
    uint64_t salt;
    int fd = -1, len, rc;

    *why = "the node's boot id cannot be read";
    if (file_name(name, sizeof name))
        return GOV_EIO;
    text = malloc(GOV_TOPO_MAX_BYTES);
    if (!text)
        return GOV_ENOMEM;
    *why = "the table does not fit its size limit";
    len = gov__topo_encode(t, text, GOV_TOPO_MAX_BYTES);
    if (len < 0) {
        free(text);
        return len;
    }
    /* A name nobody can guess, created only if nothing is there yet. */
    for (int tries = 0; tries < 8 && fd < 0; tries++) {
        if (getrandom(&salt, sizeof salt, 0) != (ssize_t)sizeof salt)
            break;
        snprintf(tmp, sizeof tmp, "%s.%016llx.tmp", name, (unsigned long long)salt);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    *why = "no new file can be created in the directory";
    if (fd < 0) {
        free(text);
        return GOV_EIO;
    }
    *why = "the new table cannot be written or put in place";
    rc = write_all(fd, text, (size_t)len);
    free(text);
    if (!rc && fchmod(fd, 0644))
        rc = GOV_EIO;
    if (close(fd) && !rc)
        rc = GOV_EIO;
    if (!rc && renameat(dirfd, tmp, dirfd, name))
        rc = GOV_EIO;
    if (rc)
        unlinkat(dirfd, tmp, 0);
    return rc;
}
