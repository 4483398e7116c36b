/*
 * evidence.h - the kernel's and Slurm's facts, read as files under a
 * root: mounts and cgroups, affinity, memory, PSI and the pressure
 * protocol, GPU device nodes, hwloc's components, Slurm's variables.
 * (numa_nearest.h stays apart: it needs <hwloc.h>, which core/ never
 * includes.)
 * One header for the room (core/evidence/); each section names its file.
 */
#ifndef GOV_EVIDENCE_H
#define GOV_EVIDENCE_H

#include "governor.h"
#include "snapshot_base.h"

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ==== sysroot.c ============================================================
 * the root every reader of /proc, /sys and /dev reads under:
 * the live system, or a tree of kernel files (tests, `governor --sysroot`).
 */
/* The root under which kernel files are read (sysroot.c): a directory
 * handle, opened once.  A NULL gov_root pointer, or one opened from NULL,
 * "" or "/", is the live system: the process's own /proc, the system calls
 * that cannot be redirected (affinity), hwloc and the descriptor's binding
 * apply there only.  Paths given to the functions below are absolute
 * inside the root ("/proc/self/cgroup"). */
typedef struct gov_root {
    int fd;      /* O_PATH directory; -1 for the live root or one that
                    cannot be opened (which reads as an empty tree) */
    bool live;
} gov_root;

void gov__root_open(const char *path, gov_root *out);
void gov__root_close(gov_root *r);
bool gov__root_is_live(const gov_root *r);

/* openat(2) / faccessat(2) / opendir(3) under the root: an fd or -errno,
 * 0 or -errno, a DIR or NULL with errno set. */
int gov__root_openat(const gov_root *r, const char *path, int flags);
int gov__root_access(const gov_root *r, const char *path, int mode);
DIR *gov__root_opendir(const gov_root *r, const char *path);

/* Read a file under the root into buf (NUL-terminated), at most cap-1
 * bytes.  *len gets the byte count.  Returns 0, -errno, or GOV_ENOSPC when
 * the file is larger than the buffer. */
int gov__read_file(const gov_root *r, const char *path, char *buf, size_t cap, size_t *len);

/* The same for the file NAME in the directory DIR ("/sys/fs/cgroup/x",
 * "memory.max"); GOV_ENOSPC too when the joined path is too long. */
int gov__read_file_in(const gov_root *r, const char *dir, const char *name, char *buf,
                      size_t cap, size_t *len);

/* Whether DIR/NAME exists under the root. */
bool gov__exists_in(const gov_root *r, const char *dir, const char *name);

/* ==== mountinfo.c, cgroup_limits.c =========================================
 * where the process's cgroups are (mountinfo.c, cgroup_locate.c)
 * and what they allow (cgroup_limits.c), for v1, v2 and hybrid hosts.
 * docs/cgroups.md.
 */
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

/* ==== cgroup_locate.c ======================================================
 * finding the process's cgroups (cgroup_locate.c), for
 * the readers of their limits (cgroup_limits.c).  Internal to core/.
 */
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

/* ==== affinity.c ===========================================================
 * the process's affinity mask (affinity.c): read, parsed from
 * /proc/PID/status under a sysroot, and narrowed.
 */
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

/* ==== meminfo.c ============================================================
 * the host's memory from /proc/meminfo (meminfo.c).  The
 * collector never fails: what it cannot read stays GOV_UNKNOWN.
 */
int gov__meminfo_parse(const char *text, size_t len, uint64_t *total_bytes,
                       uint64_t *available_bytes);
void gov__meminfo_collect(const gov_root *root, uint64_t *total_bytes,
                          uint64_t *available_bytes);

/* ==== psi.c ================================================================
 * one reader of a PSI file (/proc/pressure/memory and the others, a cgroup v2
 * *.pressure): "some avg10=0.25 avg60=0.10 avg300=0.00 total=12" and, since
 * 5.13 for cpu too, a "full" line.  The snapshot reads the averages and
 * takes what it can; the step report reads the totals and takes a file
 * only whole (GOV_PSI_STRICT).
 */
typedef struct gov_psi {
    double some_avg10, full_avg10;          /* percent; NaN when absent */
    uint64_t some_total_us, full_total_us;  /* GOV_UNKNOWN when absent */
} gov_psi;

/* Every line "some ..." or "full ...", each at most once, each with a
 * total=; and a "some" line. */
#define GOV_PSI_STRICT 0x1u

/* Parse text[0..len) under flags.  Without GOV_PSI_STRICT other lines are
 * skipped and a malformed field is absent; it fails only when no avg10 is
 * left.  On GOV_EPARSE *out holds what was read before the fault (every
 * field absent without a line).  Returns 0, GOV_EPARSE or GOV_EINVAL. */
