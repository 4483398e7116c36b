/*
 * affinity.h - the process's affinity mask (affinity.c): read, parsed from
 * /proc/PID/status under a sysroot, and narrowed.
 */
#ifndef GOV_AFFINITY_H
#define GOV_AFFINITY_H

#include "governor.h"
#include "sysroot.h"

#include <stddef.h>

/* sched_getaffinity on the live system; Cpus_allowed_list of
 * ROOT/proc/self/status under a sysroot.  Returns 0 or an error; on error
 * *count is GOV_UNKNOWN. */
int gov__affinity_collect(const gov_root *root, gov_cpuset *set, uint64_t *count);

/* Find "Cpus_allowed_list:" in a /proc/PID/status text. */
int gov__status_parse_cpus_allowed(const char *text, size_t len, gov_cpuset *out);

/* sched_setaffinity of the calling process to set (gov_runenv.affinity:
 * `governor run` before it execs, the plugin in a task).  Returns 0 or a
 * negative errno. */
int gov__affinity_set(const gov_cpuset *set);

#endif /* GOV_AFFINITY_H */
