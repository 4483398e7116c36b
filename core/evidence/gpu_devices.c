/* gpu_devices.c - GPUs as the node shows them to this process: the device
 * nodes it may open, judged by permission alone, and the count of devices
 * a visibility variable names (the value itself is never kept: it can hold
 * GPU UUIDs).  The plugin and the accelerator collector both count here. */
#include "evidence.h"
#include "base.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

uint64_t gov__visible_count(const char *value)
{
    uint64_t n = 0;
    const char *p = value;

    if (!value)
        return GOV_UNKNOWN;
    if (!*value || strcmp(value, "none") == 0 || strcmp(value, "void") == 0)
        return 0;
    if (strcmp(value, "all") == 0)
        return GOV_UNKNOWN; /* every device: no upper bound from here */
    /* Indices, UUIDs ("GPU-...") and MIG ids ("MIG-...") are all entries.
     * An empty or spaced entry makes the whole value malformed. */
    for (;;) {
        const char *start = p;

        while (*p && *p != ',') {
            if (*p <= ' ' || *p == 0x7f)
                return GOV_UNKNOWN;
            p++;
        }
        if (p == start)
            return GOV_UNKNOWN;
        n++;
        if (!*p)
            return n;
        p++;
    }
}

gov_dev_access gov__dev_access_of(const gov_root *root, const char *dir, const char *name)
{
    char rel[1024];
    int rc;

    if (snprintf(rel, sizeof rel, "%s/%s", dir, name) >= (int)sizeof rel)
        return GOV_DEV_UNKNOWN;
    rc = gov__root_access(root, rel, R_OK | W_OK);
    if (rc == 0)
        return GOV_DEV_USABLE;
    if (rc == -EPERM)
        return GOV_DEV_DENIED;
    return rc == -EACCES || rc == -ENOENT || rc == -EROFS ? GOV_DEV_REFUSED : GOV_DEV_UNKNOWN;
}

void gov__gpu_nodes_count(const gov_root *root, const char *dir, const char *prefix,
                          gov_gpu_nodes *out)
{
    DIR *d = gov__root_opendir(root, dir);
    struct dirent *e;
    uint64_t num;

    /* A missing directory is zero devices; an unreadable one is unknown. */
    if (!d) {
        out->total = out->usable = out->denied = errno == ENOENT ? 0 : GOV_UNKNOWN;
        return;
    }
    out->total = out->usable = out->denied = 0;
    while ((e = readdir(d))) {
        if (!gov__name_number(e->d_name, prefix, &num))
            continue;
        out->total++;
        switch (gov__dev_access_of(root, dir, e->d_name)) {
        case GOV_DEV_USABLE:
            out->usable++;
            break;
        case GOV_DEV_DENIED:
            out->denied++;
            break;
        case GOV_DEV_REFUSED:
            break;
        case GOV_DEV_UNKNOWN:
            out->usable = out->denied = GOV_UNKNOWN;
            closedir(d);
            return;
        }
    }
    closedir(d);
}

void gov__gpu_devices_count(const gov_root *root, gov_gpu_nodes *nvidia, gov_gpu_nodes *render)
{
    gov__gpu_nodes_count(root, "/dev", "nvidia", nvidia);
    gov__gpu_nodes_count(root, "/dev/dri", "renderD", render);
}