int gov__psi_parse(const char *text, size_t len, unsigned flags, gov_psi *out);

/* ==== pressure_protocol.c ==================================================
 * systemd's pressure hand-off, which the plugin
 * writes (pressure on) and libgovernor reads: $MEMORY_PRESSURE_WATCH names
 * a PSI file to open read-write, $MEMORY_PRESSURE_WRITE the trigger to
 * write into it, base64-encoded ("some 200000 2000000": 200 ms of stall
 * in any 2 s); the CPU_ and IO_ pairs likewise.  A WATCH of "/dev/null"
 * means none, as systemd says.
 */
typedef struct gov_pressure_kind {
    const char *name;        /* memory */
    const char *watch_var;   /* MEMORY_PRESSURE_WATCH */
    const char *write_var;   /* MEMORY_PRESSURE_WRITE */
    const char *file;        /* memory.pressure, in a cgroup v2 directory */
} gov_pressure_kind;

/* memory, cpu, io: bit i of a kind mask is gov__pressure_kinds[i]. */
#define GOV_PRESSURE_KINDS 3
extern const gov_pressure_kind gov__pressure_kinds[GOV_PRESSURE_KINDS];

/* The only window an unprivileged writer may use on Linux 6.5 and later is
 * a multiple of 2 s (served by the kernel's averaging work, no real-time
 * poller); the plugin asks for the smallest. */
#define GOV_PRESSURE_WINDOW_US 2000000u

/* Room for a trigger's text and for its base64. */
#define GOV_PRESSURE_TRIGGER_MAX 64
#define GOV_PRESSURE_WRITE_MAX 96

/* Base64 (RFC 4648, padded) of the trigger "some THRESHOLD WINDOW" (us)
 * into b64.  Returns 0, GOV_EINVAL (threshold 0 or not below the window)
 * or GOV_ENOSPC. */
int gov__pressure_write_encode(uint32_t threshold_us, uint32_t window_us, char *b64, size_t cap);

/* Decode a WRITE value (base64, padding optional, no whitespace) into
 * out, NUL-terminated, *len the byte count.  The result must be a trigger
 * the kernel parses: "some" or "full", then two decimal figures, nothing
 * else (a trailing NUL or newline allowed).  Returns 0, GOV_EPARSE or
 * GOV_ENOSPC. */
int gov__pressure_write_decode(const char *b64, char *out, size_t cap, size_t *len);

/* ==== gpu_devices.c ========================================================
 * GPUs as the node shows them to a process: the device nodes it may
 * open and the visibility variables (gpu_devices.c), counted into the
 * nodes the rules take (gpu_rules.h).  The plugin counts as root in the task's cgroup, the library as the task:
 * both with these functions, so the two counts compare like with like.
 */
/* ---- device nodes and visibility variables (gpu_devices.c) --------------- */

/* Count the devices named by a visibility variable's value ("0,1",
 * "GPU-uuid,...", "all", "none", ""); GOV_UNKNOWN for "all". */
uint64_t gov__visible_count(const char *value);

/* What access(R_OK | W_OK) says of a device node (permission only, no
 * open, so no driver is woken).  A device cgroup (v1 devices.deny, v2's
 * eBPF filter) refuses with EPERM, whoever asks; file modes refuse with
 * EACCES, and never root. */
typedef enum gov_dev_access {
    GOV_DEV_USABLE,
    GOV_DEV_REFUSED,   /* by file modes, or absent */
    GOV_DEV_DENIED,    /* by a device cgroup */
    GOV_DEV_UNKNOWN,
} gov_dev_access;

/* ROOT/DIR/NAME ("/dev", "kfd"). */
gov_dev_access gov__dev_access_of(const gov_root *root, const char *dir, const char *name);

/* ROOT/DIR/PREFIX<digits> ("/dev", "nvidia"). */
void gov__gpu_nodes_count(const gov_root *root, const char *dir, const char *prefix,
                          gov_gpu_nodes *out);

/* NVIDIA /dev/nvidiaN and DRM render nodes /dev/dri/renderD*. */
void gov__gpu_devices_count(const gov_root *root, gov_gpu_nodes *nvidia, gov_gpu_nodes *render);

/* ==== hwloc_components.c ===================================================
 * the hwloc components slurm-governor never lets run,
 * in one list (hwloc_components.c).  Names only, so no hwloc header: the
 * plugin excludes them from each topology it loads (set_components; it
 * must not touch slurmstepd's environment), the tool keeps their plugin
 * libraries from being loaded at all (HWLOC_PLUGINS_BLACKLIST).  A name a
 * given hwloc lacks is refused by it and changes nothing.
 */
