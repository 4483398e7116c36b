/*
 * cgroup.h - where the process's cgroups are (mountinfo.c, cgroup_locate.c)
 * and what they allow (cgroup_limits.c), for v1, v2 and hybrid hosts.
 * docs/cgroups.md.
 */
#ifndef GOV_CGROUP_H
#define GOV_CGROUP_H

#include "governor.h"
#include "sysroot.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct gov_mount {
    char root[1024];        /* decoded root field (4th) */
    char mount_point[1024]; /* decoded mount point (5th) */
    int version;            /* 1 or 2 */
    char options[512];      /* super options (v1: controller names) */
} gov_mount;

/* Decode mountinfo octal escapes (\040 etc.) in place; returns new length. */
size_t gov__unescape_octal(char *s, size_t len);

/* Find the cgroup mount for a controller: version 2 with controller NULL
 * gives the cgroup2 mount; version 1 the v1 mount whose options list
 * contains the controller.  Returns 0, GOV_ENOENT, GOV_EPARSE, GOV_ENOSPC
 * (a field of the matching mount does not fit gov_mount). */
int gov__mountinfo_find(const char *text, size_t len, int version,
                        const char *controller, gov_mount *out);

/* From /proc/self/cgroup, the path for a v1 controller (controller != NULL)
 * or the v2 entry "0::" (controller NULL).  Returns 0, GOV_ENOENT,
 * GOV_EPARSE, GOV_ENOSPC (the path does not fit cap). */
int gov__proc_cgroup_find(const char *text, size_t len, const char *controller,
                          char *path, size_t cap);

/* What the process's cgroups say: the snapshot's two cgroup parts, filled
 * here and copied whole, and what the other collectors need of the
 * hierarchy. */
typedef struct gov_cgroup_evidence {
    gov_snapshot_cpu_cgroup cpu;        /* version: the CPU hierarchy's, 0 none */
    gov_snapshot_memory_cgroup memory;  /* current and working set: of the level
                                         * that binds */

    /* v2 pressure files of the process's own cgroup, when present */
    bool has_pressure_dir;
    bool pressure_dir_is_root;  /* the hierarchy's root: system-wide figures */

    int devices_confined;       /* v1 devices cgroup below the root: 1, 0, -1 */
    char pressure_dir[2048];    /* absolute path as seen inside root, without
                                 * the root prefix (read with gov__read_file(root,
                                 * ...) like every other file); never printed */
} gov_cgroup_evidence;

void gov__cgroup_collect(const gov_root *root, gov_cgroup_evidence *out);

/* The same without any level's usage (memory.current, usage_in_bytes,
 * memory.stat up the chain) and without the pressure files: the limits
 * alone, which is all a task's environment is planned from, at every
 * task's start; the remaining and working-set figures stay unknown.  On v1
 * a finite hierarchical_memory_limit stands for the walk up the levels
 * (docs/cgroups.md). */
void gov__cgroup_collect_limits(const gov_root *root, gov_cgroup_evidence *out);

/* The whole of ROOT/proc/self/mountinfo, malloc'd into *text (the caller
 * frees it).  Returns 0, GOV_ENOMEM, or the read's error. */
int gov__mountinfo_read(const gov_root *root, char **text, size_t *len);

/* Only devices_confined, for slurmstepd (reads no limit files). */
int gov__cgroup_devices_confined(const gov_root *root);

/* Per-file parsers (exposed for tests and fuzzing). */
int gov__parse_cpu_max(const char *text, size_t len, double *ratio,
                       bool *unlimited);
/* v2 memory.max/high: "max" or bytes. */
int gov__parse_memory_value(const char *text, size_t len, uint64_t *bytes,
                            bool *unlimited);
/* v1 limit_in_bytes: a value at or above the page-rounded LONG_MAX sentinel
 * for any page size counts as unlimited. */
int gov__parse_v1_limit(const char *text, size_t len, uint64_t *bytes,
                        bool *unlimited);
/* The value of "KEY VALUE\n" in a memory.stat (v1 or v2): *val points into
 * text, *vlen bytes up to the newline.  Only complete lines count, so a
 * truncated read never yields a cut-off number.  Returns 0 or GOV_ENOENT. */
int gov__memory_stat_find(const char *text, size_t len, const char *key,
                          const char **val, size_t *vlen);

#endif /* GOV_CGROUP_H */
