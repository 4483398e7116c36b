/*
 * hwloc_components.h - the hwloc components slurm-governor never lets run,
 * in one list (hwloc_components.c).  Names only, so no hwloc header: the
 * plugin excludes them from each topology it loads (set_components; it
 * must not touch slurmstepd's environment), the tool keeps their plugin
 * libraries from being loaded at all (HWLOC_PLUGINS_BLACKLIST).  A name a
 * given hwloc lacks is refused by it and changes nothing.
 */
#ifndef GOV_HWLOC_COMPONENTS_H
#define GOV_HWLOC_COMPONENTS_H

#include <stddef.h>

/* Component names, NULL-terminated. */
extern const char *const gov__hwloc_excluded[];

/* The value for HWLOC_PLUGINS_BLACKLIST: each name as its plugin,
 * "hwloc_cuda,hwloc_nvml,...", NUL-terminated in buf.  Returns the length
 * or GOV_ENOSPC. */
int gov__hwloc_plugins_blacklist(char *buf, size_t cap);

#endif /* GOV_HWLOC_COMPONENTS_H */
