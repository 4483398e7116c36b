/* inventory.c - host inventory: logical PUs, physical cores, packages, NUMA
 * nodes (CPU and memory-only ones apart) and online CPUs.  The host's, not
 * the process's: an entitlement is never read from here.  Physical counts
 * are counted, never derived from logical ones; what cannot be counted
 * stays GOV_UNKNOWN. */
#include "collect/collect.h"

#include <hwloc.h>
#include <string.h>

#include "numa_nearest.h"

/* Whether Linux's sysfs gave the topology.  When it cannot (a tree without
 * CPU topology), hwloc falls back to the live process's CPU count, which
 * under a sysroot is another machine's: no topology instead. */
static bool read_by_linux(hwloc_topology_t topo)
{
    const char *b = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "Backend");

    return b && !strcmp(b, "Linux");
}

int gov__inventory_load_topology(struct hwloc_topology **out)
{
    hwloc_topology_t topo;

    if (!out)
        return GOV_EINVAL;
    *out = NULL;
    if (hwloc_topology_init(&topo) < 0)
        return GOV_ENOMEM;
    /* The host inventory includes CPUs this process may not use.  Only
     * PUs, cores, packages and NUMA nodes are counted: I/O discovery costs
     * tens of milliseconds, caches and the x86 CPUID backend another
     * millisecond of a short-lived tool's start-up, and none is needed.
     * Dies and groups stay: NUMA nodes are attached to them, and without
     * them every node would hang off one parent (numa_nearest.h). */
    if (hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) < 0 ||
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_type_filter(topo, HWLOC_OBJ_MISC, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86") < 0 ||
        hwloc_topology_load(topo) < 0 || !read_by_linux(topo)) {
        hwloc_topology_destroy(topo);
        return GOV_EIO;
    }
    *out = topo;
    return 0;
}

static uint64_t hwloc_count(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);

    return n > 0 ? (uint64_t)n : GOV_UNKNOWN;
}

/* CPU NUMA nodes (numa_nearest.h) and the memory-only rest, with their
 * memory; GOV_UNKNOWN when hwloc shows no NUMA node. */
static void numa_kinds(hwloc_topology_t topo, gov_snapshot_cpu_host *host,
                       gov_snapshot_topology *t)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    uint64_t cpu_nodes = 0, mem_only = 0, mem_only_bytes = 0;
    hwloc_bitmap_t nearest;
    hwloc_obj_t pu = NULL, node;

    if (n <= 0 || !(nearest = hwloc_bitmap_alloc()))
        return;
    while ((pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu)))
        if ((node = gov__numa_nearest(pu)))
            hwloc_bitmap_set(nearest, node->logical_index);
    for (int i = 0; i < n; i++) {
        node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (hwloc_bitmap_isset(nearest, (unsigned)i)) {
            cpu_nodes++;
        } else {
            mem_only++;
            mem_only_bytes += node->attr->numanode.local_memory;
        }
    }
    hwloc_bitmap_free(nearest);
    host->numa_nodes = cpu_nodes ? cpu_nodes : GOV_UNKNOWN;
    t->memory_only_numa_nodes = mem_only;
    t->memory_only_bytes = mem_only_bytes;
}

void gov__inventory_collect(struct hwloc_topology *topo, const gov_root *root,
                            gov_snapshot_cpu_host *out, gov_snapshot_topology *t)
{
    gov_cpuset online;
    char buf[4096];
    size_t len;

    out->logical = out->physical = out->packages = GOV_UNKNOWN;
    out->numa_nodes = out->online = GOV_UNKNOWN;
    t->memory_only_numa_nodes = t->memory_only_bytes = GOV_UNKNOWN;

    if (gov__read_file(root, "/sys/devices/system/cpu/online", buf, sizeof buf, &len) == 0 &&
        gov_cpuset_parse(buf, len, &online) == 0 && gov_cpuset_count(&online))
        out->online = gov_cpuset_count(&online);

    /* The topology is hwloc's reading of the same root (the context loads
     * it); without one nothing is counted: there is no second reader. */
    if (!topo)
        return;
    out->logical = hwloc_count(topo, HWLOC_OBJ_PU);
    out->physical = hwloc_count(topo, HWLOC_OBJ_CORE);
    out->packages = hwloc_count(topo, HWLOC_OBJ_PACKAGE);
    numa_kinds(topo, out, t);
}
