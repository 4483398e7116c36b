/*
 * snapshot_base.h - the snapshot itself: its fields, what follows from
 * them alone (resolve), and the GPU rules.
 * One header for the room (core/snapshot/); each section names its file.
 */
#ifndef GOV_SNAPSHOT_BASE_H
#define GOV_SNAPSHOT_BASE_H

#include "governor.h"
#include "base.h"

#include <stdbool.h>
#include <stddef.h>

/* ==== snapshot_fields.c =================================================
 * every field of gov_snapshot once, as a field table (base.h): its JSON
 * path and kind, so what "unknown" is for it, and its section, label and
 * unit for people.  gov_snapshot_init() and each collector's starting value
 * come from it, gov_snapshot_json() writes it, `governor snapshot` prints
 * it as text, and tests/consistency/test_snapshot_fields.sh checks that
 * docs/snapshot.md lists exactly its paths.  A new fact is a member in
 * governor.h, a row here, a row in docs/snapshot.md, and the collector that
 * fills it.
 */
/* What a GPU grant that is a share is, for people ("a quarter of a GPU
 * through gres/shard, not fenced"); NULL for whole GPUs or none. */
const char *gov__gpu_share_text(const gov_snapshot *s, char *buf, size_t cap);

/* Every field in JSON order; *count set. */
const gov_field *gov__snapshot_fields(size_t *count);

/* Set the part of a snapshot at offset (size bytes) to unknown: zero, then
 * each field's unknown value.  The part may live outside a snapshot (a
 * collector's own gov_snapshot_memory_cgroup). */
void gov__part_set_unknown(void *part, size_t offset, size_t size);

/* GOV_SET_UNKNOWN(&cg->memory, memory.cgroup): the part named as a member
 * of gov_snapshot; the pointer must be of that member's type. */
#define GOV_SET_UNKNOWN(ptr, member)                                               \
    ((void)sizeof((ptr) == &((gov_snapshot *)0)->member),                         \
     gov__part_set_unknown((ptr), offsetof(gov_snapshot, member),                   \
                           sizeof(((gov_snapshot *)0)->member)))

/* ==== gpu_rules.c =======================================================
 * which GPU facts the kernel confirms (gpu_rules.c): pure
 * functions of GPU node counts, which the plugin (sealing, gpu.h counts
 * them as root in the task's device cgroup) and the snapshot
 * (enforcement, as the process) share.
 */
/* GPU device nodes of one kind and what access(R_OK | W_OK) says of each:
 * usable, or denied by a device cgroup (EPERM); the rest are refused by
 * file modes.  GOV_UNKNOWN when the directory or a node cannot be judged. */
typedef struct gov_gpu_nodes {
    uint64_t total, usable, denied;
} gov_gpu_nodes;


/* The nodes that stand for GPUs: NVIDIA's when the node has any, else the
 * DRM render nodes (AMD, Intel). */
const gov_gpu_nodes *gov__gpu_kind(const gov_gpu_nodes *nvidia, const gov_gpu_nodes *render);

/* What the plugin seals, from the grant in slurmstepd's variables
 * (GOV_UNKNOWN: none written) and the GPU nodes counted as root in the
 * task's device cgroup.  Verified only on evidence no user can set: the
 * kernel refuses some GPU node (EPERM) and admits exactly the grant, or
 * the node has no GPU node and the grant is none.  A grant of every GPU
 * with nothing denied stays unverified (it looks like no allowlist at
 * all).  *gpus_on_node is the kernel's count when verified, else the
 * variables' (maybe GOV_UNKNOWN). */
void gov__gpu_seal(uint64_t grant, const gov_gpu_nodes *dev, uint64_t *gpus_on_node,
                   bool *verified);

/* docs/snapshot.md's rule: enforced when some GPU node is denied (EPERM)
 * and the process may open at most its grant, or the node has no GPU node
 * at all; not_enforced when it may open more than the grant, or when no
 * device cgroup exists (confined 0, gov__cgroup_devices_confined); unknown
 * without a grant, and when every GPU node is open to a grant of them all
 * under a device cgroup that may or may not list them. */
gov_enforcement gov__gpu_enforcement(uint64_t grant, const gov_gpu_nodes *dev, int confined);

/* ==== resolve.c =========================================================
 * what follows from a snapshot alone (resolve.c;
 * gov_snapshot_resolve is public): the profile without a site policy and
 * the CPU layers that hold the process.
 */
/* The profile without a site policy (docs/governor.md "Profiles"): batch
 * inside a scheduler allocation, which is the job's own; the seed's
 * interactive outside any scheduler, where the host is shared. */
gov_profile gov__default_profile(const gov_snapshot *s);

/* The CPU layers that hold the process within its per-process bound
 * (.cpu.scheduler.cpus): bits (1u << GOV_LAYER_AFFINITY, _CPUSET, _QUOTA),
 * doctor.h's GOV_DOCTOR_HELD; 0 when none does or the bound is unknown. */
unsigned gov__cpu_held(const gov_snapshot *s);

/* The unchecked parts that leave a descriptor's maker unvouched for: in a
 * user namespace of the process's own, a file's owner without root's mark,
 * munged's answer (docs/descriptor.md, "Threat model"). */
#define GOV_BINDING_MAKER_BITS ((1u << GOV_BINDING_OWNER) | (1u << GOV_BINDING_MUNGED))

/* Whether the scheduler facts are vouched for: they come from a descriptor
 * that verified with its maker checked (no "owner" or "munged" left
 * unchecked).  Only such facts stand for the budget where a cgroup
 * namespace hides the limits: a user's claim is bounded by the host. */
bool gov__scheduler_vouched(const gov_snapshot *s);

/* The memory allocation a hard limit is held to: the step's memory on the
 * node (.memory.scheduler.limit_bytes), which its tasks there share, as
 * Slurm's cgroup does; the task's per-CPU share only where that is all that
 * is known.  GOV_UNKNOWN without either. */
uint64_t gov__memory_allocation(const gov_snapshot *s);

#endif /* GOV_SNAPSHOT_BASE_H */
