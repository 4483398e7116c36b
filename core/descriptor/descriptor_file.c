/* descriptor_file.c - the descriptor as a file root wrote for the step
 * (handoff=file): a trust path that needs no daemon in the task, for sites
 * without munged and containers that cannot reach its socket
 * (docs/descriptor.md, "Hand-off").
 *
 * What proves the text is root's is the file itself, opened and then
 * examined through its descriptor: who owns it and who may write it.  The
 * path only says where to look; a user who bends it (a link, a bind mount
 * in their own container) can only point at files that exist, and theirs
 * show their own uid.  In a user namespace that leaves the node's root
 * unmapped, the kernel shows every unmapped owner as the overflow uid:
 * root's file then looks like any other user's, and that is accepted, so
 * there the check keeps out the user's own files, not another account's
 * (docs/descriptor.md says what that leaves). */
#include "descriptor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool gov__file_owner_trusted(uint64_t st_uid, uint32_t trusted_uid, bool root_mapped,
                             uint64_t overflow_uid)
{
    if (st_uid == 0 || (trusted_uid != GOV_UID_NONE && st_uid == trusted_uid))
        return true;
    return !root_mapped && overflow_uid != GOV_UNKNOWN && st_uid == overflow_uid;
}

/* Whether uid 0 of the initial user namespace has a uid here: always
 * outside a user namespace; inside, when some uid_map line maps onto 0. */
static bool root_mapped(void)
{
    char buf[4096];
    size_t len;

    if (gov__read_file(NULL, "/proc/self/uid_map", buf, sizeof buf, &len))
        return true;   /* unreadable: trust nothing but 0 */
    return gov__uid_map_translate(buf, len, 0, false) != GOV_UNKNOWN;
}

static uint64_t overflow_uid(void)
{
    char buf[32];
    size_t len;
    uint64_t v;

    if (gov__read_file(NULL, "/proc/sys/kernel/overflowuid", buf, sizeof buf, &len))
        return GOV_UNKNOWN;
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        len--;
    return gov__parse_u64(buf, len, &v) ? GOV_UNKNOWN : v;
}

/* A missing file in a directory that is there: its step has ended (the
 * plugin removes the file then), so it was another step's.  A missing
 * directory: the run directory is not bound into this container. */
static int gone(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    struct stat st;
    size_t n = slash ? (size_t)(slash - path) : 0;

    if (n == 0 || n >= sizeof dir)
        return GOV_ENOENT;
    memcpy(dir, path, n);
    dir[n] = '\0';
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? GOV_EBINDING : GOV_ENOENT;
}

/* The file's whole text into buf (NUL-terminated), if it is root's. */
static int read_trusted(const char *path, uint32_t trusted_uid, char *buf, size_t cap,
                        size_t *len)
{
    struct stat st;
    ssize_t n;
    int fd, rc = 0;

    if (path[0] != '/')
        return GOV_EINVAL;
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR ? gone(path) : -errno;
    if (fstat(fd, &st)) {
        rc = -errno;
    } else if (!S_ISREG(st.st_mode) || (st.st_mode & (S_IWGRP | S_IWOTH)) ||
               !gov__file_owner_trusted((uint64_t)st.st_uid, trusted_uid, root_mapped(),
                                        overflow_uid())) {
        rc = GOV_EUNTRUSTED;
    } else if (st.st_size <= 0 || (uint64_t)st.st_size >= cap) {
        rc = GOV_EPARSE;
    } else {
        n = read(fd, buf, cap - 1);
        if (n < 0)
            rc = -errno;
        else if (n != st.st_size)
            rc = GOV_EPARSE;
        else {
            buf[n] = '\0';
            *len = (size_t)n;
        }
    }
    close(fd);
    return rc;
}

int gov__descriptor_verify_file(const char *path, uint32_t trusted_uid,
                                const gov_desc_claim *claim, gov_descriptor *out,
                                gov_desc_check *chk)
{
    char text[GOV_DESC_MAX_BYTES + 1];
    size_t len = 0;
    int rc;

    gov__descriptor_init(out);
    memset(chk, 0, sizeof *chk);
    if (!path)
        return GOV_EINVAL;
    rc = read_trusted(path, trusted_uid, text, sizeof text, &len);
    if (!rc)
        rc = gov__descriptor_parse(text, len, out);
    if (!rc)
        rc = gov__descriptor_check_binding(out, claim, false, chk);
    if (rc)
        gov__descriptor_init(out);
    return rc;
}
