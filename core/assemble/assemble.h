/*
 * assemble.h - evidence in, snapshot out (assemble.c).  Each side reads its
 * evidence into one gov_evidence: the library's capture through hwloc and a
 * root (runtime/snapshot/snapshot.c), the plugin's task about to exec
 * through the node's table and the step's reads (spank/environment.c).
 * gov__snapshot_assemble() then makes the snapshot from it, calling nothing
 * back, so both sides get one snapshot from the same rules.
 */
#ifndef GOV_ASSEMBLE_H
#define GOV_ASSEMBLE_H

#include "governor.h"
#include "base.h"
#include "descriptor.h"
#include "evidence.h"

#include <stdbool.h>

/* What one side read, part by part; gov__evidence_init() makes every part
 * unknown, and a part a side does not read stays so. */
typedef struct gov_evidence {
    uint64_t captured_ns;             /* CLOCK_MONOTONIC at capture; 0 none */
    /* The host's inventory (the library's, through hwloc); its topology
     * counts go into `topology`. */
    gov_snapshot_cpu_host host;
    /* The affinity mask: mask_count CPUs, GOV_UNKNOWN when unread. */
    gov_cpuset mask;
    uint64_t mask_count;
    /* The topology: the node's inventory (memory-only NUMA nodes) and the
     * task part, the mask counted on hwloc's topology or the plugin's
     * table. */
    gov_snapshot_topology topology;
    /* The cgroup limits (and, for the library, their usage and pressure
     * directory). */
    gov_cgroup_evidence cgroups;
    /* The host's memory, /proc/meminfo's. */
    uint64_t host_total_bytes, host_available_bytes;
    /* What only the library reads: pressure, accelerators, disk. */
    gov_snapshot_pressure pressure;
    gov_snapshot_accel accel;
    gov_snapshot_disk disk;
    /* How verifying the hand-off went (the library's); the namespaces. */
    gov_snapshot_descriptor verification;
    /* A verified descriptor: the scheduler part, the site policy and the
     * step's topology come from it. */
    bool have_descriptor;
    gov_descriptor descriptor;
    /* The GPU device nodes this process may open (gov__gpu_devices_count),
     * which confirm a version 4 descriptor's grant; false: not looked at. */
    bool have_gpu_nodes;
    gov_gpu_nodes nvidia, render;
    /* Without a descriptor: Slurm's variables (gov__slurmenv_collect). */
    gov_snapshot_scheduler variables;
    /* Strict mode (GOV_OPT_REQUIRE_DESCRIPTOR): no value the job's
     * environment gave counts, even where root sealed it. */
    bool strict;
} gov_evidence;

/* Every part unknown, no descriptor. */
void gov__evidence_init(gov_evidence *e);

/* The snapshot of e, resolved (gov_snapshot_resolve).  The task part is
 * counted before the descriptor applies: a descriptor's GPUs count as
 * local against the task's NUMA nodes. */
void gov__snapshot_assemble(const gov_evidence *e, gov_snapshot *out);

/* A descriptor's facts as out's scheduler part, its site policy and the
 * step part of its topology; the task's GPUs local to its NUMA nodes when
 * out's task part is already counted.  nvidia and render: the GPU device
 * nodes this process may open, which confirm a version 4 descriptor's
 * grant; NULL: no such evidence.  The plugin applies the step's descriptor
 * alone for what its tasks share (spank/environment.c). */
void gov__descriptor_apply(const gov_descriptor *d, const gov_gpu_nodes *nvidia,
                           const gov_gpu_nodes *render, gov_snapshot *out);

#endif /* GOV_ASSEMBLE_H */
