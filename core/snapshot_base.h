/*
 * snapshot_base.h - the parts of a snapshot that need no hwloc, shared by
 * libgovernor (which adds the host inventory, pressure, accelerators, disk
 * and the descriptor's verification) and governor.so (which decides a
 * task's runtime environment from them, core/runenv.c).  Collectors never
 * fail: what they cannot read stays GOV_UNKNOWN / NaN / 0.  Parsers of
 * outside text take (text, len) so that unit and fuzz tests call them.
 */
#ifndef GOV_SNAPSHOT_BASE_H
#define GOV_SNAPSHOT_BASE_H

#include "governor.h"
#include "cgroup.h"
#include "gpu.h"
#include "slurmenv.h"
#include "snapshot_fields.h"
#include "sysroot.h"
#include "text.h"

/* ---- filling parts (snapshot_fill.c) ------------------------------------- */

/* A descriptor's facts as out's scheduler part, its site policy and the
 * step part of its topology; the task's GPUs local to its NUMA nodes when
 * out's task part is already counted.  nvidia and render: the GPU device
 * nodes this process may open (gov__gpu_devices_count), which confirm a
 * version 4 descriptor's grant; NULL: no such evidence. */
struct gov_descriptor;
struct gov_gpu_nodes;
void gov__descriptor_apply(const struct gov_descriptor *d, const struct gov_gpu_nodes *nvidia,
                           const struct gov_gpu_nodes *render, gov_snapshot *out);

/* Counts an affinity mask of mask_count CPUs on the node's topology into
 * the task part of out, as gov__topology_collect counts it with hwloc; arg
 * is the caller's (the plugin's node table: gov__topo_task). */
typedef void gov_task_topology_fn(const void *arg, const gov_cpuset *mask, uint64_t mask_count,
                                  gov_snapshot_topology *out);

/* Facts read once for every task of a step (the plugin, in user_init):
 * the same in each task, so a task does not read them again.  The step's
 * cgroup limits, as slurmstepd reads them from its own cgroups: Slurm puts
 * it in the step's cgroups before user_init (v1: the step's; v2: the
 * step's "slurm" leaf beside the tasks' "user" subtree) and its tasks below
 * them, and sets limits at the step's level and above, never on a task's
 * own cgroup. */
typedef struct gov_step_reads {
    uint64_t host_total_bytes;  /* /proc/meminfo's, GOV_UNKNOWN: not read */
    uint64_t host_available_bytes;
    bool have_cgroups;          /* false: each task reads its own */
    gov_snapshot_cpu_cgroup cpu_cgroup;
    gov_snapshot_memory_cgroup memory_cgroup;
} gov_step_reads;

/* What the live process (a task about to exec) may use, from the sealed
 * descriptor d and its own affinity, cgroup limits and /proc/meminfo,
 * resolved: the library's snapshot without host inventory, cgroup usage
 * (remaining figures unknown), pressure, accelerators and disk.  topology
 * (NULL: none, the task part stays unknown) counts the affinity mask with
 * arg, before the descriptor applies, in the library's order.  step (NULL,
 * or a part not read): what is read now instead.  No hwloc, no MUNGE. */
void gov__task_snapshot(const struct gov_descriptor *d, gov_task_topology_fn *topology,
                        const void *arg, const gov_step_reads *step, gov_snapshot *out);

/* ---- affinity (affinity.c) ----------------------------------------------- */

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

/* ---- host memory (meminfo.c) --------------------------------------------- */

int gov__meminfo_parse(const char *text, size_t len, uint64_t *total_bytes,
                       uint64_t *available_bytes);
void gov__meminfo_collect(const gov_root *root, uint64_t *total_bytes,
                          uint64_t *available_bytes);

/* ---- planning (plan.c; gov_plan is public) ------------------------------- */

/* This process's share of a memory figure v: a step's memory on a node (and
 * the cgroup Slurm puts around it) is shared by the step's local tasks,
 * unless it was allocated per task (per-CPU memory) and that figure binds.
 * v itself where it is not shared or not known to be. */
uint64_t gov__memory_task_share(const gov_snapshot *s, uint64_t v);

/* ---- combining (resolve.c; gov_snapshot_resolve is public) --------------- */

/* The profile without a site policy (docs/governor.md "Profiles"): batch
 * inside a scheduler allocation, which is the job's own; the seed's
 * interactive outside any scheduler, where the host is shared. */
gov_profile gov__default_profile(const gov_snapshot *s);

/* The CPU layers that hold the process within its per-process bound
 * (.cpu.scheduler.cpus): bits (1u << GOV_LAYER_AFFINITY, _CPUSET, _QUOTA),
 * doctor.h's GOV_DOCTOR_HELD; 0 when none does or the bound is unknown. */
unsigned gov__cpu_held(const gov_snapshot *s);

#endif /* GOV_SNAPSHOT_BASE_H */
