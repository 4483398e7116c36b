/* disk.c - the working directory's filesystem: capacity, free blocks (with
 * root's reserve), blocks available to this user, and a non-writing
 * permission check.  No probe file is created; the path is never kept. */
#include "collect/collect.h"

#include <errno.h>
#include <sys/statvfs.h>
#include <unistd.h>

static uint64_t blocks_bytes(uint64_t blocks, uint64_t size)
{
    if (size && blocks > UINT64_MAX / size)
        return GOV_UNKNOWN;
    return blocks * size;
}


void gov__disk_collect(const char *workdir, gov_snapshot_disk *out)
{
    const char *dir = workdir && *workdir ? workdir : ".";
    struct statvfs st;

    GOV_SET_UNKNOWN(out, disk);

    if (statvfs(dir, &st) == 0 && st.f_frsize) {
        out->capacity_bytes = blocks_bytes(st.f_blocks, st.f_frsize);
        out->free_bytes = blocks_bytes(st.f_bfree, st.f_frsize);
        out->avail_bytes = blocks_bytes(st.f_bavail, st.f_frsize);
    }
    /* Permission only: quotas and remote policies may still refuse. */
    if (access(dir, W_OK) == 0)
        out->writable = 1;
    else if (errno == EACCES || errno == EROFS || errno == EPERM)
        out->writable = 0;
}
