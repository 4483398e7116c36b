/*
 * capture.h - the step's facts from the job credential, and the task's GPUs
 * (remote context) (capture.c).
 */
#ifndef GOV_SPANK_CAPTURE_H
#define GOV_SPANK_CAPTURE_H

#include "plugin.h"

/* The step's facts from the job credential (remote context,
 * once per step and node), and in *table the node's topology table for the
 * tasks' own counts (NULL without one; the caller frees it).  Returns 0 or
 * a GOV_E* code. */
int gov__capture_step(spank_t sp, const gov_spank_policy *site, gov_descriptor *out,
                      gov_topo_table **table);

/* The task's GPU facts: the grant slurmstepd wrote, checked
 * against the device nodes the task's cgroup lets root open; nodes_absent
 * (gov__capture_gpu_nodes_absent, once per step) skips the scan. */
void gov__capture_gpus(spank_t sp, bool nodes_absent, gov_descriptor *d);

/* Whether the node has no /dev/nvidiaN and no
 * /dev/dri/renderDN at all: read once per step, so that tasks on the many
 * nodes without GPUs do not scan /dev each. */
bool gov__capture_gpu_nodes_absent(void);

#endif /* GOV_SPANK_CAPTURE_H */
