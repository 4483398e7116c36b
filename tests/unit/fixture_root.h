/* fixture_root.h - a fixture tree opened as the gov_root that every reader
 * of /proc, /sys and /dev takes (core/evidence/sysroot.c). */
#ifndef GOV_FIXTURE_ROOT_H
#define GOV_FIXTURE_ROOT_H

#include "governor.h"
#include "evidence.h"

#include <stdlib.h>

/* The tree at path as a root; release it with gov__root_close(). */
static inline gov_root fixture_root(const char *path)
{
    gov_root r;

    gov__root_open(path, &r);
    return r;
}

/* A context on the sysroot o->sysroot as the tool makes one: hwloc
 * pointed at the same tree (HWLOC_FSROOT) while the context loads it. */
static inline int fixture_context(const gov_options *o, gov_context **ctx)
{
    int rc;

    if (setenv("HWLOC_FSROOT", o->sysroot, 1) != 0)
        return GOV_ENOMEM;
    rc = gov_context_create(o, ctx);
    unsetenv("HWLOC_FSROOT");
    return rc;
}

#endif
