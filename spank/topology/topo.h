/*
 * topo.h - the node's topology as the plugin needs it, kept free of
 * Slurm symbols so that unit tests and fuzz targets link it directly.
 *
 * A full hwloc discovery costs milliseconds to tens of milliseconds, and
 * loading hwloc at all makes it dlopen its plugins (GL, OpenCL, vendor GPU
 * libraries).  So slurmd discovers the node once per boot (the plugin's
 * slurmd context) and writes a small table into the plugin's run
 * directory (run_dir.h); slurmstepd reads the table, summarises it for the
 * step's cores and counts each task's affinity mask on it, without loading
 * hwloc.  hwloc runs in slurmstepd only when the table
 * is missing or unusable, and then rewrites it.
 */
#ifndef GOV_SPANK_TOPO_H
#define GOV_SPANK_TOPO_H

#include "descriptor.h"

#include <stdbool.h>
#include <stddef.h>

#define GOV_TOPO_MAX_PACKAGES 64
#define GOV_TOPO_MAX_PU_GROUPS 8
#define GOV_TOPO_MAX_NUMA 64
/* Every table the encoder accepts fits: a list holds each index below
 * GOV_CPUSET_BITS at most once, in at most 5 bytes ("8191,"), so about
 * 40 kB for the lists of a partition.  Four partitions (packages, PU
 * groups, the cores' PUs, the NUMA nodes' PUs), 8192 "core=" lines and 16
 * GPU lists of 40 kB each stay under 900 kB; real nodes' ranges take a
 * few kB.  A bigger file is not ours. */
#define GOV_TOPO_MAX_BYTES (1024 * 1024)

/* The node's cores in hwloc's logical order (the order in which Slurm
 * numbers them), their PUs by OS index (the CPU numbers an affinity mask
 * holds), and which of them each package, NUMA node and GPU covers.  Big
 * (cpusets of 1 KiB each): allocate it. */
typedef struct gov_topo_table {
    uint32_t cores;                              /* cores 0 .. cores-1 */
    uint32_t n_packages;
    gov_cpuset package[GOV_TOPO_MAX_PACKAGES];   /* a partition of the cores */
    uint32_t n_pu_groups;
    struct {
        uint32_t pus;                            /* PUs of each of these cores */
        gov_cpuset cores;
    } pu_group[GOV_TOPO_MAX_PU_GROUPS];          /* a partition of the cores */
    gov_cpuset pus;                              /* every PU of the node */
    uint16_t pu_core[GOV_CPUSET_BITS];           /* each PU's core; 0 outside pus */
    uint32_t n_numa;
    struct {
        uint32_t os_index;                       /* the kernel's node number */
        uint64_t mem_bytes;
        gov_cpuset pus;                          /* the PUs it is nearest to */
    } numa[GOV_TOPO_MAX_NUMA];                   /* CPU NUMA nodes: a partition of pus */
    uint32_t n_gpus;
    struct {
        int32_t numa_os;                         /* OS index, -1 unknown */
        gov_cpuset cores;                        /* cores close to it */
    } gpu[GOV_DESC_MAX_GPUS];
} gov_topo_table;

/* ---- the table (topo_table.c) --------------------------------------------- */

/* Render as "governor-topology/1" text.  Returns the length, GOV_ENOSPC,
 * GOV_ENOMEM, or GOV_EINVAL for a table that breaks its own rules. */
int gov__topo_encode(const gov_topo_table *t, char *buf, size_t cap);

/* Parse strictly: every core in exactly one package and one PU group,
 * with as many PUs as its group says, no PU in two cores or two NUMA
 * nodes, every PU in one, every list within the cores or PUs.  Returns 0
 * or GOV_EPARSE. */
int gov__topo_parse(const char *text, size_t len, gov_topo_table *out);

/* The summary the descriptor carries, restricted to the step's cores;
 * out->present stays false when none of them exists on the node. */
void gov__topo_summarise(const gov_topo_table *t, const gov_cpuset *cores,
                         gov_desc_topology *out);

/* What an affinity mask of mask_count PUs (by OS index) covers, into out's
 * task part: packages, cores, whole cores, PUs, CPU NUMA nodes and numa[]
 * (in OS order, at most GOV_TOPOLOGY_NUMA_MAX), with source
 * GOV_TOPOLOGY_SOURCE_LIVE, counted exactly as the library counts them
 * with hwloc (gov__topology_collect, runtime/collect/topology.c).  An
 * unknown or empty mask, or one with no PU of the node, changes nothing.
 * The memory-only NUMA nodes are not in the table: they stay unknown. */
void gov__topo_task(const gov_topo_table *t, const gov_cpuset *mask, uint64_t mask_count,
                    gov_snapshot_topology *out);

/* ---- the cache file in the run directory (topo_cache.c, run_dir.h) -------- */

/* Read this boot's table (topology-BOOTID.v2) through dirfd (from
 * gov__run_dir_open()): a regular
 * file, not a link, root-owned, writable by nobody else.  Returns 0,
 * GOV_ENOENT when there is none, or another GOV_E* with *why set. */
int gov__topo_cache_load(int dirfd, gov_topo_table *t, const char **why);

/* Write this boot's table through dirfd: a new file of a random name
 * (O_EXCL, never following a link), mode 0644, renamed over the old one.
 * Returns 0 or a GOV_E* with *why set. */
int gov__topo_cache_store(int dirfd, const gov_topo_table *t, const char **why);

/* ---- discovery (topo_hwloc.c) ---------------------------------------------- */

/* Discover this node with hwloc (opened with dlopen; login nodes need not
 * have it), or load xml when given (tests), into *out.  Only hwloc's own
 * Linux, x86 and no-OS components run: vendor GPU components never start a
 * driver.  Never touches the environment.  Returns 0 or a GOV_E*. */
int gov__topo_discover(const char *xml, gov_topo_table *out);

/* ---- both together (topo_load.c) -------------------------------------------- */

/* What happened to the cache, for the caller's log. */
typedef enum gov_topo_outcome {
    GOV_TOPO_CACHED = 0,     /* read from the cache */
    GOV_TOPO_STORED,         /* discovered, and the cache written */
    GOV_TOPO_REPLACED,       /* the cached file was unusable: rewritten */
    GOV_TOPO_NO_CACHE,       /* discovered; the cache could not be used */
    GOV_TOPO_FAILED,         /* no topology at all */
} gov_topo_outcome;

typedef struct gov_topo_report {
    gov_topo_outcome outcome;
    const char *why;         /* static reason for NO_CACHE, REPLACED, FAILED */
} gov_topo_report;

/* slurmd, once per start: make sure this boot's table is in cache_dir
 * (creating the directory if needed). */
void gov__topology_prepare(const char *cache_dir, gov_topo_report *rep);

/* slurmstepd, once per step: the table in cache_dir when it holds this
 * boot's, else a discovery that then fills the cache.  cache_dir NULL: no
 * cache, discover.  The caller frees the table; NULL when there is none
 * (rep says why). */
gov_topo_table *gov__topology_load(const char *cache_dir, gov_topo_report *rep);

#endif /* GOV_SPANK_TOPO_H */
