/*
 * gpu_rules.h - which GPU facts the kernel confirms (gpu_rules.c): pure
 * functions of GPU node counts, which the plugin (sealing, gpu.h counts
 * them as root in the task's device cgroup) and the snapshot
 * (enforcement, as the process) share.
 */
#ifndef GOV_GPU_RULES_H
#define GOV_GPU_RULES_H

#include "governor.h"

#include <stdbool.h>

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

#endif /* GOV_GPU_RULES_H */
