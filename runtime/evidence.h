/*
 * evidence.h - internal interfaces of the evidence collectors.
 *
 * Each collector reads one source of evidence under a root directory and
 * fills its own plain struct; snapshot.c combines them.  Collectors never
 * fail the capture: what they cannot read stays GOV_UNKNOWN / NaN / 0.
 * Parsers of outside text are separate functions taking (text, len) so that
 * unit tests and fuzz targets call them directly.
 */
#ifndef GOV_EVIDENCE_H
#define GOV_EVIDENCE_H

#include "governor.h"
#include "text.h"

#include <dirent.h>
#include <stdbool.h>
#include <sys/types.h>

/* ---- snapshot (resolve.c) ---------------------------------------------- */

/* The profile without a site policy (docs/governor.md "Profiles"): batch
 * inside a scheduler allocation, which is the job's own; the seed's
 * interactive outside any scheduler, where the host is shared. */
gov_profile gov_default_profile(const gov_snapshot *s);

/* ---- file access under a root (sysroot.c) ------------------------------ */

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

void gov_root_open(const char *path, gov_root *out);
void gov_root_close(gov_root *r);
bool gov_root_is_live(const gov_root *r);

/* openat(2) / faccessat(2) / opendir(3) under the root: an fd or -errno,
 * 0 or -errno, a DIR or NULL with errno set. */
int gov_root_openat(const gov_root *r, const char *path, int flags);
int gov_root_access(const gov_root *r, const char *path, int mode);
DIR *gov_root_opendir(const gov_root *r, const char *path);

/* Read a file under the root into buf (NUL-terminated), at most cap-1
 * bytes.  *len gets the byte count.  Returns 0, -errno, or GOV_ENOSPC when
 * the file is larger than the buffer. */
int gov_read_file(const gov_root *r, const char *path, char *buf, size_t cap, size_t *len);

/* CLOCK_MONOTONIC in nanoseconds: what snapshots are dated with and the
 * governor's default clock. */
uint64_t gov_monotonic_ns(void);


/* ---- host inventory (inventory.c) ---------------------------------------- */

typedef struct gov_inventory {
    uint64_t logical, physical, packages, numa_nodes, online;
} gov_inventory;

/* Live system (root NULL or "/"): hwloc topology, loaded once by the context.
 * Under a sysroot: the same sysfs files hwloc reads, read directly. */
struct hwloc_topology;
int gov_inventory_load_topology(struct hwloc_topology **out);
void gov_inventory_collect(struct hwloc_topology *topo, const gov_root *root,
                           gov_inventory *out);

/* ---- affinity (affinity.c) ----------------------------------------------- */

/* sched_getaffinity on the live system; Cpus_allowed_list of
 * ROOT/proc/self/status under a sysroot.  Returns 0 or an error; on error
 * *count is GOV_UNKNOWN. */
int gov_affinity_collect(const gov_root *root, gov_cpuset *set, uint64_t *count);

/* Find "Cpus_allowed_list:" in a /proc/PID/status text. */
int gov_status_parse_cpus_allowed(const char *text, size_t len, gov_cpuset *out);

/* ---- cgroups (mountinfo.c, cgroup.c) ------------------------------------- */

typedef struct gov_mount {
    char root[1024];        /* decoded root field (4th) */
    char mount_point[1024]; /* decoded mount point (5th) */
    int version;            /* 1 or 2 */
    char options[512];      /* super options (v1: controller names) */
} gov_mount;

/* Decode mountinfo octal escapes (\040 etc.) in place; returns new length. */
size_t gov_unescape_octal(char *s, size_t len);

/* Find the cgroup mount for a controller: version 2 with controller NULL
 * gives the cgroup2 mount; version 1 the v1 mount whose options list
 * contains the controller.  Returns 0, GOV_ENOENT, GOV_EPARSE, GOV_ENOSPC
 * (a field of the matching mount does not fit gov_mount). */
int gov_mountinfo_find(const char *text, size_t len, int version,
                       const char *controller, gov_mount *out);

/* From /proc/self/cgroup, the path for a v1 controller (controller != NULL)
 * or the v2 entry "0::" (controller NULL).  Returns 0, GOV_ENOENT,
 * GOV_EPARSE, GOV_ENOSPC (the path does not fit cap). */
int gov_proc_cgroup_find(const char *text, size_t len, const char *controller,
                         char *path, size_t cap);

