/* descriptor_file.c - the descriptor as a file root wrote for the step
 * (handoff=file): a trust path that needs no daemon in the task, for sites
 * without munged and containers that cannot reach its socket
 * (docs/descriptor.md, "Hand-off" and "Threat model").
 *
 * What proves the text is root's is the file itself, opened and then
 * examined through its descriptor: who owns it, who may write it, how many
 * names it has.  The path only says where to look.  An owner says who it is
 * only in the node's initial user namespace, which the kernel vouches for
 * (evidence.h, gov__userns_initial).  In a user namespace of the process's
 * own, a user may map their own uid to 0 and mount any file anywhere: there
 * the file counts as root's when it carries root's mark, the immutable
 * flag, which only the initial namespace's root can set (the plugin sets
 * it), on a local filesystem whose flags the kernel keeps (not FUSE, whose
 * daemon answers for them); without the mark the owner goes unchecked
 * (GOV_BINDING_OWNER), which the snapshot says. */
#include "descriptor.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
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

bool gov__file_marked(int fd)
{
    struct statfs fs;
    int flags = 0;

    if (fstatfs(fd, &fs) || ioctl(fd, FS_IOC_GETFLAGS, &flags))
        return false;
    switch ((unsigned long)fs.f_type) {
    case TMPFS_MAGIC:
    case EXT4_SUPER_MAGIC:
    case XFS_SUPER_MAGIC:
    case BTRFS_SUPER_MAGIC:
        return (flags & FS_IMMUTABLE_FL) != 0;
    default:
        return false;
    }
}

/* The file's whole text into buf (NUL-terminated), if it is root's: its
 * owner vouched for (*owner_vouched) or not. */
static int read_trusted(const char *path, uint32_t trusted_uid, char *buf, size_t cap,
                        size_t *len, bool *owner_vouched)
{
    bool initial = gov__userns_initial() == GOV_VOUCH_YES;
    struct stat st;
    ssize_t n;
    int fd, rc = 0;

    if (path[0] != '/')
        return GOV_EINVAL;
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR ? gone(path) : -errno;
    /* In the initial namespace root is mapped and owners are real: only
     * root's (or trusted_uid's) file; elsewhere the overflow uid may stand
     * for root, what says so (uid_map, overflowuid) being the user's to
     * mount over, hence the mark. */
    if (fstat(fd, &st)) {
        rc = -errno;
    } else if (!S_ISREG(st.st_mode) || (st.st_mode & (S_IWGRP | S_IWOTH)) || st.st_nlink != 1 ||
               !gov__file_owner_trusted((uint64_t)st.st_uid, trusted_uid,
                                        initial || root_mapped(),
                                        initial ? GOV_UNKNOWN : overflow_uid())) {
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
            *owner_vouched = initial || gov__file_marked(fd);
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
    bool vouched = false;
    int rc;

    gov__descriptor_init(out);
    memset(chk, 0, sizeof *chk);
    if (!path)
        return GOV_EINVAL;
    rc = read_trusted(path, trusted_uid, text, sizeof text, &len, &vouched);
    if (!rc)
        rc = gov__descriptor_parse(text, len, out);
    if (!rc)
        rc = gov__descriptor_check_binding(out, claim, false, chk);
    if (!rc && !vouched)
        chk->unchecked |= 1u << GOV_BINDING_OWNER;
    if (rc)
        gov__descriptor_init(out);
    return rc;
}
