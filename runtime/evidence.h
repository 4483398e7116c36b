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
#include "cgroup.h"
#include "gpu.h"
#include "slurmenv.h"
#include "sysroot.h"
#include "text.h"

#include <dirent.h>
#include <stdbool.h>
#include <sys/types.h>

/* ---- snapshot (resolve.c) ---------------------------------------------- */

/* The profile without a site policy (docs/governor.md "Profiles"): batch
 * inside a scheduler allocation, which is the job's own; the seed's
 * interactive outside any scheduler, where the host is shared. */
gov_profile gov_default_profile(const gov_snapshot *s);

/* The CPU layers that hold the process within its per-process bound
 * (.cpu.scheduler.cpus): bits (1u << GOV_LAYER_AFFINITY, _CPUSET, _QUOTA),
 * doctor.h's GOV_DOCTOR_HELD; 0 when none does or the bound is unknown. */
unsigned gov_cpu_held(const gov_snapshot *s);

/* Comma list of the layers in BITS ("affinity,cpuset"), "none" for 0. */
void gov_layers_format(unsigned bits, char *buf, size_t cap);

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

/* ---- accelerators (accel.c) ---------------------------------------------- */

/* Every field unknown; gov_accel_collect() starts from this, and
 * gov_snapshot_init() uses it.  devices_confined comes from
 * gov_accel_confinement(), once both collectors have run. */
void gov_accel_set_unknown(gov_snapshot_accel *out);
void gov_accel_collect(const gov_root *root, const char *const *envp,
                       gov_snapshot_accel *out);

/* devices_confined from the cgroup evidence (v1: a devices cgroup below
 * the root) and, on cgroup v2, from what the process observed: a GPU node
 * refused with EPERM (docs/cgroups.md, "Devices"). */
void gov_accel_confinement(gov_snapshot_accel *a, const gov_cgroup_evidence *cg);

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
