/* inventory.c - host inventory: logical PUs, physical cores, packages, NUMA
 * nodes and online CPUs.  The host's, not the process's: an entitlement is
 * never read from here.  Physical counts are counted, never derived from
 * logical ones; what cannot be counted stays GOV_UNKNOWN. */
#include "collect.h"

#include <hwloc.h>
#include <stdio.h>
#include <string.h>

int gov_inventory_load_topology(struct hwloc_topology **out)
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
     * millisecond of a short-lived tool's start-up, and none is needed. */
    if (hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) < 0 ||
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_type_filter(topo, HWLOC_OBJ_DIE, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_type_filter(topo, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_type_filter(topo, HWLOC_OBJ_MISC, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
        hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86") < 0 ||
        hwloc_topology_load(topo) < 0) {
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

/* Read a CPU list file under root; 0 or an error. */
static int read_cpulist(const gov_root *root, const char *path, gov_cpuset *set)
{
    char buf[4096];
    size_t len;
    int rc = gov_read_file(root, path, buf, sizeof buf, &len);

    return rc ? rc : gov_cpuset_parse(buf, len, set);
}

static bool has_cpu(const gov_cpuset *s, uint64_t cpu)
{
    return (s->bits[cpu / 64] >> (cpu % 64)) & 1u;
}

static uint64_t lowest_cpu(const gov_cpuset *s)
{
    for (uint64_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        if (s->bits[i])
            return i * 64 + (uint64_t)__builtin_ctzll(s->bits[i]);
    return GOV_UNKNOWN;
}

/* A core is counted once, at its lowest online thread; the sibling list
 * must contain the CPU itself or the topology is not trusted. */
static int core_leader(const gov_root *root, uint64_t cpu, const gov_cpuset *online,
                       bool *leader)
{
    char path[128];
    gov_cpuset sib;
    int rc;

    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu%llu/topology/core_cpus_list",
             (unsigned long long)cpu);
    rc = read_cpulist(root, path, &sib);
    if (rc == GOV_ENOENT) {
        /* Kernels before 5.7 name it thread_siblings_list. */
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu%llu/topology/thread_siblings_list",
                 (unsigned long long)cpu);
        rc = read_cpulist(root, path, &sib);
    }
    if (rc)
        return rc;
    if (!has_cpu(&sib, cpu))
        return GOV_EPARSE;
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        sib.bits[i] &= online->bits[i];
    *leader = lowest_cpu(&sib) == cpu;
    return 0;
}

static int package_id(const gov_root *root, uint64_t cpu, uint64_t *id)
{
    char path[128], buf[64];
    size_t len;
    int rc;

    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu%llu/topology/physical_package_id",
             (unsigned long long)cpu);
    rc = gov_read_file(root, path, buf, sizeof buf, &len);
    /* "-1" (no package information, some VMs) fails to parse: unknown. */
    return rc ? rc : gov_parse_u64(buf, len, id);
}

static void sysfs_collect(const gov_root *root, const gov_cpuset *online,
                          gov_snapshot_cpu_host *out)
{
    uint64_t cores = 0, npkg = 0;
    uint64_t pkgs[256];
    bool cores_ok = true, pkgs_ok = true;

    for (uint64_t cpu = 0; cpu < GOV_CPUSET_BITS && (cores_ok || pkgs_ok); cpu++) {
        bool leader, seen = false;
        uint64_t id;

        if (!has_cpu(online, cpu))
            continue;
        if (cores_ok) {
            if (core_leader(root, cpu, online, &leader))
                cores_ok = false;
            else
                cores += leader;
        }
        if (!pkgs_ok)
            continue;
        if (package_id(root, cpu, &id)) {
            pkgs_ok = false;
            continue;
        }
        for (uint64_t i = 0; i < npkg && !seen; i++)
            seen = pkgs[i] == id;
        if (!seen) {
            if (npkg == sizeof pkgs / sizeof pkgs[0])
                pkgs_ok = false;
            else
                pkgs[npkg++] = id;
        }
    }
    out->physical = cores_ok && cores ? cores : GOV_UNKNOWN;
    out->packages = pkgs_ok && npkg ? npkg : GOV_UNKNOWN;
}

void gov_inventory_collect(struct hwloc_topology *topo, const gov_root *root,
                           gov_snapshot_cpu_host *out)
{
    gov_cpuset online, nodes;
    bool have_online;

    out->logical = out->physical = out->packages = GOV_UNKNOWN;
    out->numa_nodes = out->online = GOV_UNKNOWN;

    have_online = read_cpulist(root, "/sys/devices/system/cpu/online", &online) == 0;
    if (have_online && gov_cpuset_count(&online))
        out->online = gov_cpuset_count(&online);

    /* A topology is hwloc's view of the root: the context loads one for
     * the live system, the tests one for a fixture (HWLOC_FSROOT). */
    if (topo) {
        out->logical = hwloc_count(topo, HWLOC_OBJ_PU);
        out->physical = hwloc_count(topo, HWLOC_OBJ_CORE);
        out->packages = hwloc_count(topo, HWLOC_OBJ_PACKAGE);
        out->numa_nodes = hwloc_count(topo, HWLOC_OBJ_NUMANODE);
        return;
    }

    /* Without one (a sysroot: a library must not set HWLOC_FSROOT, which is
     * process-wide), read the files hwloc reads.  Like hwloc, count online
     * CPUs only (offline ones have no topology). */
    if (out->online == GOV_UNKNOWN)
        return;
    out->logical = out->online;
    sysfs_collect(root, &online, out);
    if (read_cpulist(root, "/sys/devices/system/node/online", &nodes) == 0 &&
        gov_cpuset_count(&nodes))
        out->numa_nodes = gov_cpuset_count(&nodes);
}
