/*
 * capture.h - the step's facts from the job credential, and its GPUs
 * (remote context) (capture.c).
 */
#ifndef GOV_SPANK_CAPTURE_H
#define GOV_SPANK_CAPTURE_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"
#include "topo.h"

/* The step's facts from the job credential (remote context,
 * once per step and node) and its GPUs from the variables slurmstepd
 * wrote, and in *table the node's topology table for the
 * tasks' own counts (NULL without one; the caller frees it).  Returns 0 or
 * a GOV_E* code. */
int gov__capture_step(spank_t sp, const gov_spank_policy *site, gov_descriptor *out,
                      gov_topo_table **table);

#endif /* GOV_SPANK_CAPTURE_H */