typedef struct gov_cgroup_evidence {
    int cpu_version;            /* version of the hierarchy used for CPU, 0 none */
    double quota_cores;         /* NaN unknown */
    gov_limit_status quota_status;
    uint64_t cpuset_count;      /* GOV_UNKNOWN when unseen */
    gov_cpuset cpuset;

    int memory_version;
    gov_limit_status memory_status;
    uint64_t limit_bytes, high_bytes;
    uint64_t current_bytes, working_set_bytes; /* of the level that binds */
    uint64_t remaining_bytes;          /* min of hard limit - working set */
    uint64_t planning_remaining_bytes; /* min of min(max, high) - working set */

    /* v2 pressure files of the process's own cgroup, when present */
    bool has_pressure_dir;
    bool pressure_dir_is_root;  /* the hierarchy's root: system-wide figures */

    int devices_confined;       /* v1 devices cgroup below the root: 1, 0, -1 */
    char pressure_dir[2048];    /* absolute path as seen inside root, without
                                 * the root prefix (read with gov_read_file(root,
                                 * ...) like every other file); never printed */
} gov_cgroup_evidence;

void gov_cgroup_collect(const gov_root *root, gov_cgroup_evidence *out);

/* Only devices_confined, for slurmstepd (reads no limit files). */
int gov_cgroup_devices_confined(const gov_root *root);

/* Per-file parsers (exposed for tests and fuzzing). */
int gov_parse_cpu_max(const char *text, size_t len, double *ratio,
                      bool *unlimited);
/* v2 memory.max/high: "max" or bytes. */
int gov_parse_memory_value(const char *text, size_t len, uint64_t *bytes,
                           bool *unlimited);
/* v1 limit_in_bytes: a value at or above the page-rounded LONG_MAX sentinel
 * for any page size counts as unlimited. */
int gov_parse_v1_limit(const char *text, size_t len, uint64_t *bytes,
                       bool *unlimited);
/* The value of "KEY VALUE\n" in a memory.stat (v1 or v2): *val points into
 * text, *vlen bytes up to the newline.  Only complete lines count, so a
 * truncated read never yields a cut-off number.  Returns 0 or GOV_ENOENT. */
int gov_memory_stat_find(const char *text, size_t len, const char *key,
                         const char **val, size_t *vlen);

/* ---- Slurm facts (slurmenv.c; descriptor.c fills the same struct) -------- */

typedef struct gov_sched_evidence {
    gov_sched_source source;    /* NONE when nothing was found */
    gov_step_kind step_kind;
    uint64_t job_id, step_id, node_index, uid; /* binding; never printed */
    uint64_t tasks_on_node, tasks_total, nodes;
    uint64_t cpus_on_node, cpus_per_task;
    uint64_t mem_per_node_bytes, mem_per_cpu_bytes;
    uint64_t gpus_on_node, gpus_per_task;
    bool gpus_verified;
} gov_sched_evidence;

/* Slurm's step ids (slurm.h, part of its protocol and the same in 22.05 and
 * 24.11), kept here so that the runtime and the plugin's parsers need no
 * Slurm header. */
#define GOV_STEP_MAX_NORMAL_ID UINT64_C(0xfffffff0)
#define GOV_STEP_INTERACTIVE_ID UINT64_C(0xfffffffa)
#define GOV_STEP_BATCH_ID UINT64_C(0xfffffffb)
#define GOV_STEP_EXTERN_ID UINT64_C(0xfffffffc)

/* The kind of a step id: normal up to GOV_STEP_MAX_NORMAL_ID, the batch,
 * extern and interactive pseudo ids, GOV_STEP_UNKNOWN for any other. */
gov_step_kind gov_step_kind_of(uint64_t step_id);

/* Read the allowlisted SLURM_* names from envp (NULL-terminated). */
void gov_slurmenv_collect(const char *const *envp, gov_sched_evidence *out);

/* Resolve a compressed Slurm count list ("1(x2),4") at index; index
 * GOV_UNKNOWN accepts only a uniform list.  Returns 0, GOV_EPARSE,
 * GOV_ERANGE (index past the list), GOV_ENOENT (not uniform, no index). */
int gov_slurm_list_resolve(const char *text, size_t len, uint64_t index,
                           uint64_t *out);

/* GPUs of the step on this node from slurmstepd's variables: the entries of
 * SLURM_STEP_GPUS ("0,1"; "" or "none": 0), else SLURM_GPUS_ON_NODE; at most
 * 1024, else GOV_UNKNOWN (any user can export either). */
uint64_t gov_slurm_gpus_on_node(const char *step_gpus, const char *gpus_on_node);

/* SLURM_GPUS_PER_TASK, "[type:]count" or a comma list of them ("a100:1,
 * v100:1"): the sum, at most 1024; GOV_UNKNOWN when malformed or NULL. */
uint64_t gov_slurm_gpus_per_task(const char *value);

/* Slurm memory quantity in MiB with an optional K/M/G/T suffix -> bytes. */
int gov_slurm_parse_mem(const char *text, size_t len, uint64_t *bytes);

