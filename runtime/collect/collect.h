/*
 * collect.h - the collectors only libgovernor has (the plugin shares the
 * others from core/evidence/): host inventory through hwloc,
 * accelerators, pressure, disk, and the descriptor's verification.  Each
 * reads one source under a root directory and fills its part of the
 * snapshot; none fails the capture: what it cannot read stays GOV_UNKNOWN
 * / NaN / 0.  Parsers of outside text take (text, len) so that unit tests
 * and fuzz targets call them directly.
 */
#ifndef GOV_COLLECT_H
#define GOV_COLLECT_H

#include "assemble.h"
#include "evidence.h"
#include "snapshot_base.h"

/* ---- host inventory and topology (inventory.c, topology.c) -------------- */

/* hwloc's topology of the context's root: the live system, or a sysroot
 * that HWLOC_FSROOT names (the caller points hwloc there; see
 * gov_options.sysroot).  Loaded once by the context. */
struct hwloc_topology;
int gov__inventory_load_topology(struct hwloc_topology **out);

/* The host's counts from topo (all unknown without one) and the online
 * CPUs under root; the memory-only NUMA nodes into t. */
void gov__inventory_collect(struct hwloc_topology *topo, const gov_root *root,
                            gov_snapshot_cpu_host *out, gov_snapshot_topology *t);

/* The task part of out from the affinity mask (mask_count CPUs) on topo;
 * nothing when either is unknown.  Sets out->source to live. */
void gov__topology_collect(struct hwloc_topology *topo, const gov_cpuset *mask,
                           uint64_t mask_count, gov_snapshot_topology *out);

/* ---- accelerators (accel.c) ---------------------------------------------- */

void gov__accel_collect(const gov_root *root, const char *const *envp,
                        gov_snapshot_accel *out);

/* devices_confined from the cgroup evidence (v1: a devices cgroup below
 * the root) and, on cgroup v2, from what the process observed: a GPU node
 * refused with EPERM (docs/cgroups.md, "Devices"). */
void gov__accel_confinement(gov_snapshot_accel *a, const gov_cgroup_evidence *cg);

/* ---- pressure, swap (pressure.c) ---------------------------------------- */

void gov__pressure_collect(const gov_root *root, const gov_cgroup_evidence *cg,
                           gov_snapshot_pressure *out);

/* ---- disk (disk.c) ------------------------------------------------------- */

void gov__disk_collect(const char *workdir, gov_snapshot_disk *out);

/* ---- descriptor (descriptor_collect.c) ----------------------------------- */

/* Verify the hand-off in envp (GOVERNOR_DESCRIPTOR, GOVERNOR_DESCRIPTOR_FILE)
 * against the live process into e: how it went (status, reason, age, the
 * namespaces) in e->verification and, verified, the descriptor and the GPU
 * device nodes that confirm its grant.  Nothing is looked at under a sysroot
 * (the seal binds to the live process), nor with GOV_OPT_NO_DESCRIPTOR but
 * the namespaces. */
void gov__descriptor_collect(const gov_options *opts, const gov_root *root,
                             const char *const *envp, gov_evidence *e);

#endif /* GOV_COLLECT_H */
