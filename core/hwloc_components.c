/* hwloc_components.c - what hwloc must not run for us, and why.  The host
 * counts and the node table need hwloc's own linux, x86 and no_os
 * components (and xml, to read a test's file), nothing else. */
#include "hwloc_components.h"
#include "governor.h"

#include <string.h>

const char *const gov_hwloc_excluded[] = {
    /* Vendor GPU components: they start CUDA, NVML, ROCm SMI, Level Zero
     * or OpenCL drivers inside the job's or slurmstepd's process. */
    "cuda", "nvml", "rsmi", "levelzero", "opencl",
    /* gl talks to an X server. */
    "gl",
    /* pci (libpciaccess) repeats what linux reads from sysfs. */
    "pci",
    /* The libxml2 reader: the plain one reads the same files, and loading
     * libxml2 is a large part of a short-lived tool's start-up. */
    "xml_libxml",
    /* A topology described by a string is never what a node has. */
    "synthetic",
    NULL,
};

int gov_hwloc_plugins_blacklist(char *buf, size_t cap)
{
    static const char prefix[] = "hwloc_";
    size_t used = 0;

    if (!buf || cap == 0)
        return GOV_ENOSPC;
    buf[0] = '\0';
    for (const char *const *n = gov_hwloc_excluded; *n; n++) {
        size_t need = (used ? 1 : 0) + sizeof prefix - 1 + strlen(*n);

        if (used + need >= cap) {
            buf[0] = '\0';
            return GOV_ENOSPC;
        }
        if (used)
            buf[used++] = ',';
        memcpy(buf + used, prefix, sizeof prefix - 1);
        used += sizeof prefix - 1;
        memcpy(buf + used, *n, strlen(*n));
        used += strlen(*n);
        buf[used] = '\0';
    }
    return (int)used;
}
