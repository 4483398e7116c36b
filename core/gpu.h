/*
 * gpu.h - GPUs as the node shows them to a process: the device nodes it may
 * open and the visibility variables (gpu_devices.c), and the rules that
 * turn them into a verified count and an enforcement (gpu_rules.c).  The
 * plugin counts as root in the task's cgroup, the library as the task:
 * both with these functions, so the two counts compare like with like.
 */
#ifndef GOV_GPU_H
#define GOV_GPU_H

#include "governor.h"
#include "sysroot.h"

#include <stdbool.h>

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

/* GPU device nodes of one kind and what access(R_OK | W_OK) says of each:
 * usable, or denied by a device cgroup (EPERM); the rest are refused by
 * file modes.  GOV_UNKNOWN when the directory or a node cannot be judged. */
typedef struct gov_gpu_nodes {
    uint64_t total, usable, denied;
} gov_gpu_nodes;

/* ROOT/DIR/PREFIX<digits> ("/dev", "nvidia"). */
void gov__gpu_nodes_count(const gov_root *root, const char *dir, const char *prefix,
                          gov_gpu_nodes *out);

/* NVIDIA /dev/nvidiaN and DRM render nodes /dev/dri/renderD*. */
void gov__gpu_devices_count(const gov_root *root, gov_gpu_nodes *nvidia, gov_gpu_nodes *render);

/* ---- GPU rules (gpu_rules.c) --------------------------------------------- */

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

#endif /* GOV_GPU_H */
