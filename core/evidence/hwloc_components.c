/* hwloc_components.c - what hwloc must not run for us, and why.  The host
 * counts and the node table need hwloc's own linux, x86 and no_os
 * components (and xml, to read a test's file), nothing else. */
#include "evidence.h"
#include "governor.h"
#include "base.h"

const char *const gov__hwloc_excluded[] = {
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

int gov__hwloc_plugins_blacklist(char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);

    if (!buf || cap == 0)
        return GOV_ENOSPC;
    gov__text_append(&o, "", 0);
    for (const char *const *n = gov__hwloc_excluded; *n; n++)
        gov__text_put(&o, "%shwloc_%s", o.used ? "," : "", *n);
    if (o.err) {
        buf[0] = '\0';
        return o.err;
    }
    return (int)o.used;
}