/* Component names, NULL-terminated. */
extern const char *const gov__hwloc_excluded[];

/* The value for HWLOC_PLUGINS_BLACKLIST: each name as its plugin,
 * "hwloc_cuda,hwloc_nvml,...", NUL-terminated in buf.  Returns the length
 * or GOV_ENOSPC. */
int gov__hwloc_plugins_blacklist(char *buf, size_t cap);

/* ==== userns.c =============================================================
 * whether this process's user namespace is the node's initial one, as the
 * kernel vouches for it: only there do owners (of a file, of a socket) say
 * who they are (docs/descriptor.md, "Threat model").
 */
typedef enum gov_vouch {
    GOV_VOUCH_UNKNOWN,   /* the kernel would not say */
    GOV_VOUCH_YES,       /* the initial user namespace */
    GOV_VOUCH_NO,        /* another one (a container's, or a user's own) */
} gov_vouch;

/* The kernel's answer: a pidfd's user namespace (Linux 6.11), else
 * /proc/self/ns/user confirmed by setns in a child (userns.c says why). */
gov_vouch gov__userns_initial(void);
/* Each way alone, for the tests. */
gov_vouch gov__userns_initial_pidfd(void);
gov_vouch gov__userns_initial_nsfs(void);

/* ==== slurmenv.c ===========================================================
 * Slurm's facts as slurmstepd states them in the task's
 * environment, and the parsers of their values (slurmenv.c); a verified
 * descriptor fills the same struct (runtime/collect/descriptor_collect.c).
 */
/* Slurm's step ids (slurm.h, part of its protocol and the same in 22.05 and
 * 24.11), kept here so that the runtime and the plugin's parsers need no
 * Slurm header. */
#define GOV_STEP_MAX_NORMAL_ID UINT64_C(0xfffffff0)
#define GOV_STEP_INTERACTIVE_ID UINT64_C(0xfffffffa)
#define GOV_STEP_BATCH_ID UINT64_C(0xfffffffb)
#define GOV_STEP_EXTERN_ID UINT64_C(0xfffffffc)

/* A step id as slurmstepd exports it (SLURM_STEP_ID): a decimal up to
 * 0xffffffff, or the same 32-bit id printed as a signed int.  Slurm 26.05
 * prints it with %d, so the pseudo ids arrive negative ("-6": the
 * interactive step); 22.05 and 24.11 print them unsigned or not at all.
 * Returns 0 or GOV_EPARSE. */
int gov__slurm_step_id_parse(const char *text, uint64_t *out);

/* The kind of a step id: normal up to GOV_STEP_MAX_NORMAL_ID, the batch,
 * extern and interactive pseudo ids, GOV_STEP_UNKNOWN for any other. */
gov_step_kind gov__step_kind_of(uint64_t step_id);

/* The source of a value the job's environment gave: ENVIRONMENT when it
 * is known, else NONE. */
gov_sched_source gov__sched_from_env(uint64_t value);

/* The scheduler part from the allowlisted SLURM_* names of envp
 * (NULL-terminated); source NONE without SLURM_JOB_ID. */
void gov__slurmenv_collect(const char *const *envp, gov_snapshot_scheduler *out);

/* Resolve a compressed Slurm count list ("1(x2),4") at index; index
 * GOV_UNKNOWN accepts only a uniform list.  Returns 0, GOV_EPARSE,
 * GOV_ERANGE (index past the list), GOV_ENOENT (not uniform, no index). */
int gov__slurm_list_resolve(const char *text, size_t len, uint64_t index,
                            uint64_t *out);

/* GPUs of the step on this node from slurmstepd's variables: the entries of
 * SLURM_STEP_GPUS ("0,1"; "" or "none": 0), else SLURM_GPUS_ON_NODE; at most
 * 1024, else GOV_UNKNOWN (any user can export either). */
uint64_t gov__slurm_gpus_on_node(const char *step_gpus, const char *gpus_on_node);

/* SLURM_GPUS_PER_TASK, "[type:]count" or a comma list of them ("a100:1,
 * v100:1"): the sum, at most 1024; GOV_UNKNOWN when malformed or NULL. */
uint64_t gov__slurm_gpus_per_task(const char *value);

/* Slurm memory quantity in MiB with an optional K/M/G/T suffix -> bytes. */
int gov__slurm_parse_mem(const char *text, size_t len, uint64_t *bytes);

#endif /* GOV_EVIDENCE_H */
