/*
 * cgroup_locate.h - finding the process's cgroups (cgroup_locate.c), for
 * the readers of their limits (cgroup_limits.c).  Internal to core/.
 */
#ifndef GOV_CGROUP_LOCATE_H
#define GOV_CGROUP_LOCATE_H

#include "cgroup.h"

#include <stdbool.h>
#include <stddef.h>

#define GOV_CG_DIR_CAP 2048

/* Where a controller's cgroup lives: the mount point and the process's path
 * relative to the mount root; levels are walked by cutting `rel`. */
typedef struct gov_cg_loc {
    int version;          /* 0 when no hierarchy carries the controller */
    bool mapped;          /* the path lies inside the mount root */
    char base[1024];      /* mount point without a trailing '/' */
    char rel[GOV_CG_DIR_CAP];    /* "" (mount root) or "/a/b" */
} gov_cg_loc;

typedef struct gov_cg_text {
    char *mountinfo;
    size_t mountinfo_len;
    char proc[16384];
    size_t proc_len;
} gov_cg_text;

/* Read /proc/self/cgroup and the whole /proc/self/mountinfo under root;
 * false when either cannot be read.  The caller frees t->mountinfo. */
bool gov__cg_read_texts(const gov_root *root, gov_cg_text *t);
/* The same with another process's cgroup file ("/proc/PID/cgroup"). */
bool gov__cg_read_texts_of(const gov_root *root, const char *proc_cgroup, gov_cg_text *t);

/* The cgroup of `controller`: v1 when a v1 mount carries it and
 * /proc/self/cgroup names it; else v2 when the v2 hierarchy carries it
 * (probe_v2: a file of the controller, looked for when the mount root's
 * cgroup.controllers cannot be read); else version 0. */
void gov__cg_locate(const gov_root *root, const gov_cg_text *t, const char *controller,
                    const char *probe_v2, gov_cg_loc *loc);

/* The directory of the level rel_len bytes deep into loc->rel. */
void gov__cg_level_dir(const gov_cg_loc *loc, size_t rel_len, char *dir);

/* One level up: cut the last component of rel[0..*len); false past the
 * mount root. */
bool gov__cg_up(const gov_cg_loc *loc, size_t *len);

/* The v2 pressure files of the process's own cgroup, into out's
 * has_pressure_dir, pressure_dir, pressure_dir_is_root. */
void gov__cg_pressure_dir(const gov_root *root, const gov_cg_text *t,
                          gov_cgroup_evidence *out);

/* v1 devices cgroup below the root: 1, in the root: 0, unknown (v2): -1. */
int gov__cg_devices_confined(const gov_cg_text *t);

#endif /* GOV_CGROUP_LOCATE_H */
