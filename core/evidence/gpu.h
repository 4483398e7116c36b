/*
 * gpu.h - GPUs as the node shows them to a process: the device nodes it may
 * open and the visibility variables (gpu_devices.c), counted into the
 * nodes the rules take (gpu_rules.h).  The plugin counts as root in the task's cgroup, the library as the task:
 * both with these functions, so the two counts compare like with like.
 */
#ifndef GOV_GPU_H
#define GOV_GPU_H

#include "governor.h"
#include "gpu_rules.h"
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

/* ROOT/DIR/PREFIX<digits> ("/dev", "nvidia"). */
void gov__gpu_nodes_count(const gov_root *root, const char *dir, const char *prefix,
                          gov_gpu_nodes *out);

/* NVIDIA /dev/nvidiaN and DRM render nodes /dev/dri/renderD*. */
void gov__gpu_devices_count(const gov_root *root, gov_gpu_nodes *nvidia, gov_gpu_nodes *render);

#endif /* GOV_GPU_H */
