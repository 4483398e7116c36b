/* fixture_root.h - a fixture tree opened as the gov_root that every reader
 * of /proc, /sys and /dev takes (core/sysroot.c). */
#ifndef GOV_FIXTURE_ROOT_H
#define GOV_FIXTURE_ROOT_H

#include "snapshot_base.h"

/* The tree at path as a root; release it with gov_root_close(). */
static inline gov_root fixture_root(const char *path)
{
    gov_root r;

    gov_root_open(path, &r);
    return r;
}

#endif
