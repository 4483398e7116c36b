/*
 * task_snapshot.h - a snapshot assembled without hwloc (task_snapshot.c):
 * a descriptor's facts applied to a snapshot (the library's snapshot does
 * this too), and the whole snapshot of a task about to exec, which the
 * plugin decides the task's runtime variables from (core/decide/runenv.c).
 * The library's own assembler (runtime/snapshot/snapshot.c) adds the host
 * inventory, pressure, accelerators, disk and the descriptor's
 * verification; both call the collectors in the same order.
 */
#ifndef GOV_TASK_SNAPSHOT_H
#define GOV_TASK_SNAPSHOT_H

#include "governor.h"
#include "base.h"
#include "evidence.h"

#include <stdbool.h>

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

/* How one side reads each part of a snapshot: gov__snapshot_assemble()
 * calls the hooks in the one order the library's capture and the plugin's
 * task snapshot share.  A NULL hook leaves its part unknown. */
struct gov_cgroup_evidence;
typedef struct gov_assembly {
    void *arg;              /* given to every hook */
    const gov_root *root;   /* the affinity's sysroot; NULL: the live system */
    /* The host's inventory (the library's, through hwloc). */
    void (*inventory)(void *arg, gov_snapshot *out);
    /* The task part, from the affinity mask just read. */
    void (*topology)(void *arg, const gov_cpuset *mask, uint64_t mask_count,
                     gov_snapshot_topology *out);
    /* The cgroup limits; cg (zeroed) also goes to the rest. */
    void (*cgroups)(void *arg, struct gov_cgroup_evidence *cg);
    /* The scheduler part and site policy: a descriptor, or the variables. */
    void (*scheduler)(void *arg, gov_snapshot *out);
    /* The host's memory. */
    void (*host_memory)(void *arg, gov_snapshot *out);
    /* What only the library reads: pressure, accelerators, disk. */
    void (*rest)(void *arg, const struct gov_cgroup_evidence *cg, gov_snapshot *out);
} gov_assembly;

/* Fill out (from gov_snapshot_init(), the caller's): the affinity mask, inventory,
 * topology, cgroups, scheduler, host memory and the rest, and resolve.
 * The task part comes before the scheduler part: a descriptor's GPUs count
 * as local against the task's NUMA nodes. */
void gov__snapshot_assemble(const gov_assembly *a, gov_snapshot *out);

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

#endif /* GOV_TASK_SNAPSHOT_H */
