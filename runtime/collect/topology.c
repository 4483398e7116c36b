/* topology.c - what the process's affinity mask covers on the node's
 * topology: PUs, cores (whole ones apart), packages, CPU NUMA nodes, and
 * per NUMA node its PUs, cores, CPUs and local memory.  Counted on hwloc's
 * topology of the same root the rest of the snapshot reads, so a fixture
 * tree and a live node are read by the same code. */
#include "collect/collect.h"
#include "base.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "numa_nearest.h"

/* Per NUMA node (by hwloc logical index) while counting. */
typedef struct numa_tally {
    uint32_t pus;
    uint64_t cores;
    unsigned last_core;   /* logical index + 1 of the last core counted */
} numa_tally;

static hwloc_obj_t ancestor(hwloc_obj_t o, hwloc_obj_type_t type)
{
    while (o && o->type != type)
        o = o->parent;
    return o;
}

/* One PU of the mask: its core, package and nearest NUMA node. */
static void count_pu(hwloc_obj_t pu, numa_tally *numa, hwloc_bitmap_t cores,
                     hwloc_bitmap_t packages, hwloc_bitmap_t nodes)
{
    hwloc_obj_t core = ancestor(pu, HWLOC_OBJ_CORE);
    hwloc_obj_t pkg = ancestor(pu, HWLOC_OBJ_PACKAGE);
    hwloc_obj_t node = gov__numa_nearest(pu);

    if (core)
        hwloc_bitmap_set(cores, core->logical_index);
    if (pkg)
        hwloc_bitmap_set(packages, pkg->logical_index);
    if (!node)
        return;
    hwloc_bitmap_set(nodes, node->logical_index);
    numa[node->logical_index].pus++;
    /* A core's PUs come one after another in logical order. */
    if (core && numa[node->logical_index].last_core != core->logical_index + 1) {
        numa[node->logical_index].cores++;
        numa[node->logical_index].last_core = core->logical_index + 1;
    }
}

static int by_os_index(const void *a, const void *b)
{
    unsigned x = (*(const hwloc_obj_t *)a)->os_index, y = (*(const hwloc_obj_t *)b)->os_index;

    return (x > y) - (x < y);
}

/* The touched NUMA nodes in OS order, at most GOV_TOPOLOGY_NUMA_MAX. */
static void list_numa(hwloc_topology_t topo, const gov_cpuset *mask, const numa_tally *numa,
                      hwloc_const_bitmap_t nodes, gov_snapshot_topology *out)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    hwloc_obj_t *sorted = n > 0 ? calloc((size_t)n, sizeof *sorted) : NULL;
    hwloc_obj_t pu = NULL;
    int k = 0;

    if (!sorted)
        return;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (hwloc_bitmap_isset(nodes, node->logical_index))
            sorted[k++] = node;
    }
    qsort(sorted, (size_t)k, sizeof *sorted, by_os_index);
    if (k > GOV_TOPOLOGY_NUMA_MAX)
        k = GOV_TOPOLOGY_NUMA_MAX;
    for (int i = 0; i < k; i++) {
        gov_topology_numa *e = &out->numa[i];
        const numa_tally *t = &numa[sorted[i]->logical_index];
        e->os_index = sorted[i]->os_index;
        e->pus = t->pus;
        e->cores = t->cores;
        e->local_memory_bytes = sorted[i]->attr->numanode.local_memory
                                    ? sorted[i]->attr->numanode.local_memory
                                    : GOV_UNKNOWN;
    }
    out->numa_count = (uint32_t)k;
    while ((pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu))) {
        hwloc_obj_t node = gov__numa_nearest(pu);
        if (!node || !gov__cpu_in(mask, pu->os_index))
            continue;
        for (int i = 0; i < k; i++)
            if (sorted[i] == node)
                gov__cpu_add(&out->numa[i].cpus, pu->os_index);
    }
    free(sorted);
}

static uint64_t count_or_unknown(hwloc_const_bitmap_t b)
{
    int w = hwloc_bitmap_weight(b);

    return w > 0 ? (uint64_t)w : GOV_UNKNOWN;
}

void gov__topology_collect(struct hwloc_topology *topo, const gov_cpuset *mask,
                           uint64_t mask_count, gov_snapshot_topology *out)
{
    hwloc_bitmap_t cores, packages, nodes;
    numa_tally *numa;
    hwloc_obj_t pu = NULL;
    uint64_t pus = 0, whole = 0;
    int n;

    if (!topo || mask_count == GOV_UNKNOWN || mask_count == 0)
        return;
    n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    cores = hwloc_bitmap_alloc();
    packages = hwloc_bitmap_alloc();
    nodes = hwloc_bitmap_alloc();
    numa = calloc(n > 0 ? (size_t)n : 1, sizeof *numa);
    if (!cores || !packages || !nodes || !numa)
        goto out;
    while ((pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu))) {
        if (!gov__cpu_in(mask, pu->os_index))
            continue;
        pus++;
        count_pu(pu, numa, cores, packages, nodes);
    }
    if (!pus)
        goto out;
    for (int i = hwloc_bitmap_first(cores); i >= 0; i = hwloc_bitmap_next(cores, i)) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
        bool all = true;
        for (int c = hwloc_bitmap_first(core->cpuset); c >= 0 && all;
             c = hwloc_bitmap_next(core->cpuset, c))
            all = gov__cpu_in(mask, (unsigned)c);
        whole += all;
    }
    out->source = GOV_TOPOLOGY_SOURCE_LIVE;
    out->task.pus = pus;
    out->task.cores = count_or_unknown(cores);
    out->task_whole_cores = out->task.cores == GOV_UNKNOWN ? GOV_UNKNOWN : whole;
    out->task.packages = count_or_unknown(packages);
    out->task.numa_nodes = count_or_unknown(nodes);
    list_numa(topo, mask, numa, nodes, out);
out:
    free(numa);
    hwloc_bitmap_free(nodes);
    hwloc_bitmap_free(packages);
    hwloc_bitmap_free(cores);
}