/* Look up NAME in envp; returns the value or NULL. */
const char *gov_env_get(const char *const *envp, const char *name);

/* ---- accelerators (accel.c) ---------------------------------------------- */

/* GPU device nodes of one kind and what access(R_OK | W_OK) says of each:
 * usable, or denied by a device cgroup (EPERM); the rest are refused by
 * file modes.  GOV_UNKNOWN when the directory or a node cannot be judged. */
typedef struct gov_gpu_nodes {
    uint64_t total, usable, denied;
} gov_gpu_nodes;

/* ROOT/DIR/PREFIX<digits> ("/dev", "nvidia"). */
void gov_gpu_nodes_count(const gov_root *root, const char *dir, const char *prefix,
                         gov_gpu_nodes *out);

/* NVIDIA /dev/nvidiaN and DRM render nodes /dev/dri/renderD*. */
void gov_gpu_devices_count(const gov_root *root, gov_gpu_nodes *nvidia, gov_gpu_nodes *render);

/* ---- GPU rules (gpu_rules.c) --------------------------------------------- */

/* The nodes that stand for GPUs: NVIDIA's when the node has any, else the
 * DRM render nodes (AMD, Intel). */
const gov_gpu_nodes *gov_gpu_kind(const gov_gpu_nodes *nvidia, const gov_gpu_nodes *render);

/* What the plugin seals, from the grant in slurmstepd's variables
 * (GOV_UNKNOWN: none written) and the GPU nodes counted as root in the
 * task's device cgroup (confined: gov_cgroup_devices_confined).  Verified
 * when a device allowlist admits exactly the grant; *gpus_on_node is then
 * the kernel's count, else the variables' (maybe GOV_UNKNOWN). */
void gov_gpu_seal(uint64_t grant, const gov_gpu_nodes *dev, int confined,
                  uint64_t *gpus_on_node, bool *verified);

/* docs/snapshot.md's rule: enforced when a device allowlist leaves the process at
 * most its grant (or the node has no GPU node at all), not_enforced when the
 * grant is known and nothing holds, unknown without a grant. */
gov_enforcement gov_gpu_enforcement(uint64_t grant, const gov_gpu_nodes *dev, int confined);

/* Every field unknown; gov_accel_collect() starts from this, and
 * gov_snapshot_init() uses it.  devices_confined is the cgroup
 * collector's: the snapshot copies it in. */
void gov_accel_set_unknown(gov_snapshot_accel *out);
void gov_accel_collect(const gov_root *root, const char *const *envp,
                       gov_snapshot_accel *out);

/* Count the devices named by a visibility variable's value ("0,1",
 * "GPU-uuid,...", "all", "none", ""); GOV_UNKNOWN for "all". */
uint64_t gov_visible_count(const char *value);

/* ---- memory, pressure, swap (meminfo.c, pressure.c) ---------------------- */

int gov_meminfo_parse(const char *text, size_t len, uint64_t *total_bytes,
                      uint64_t *available_bytes);
void gov_meminfo_collect(const gov_root *root, uint64_t *total_bytes,
                         uint64_t *available_bytes);

/* One PSI file: "some avg10=..." and "full avg10=..." lines; NaN if absent. */
int gov_psi_parse(const char *text, size_t len, double *some_avg10,
                  double *full_avg10);
void gov_pressure_set_unknown(gov_snapshot_pressure *out);
void gov_pressure_collect(const gov_root *root, const gov_cgroup_evidence *cg,
                          gov_snapshot_pressure *out);

/* ---- disk (disk.c) ------------------------------------------------------- */

void gov_disk_set_unknown(gov_snapshot_disk *out);
void gov_disk_collect(const char *workdir, gov_snapshot_disk *out);

/* ---- descriptor (descriptor_collect.c) ----------------------------------- */

/* Absent: no status, no age. */
void gov_descriptor_set_unknown(gov_snapshot_descriptor *out);

/* Verify GOVERNOR_DESCRIPTOR from envp against the live process and fill
 * sched and policy on success; status, reason and age go into *out.
 * Nothing is looked at under a sysroot (the seal binds to the live process)
 * or with GOV_OPT_NO_DESCRIPTOR. */
void gov_descriptor_collect(const gov_options *opts, const gov_root *root,
                            const char *const *envp, gov_sched_evidence *sched,
                            gov_snapshot_descriptor *out, gov_site_policy *policy);

/* Copy a verified descriptor's facts into the collectors' structs. */
struct gov_descriptor;
void gov_descriptor_apply(const struct gov_descriptor *d, gov_sched_evidence *sched,
                          gov_site_policy *policy);

#endif /* GOV_EVIDENCE_H */
