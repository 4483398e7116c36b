/* topo_hwloc.c - discover the node with hwloc and build its table.
 *
 * hwloc is opened with dlopen, so srun, sbatch and salloc never need
 * libhwloc (Debian's slurm-client does not pull it in); the inline helpers
 * of hwloc.h are avoided for the same reason.  Nothing here touches the
 * environment: slurmd and slurmstepd are multi-threaded and load hwloc for
 * themselves, so a variable set here would outlive this call and change
 * them.  Components are chosen per topology through the API instead. */
#include "topo.h"
#include "base.h"
#include "evidence.h"

#include <dlfcn.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "numa_nearest.h"


/* GOV_HWLOC_SONAME, the name dlopen takes: spank/meson.build reads it from
 * the hwloc the build compiles against. */

struct hwloc_api {
    void *lib;
    unsigned (*get_api_version)(void);
    int (*topology_init)(hwloc_topology_t *);
    int (*topology_load)(hwloc_topology_t);
    void (*topology_destroy)(hwloc_topology_t);
    int (*set_xml)(hwloc_topology_t, const char *);
    int (*set_flags)(hwloc_topology_t, unsigned long);
    int (*set_components)(hwloc_topology_t, unsigned long, const char *);
    int (*set_io_types_filter)(hwloc_topology_t, enum hwloc_type_filter_e);
    int (*get_type_depth)(hwloc_topology_t, hwloc_obj_type_t);
    unsigned (*get_nbobjs_by_depth)(hwloc_topology_t, int);
    hwloc_obj_t (*get_obj_by_depth)(hwloc_topology_t, int, unsigned);
    int (*bitmap_intersects)(hwloc_const_bitmap_t, hwloc_const_bitmap_t);
    int (*bitmap_weight)(hwloc_const_bitmap_t);
    int (*bitmap_first)(hwloc_const_bitmap_t);
    int (*bitmap_next)(hwloc_const_bitmap_t, int);
};

static bool api_open(struct hwloc_api *h)
{
    struct { void **slot; const char *name; } syms[] = {
        { (void **)&h->get_api_version, "hwloc_get_api_version" },
        { (void **)&h->topology_init, "hwloc_topology_init" },
        { (void **)&h->topology_load, "hwloc_topology_load" },
        { (void **)&h->topology_destroy, "hwloc_topology_destroy" },
        { (void **)&h->set_xml, "hwloc_topology_set_xml" },
        { (void **)&h->set_flags, "hwloc_topology_set_flags" },
        { (void **)&h->set_components, "hwloc_topology_set_components" },
        { (void **)&h->set_io_types_filter, "hwloc_topology_set_io_types_filter" },
        { (void **)&h->get_type_depth, "hwloc_get_type_depth" },
        { (void **)&h->get_nbobjs_by_depth, "hwloc_get_nbobjs_by_depth" },
        { (void **)&h->get_obj_by_depth, "hwloc_get_obj_by_depth" },
        { (void **)&h->bitmap_intersects, "hwloc_bitmap_intersects" },
        { (void **)&h->bitmap_weight, "hwloc_bitmap_weight" },
        { (void **)&h->bitmap_first, "hwloc_bitmap_first" },
        { (void **)&h->bitmap_next, "hwloc_bitmap_next" },
    };

    memset(h, 0, sizeof *h);
    h->lib = dlopen(GOV_HWLOC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h->lib)
        return false;
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(h->lib, syms[i].name);
        if (!*syms[i].slot)
            goto fail;
    }
    /* Objects' layout is the 2.x ABI this file was compiled against;
     * set_components and INCLUDE_DISALLOWED need 2.1. */
    if (h->get_api_version() >> 16 == HWLOC_API_VERSION >> 16 &&
        h->get_api_version() >= 0x20100)
        return true;
fail:
    dlclose(h->lib);
    h->lib = NULL;
    return false;
}

static bool load(const struct hwloc_api *h, const char *xml, hwloc_topology_t *out)
{
    hwloc_topology_t t;

    if (h->topology_init(&t))
        return false;
    /* hwloc's API can only exclude discovery components, by name; the
     * project's one list says which and why. */
    for (const char *const *n = gov__hwloc_excluded; *n; n++)
        h->set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, *n);
    /* The whole node, whatever cgroup the discovering process is in:
     * Slurm's core indexes count every core. */
    h->set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    h->set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if ((xml && h->set_xml(t, xml)) || h->topology_load(t)) {
        h->topology_destroy(t);
        return false;
    }
    *out = t;
    return true;
}

static hwloc_obj_t ancestor_of_type(hwloc_obj_t o, hwloc_obj_type_t type)
{
    while (o && o->type != type)
        o = o->parent;
    return o;
}

/* The cores whose PUs meet cpuset. */
static void cores_meeting(const struct hwloc_api *h, hwloc_topology_t t, int depth,
                          unsigned n, hwloc_const_bitmap_t cpuset, gov_cpuset *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; cpuset && i < n; i++) {
        hwloc_obj_t core = h->get_obj_by_depth(t, depth, i);
        if (core && core->cpuset && h->bitmap_intersects(core->cpuset, cpuset))
            gov__cpu_add(out, i);
    }
}

/* Core i's PUs, by OS index: none beyond what a gov_cpuset holds, none
 * on two cores. */
static bool core_pus(const struct hwloc_api *h, hwloc_const_bitmap_t cpuset, unsigned i,
                     gov_topo_table *out)
{
    for (int p = h->bitmap_first(cpuset); p >= 0; p = h->bitmap_next(cpuset, p)) {
        unsigned pu = (unsigned)p;
        if (pu >= GOV_CPUSET_BITS || gov__cpu_in(&out->pus, pu))
            return false;
        gov__cpu_add(&out->pus, pu);
        out->pu_core[pu] = (uint16_t)i;
    }
    return true;
}

/* Cores, by package and PU count, with their PUs. */
static bool build_cores(const struct hwloc_api *h, hwloc_topology_t t, int depth, unsigned n,
                        gov_topo_table *out)
{
    hwloc_obj_t pkgs[GOV_TOPO_MAX_PACKAGES];

    out->cores = n;
    for (unsigned i = 0; i < n; i++) {
        hwloc_obj_t core = h->get_obj_by_depth(t, depth, i);
        hwloc_obj_t pkg = core ? ancestor_of_type(core, HWLOC_OBJ_PACKAGE) : NULL;
        uint32_t k, pus = core && core->cpuset ? (uint32_t)h->bitmap_weight(core->cpuset) : 0;
        if (!pus || !core_pus(h, core->cpuset, i, out))
            return false;
        for (k = 0; k < out->n_packages && pkgs[k] != pkg; k++)
            ;
        if (k == out->n_packages) {
            if (k == GOV_TOPO_MAX_PACKAGES)
                return false;
            pkgs[out->n_packages++] = pkg;
        }
        gov__cpu_add(&out->package[k], i);
        for (k = 0; k < out->n_pu_groups && out->pu_group[k].pus != pus; k++)
            ;
        if (k == out->n_pu_groups) {
            if (k == GOV_TOPO_MAX_PU_GROUPS)
                return false;
            out->pu_group[out->n_pu_groups++].pus = pus;
        }
        gov__cpu_add(&out->pu_group[k].cores, i);
    }
    return true;
}

/* One GPU per PCI device, however many OS devices (card, renderD) it
 * shows, with its NUMA node and the cores close to it. */
static void build_gpus(const struct hwloc_api *h, hwloc_topology_t t, int depth, unsigned n,
                       gov_topo_table *out)
{
    hwloc_obj_t seen_pci[GOV_DESC_MAX_GPUS];
    unsigned m = h->get_nbobjs_by_depth(t, HWLOC_TYPE_DEPTH_OS_DEVICE);

    for (unsigned i = 0; i < m && out->n_gpus < GOV_DESC_MAX_GPUS; i++) {
        hwloc_obj_t os = h->get_obj_by_depth(t, HWLOC_TYPE_DEPTH_OS_DEVICE, i);
        hwloc_obj_t pci, anc;
        bool dup = false;
        uint32_t g;
        if (!os || (os->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU &&
                    os->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC))
            continue;
        pci = ancestor_of_type(os, HWLOC_OBJ_PCI_DEVICE);
        for (g = 0; g < out->n_gpus && pci; g++)
            dup = dup || seen_pci[g] == pci;
        if (dup)
            continue;
        anc = os;
        while (anc && !anc->cpuset)
            anc = anc->parent;
        g = out->n_gpus++;
        seen_pci[g] = pci;
        out->gpu[g].numa_os = anc && anc->nodeset ? h->bitmap_first(anc->nodeset) : -1;
        cores_meeting(h, t, depth, n, anc ? anc->cpuset : NULL, &out->gpu[g].cores);
    }
}

/* The CPU NUMA nodes (numa_nearest.h), in the order of their first PUs,
 * each with its OS index and the PUs that have it as their nearest;
 * memory-only nodes are left out, so a step never counts GPU memory or CXL
 * as a NUMA domain. */
static bool build_numa(const struct hwloc_api *h, hwloc_topology_t t, gov_topo_table *out)
{
    int pu_depth = h->get_type_depth(t, HWLOC_OBJ_PU);
    unsigned m = h->get_nbobjs_by_depth(t, HWLOC_TYPE_DEPTH_NUMANODE);
    unsigned pus = pu_depth >= 0 ? h->get_nbobjs_by_depth(t, pu_depth) : 0;
    int entry[GOV_TOPO_MAX_NUMA];

    if (m > GOV_TOPO_MAX_NUMA)
        return false;
    for (unsigned i = 0; i < m; i++)
        entry[i] = -1;
    for (unsigned i = 0; i < pus; i++) {
        hwloc_obj_t pu = h->get_obj_by_depth(t, pu_depth, i);
        hwloc_obj_t node = pu ? gov__numa_nearest(pu) : NULL;
        /* Every PU object is a PU of a core (build_cores), and the other
         * way round (the count below). */
        if (!node || node->logical_index >= m || pu->os_index >= GOV_CPUSET_BITS ||
            !gov__cpu_in(&out->pus, pu->os_index))
            return false;
        if (entry[node->logical_index] < 0) {
            entry[node->logical_index] = (int)out->n_numa;
            out->numa[out->n_numa].os_index = node->os_index;
            out->numa[out->n_numa++].mem_bytes = node->attr->numanode.local_memory;
        }
        gov__cpu_add(&out->numa[entry[node->logical_index]].pus, pu->os_index);
    }
    return out->n_numa > 0 && pus == gov_cpuset_count(&out->pus);
}

static bool build(const struct hwloc_api *h, hwloc_topology_t t, gov_topo_table *out)
{
    int depth = h->get_type_depth(t, HWLOC_OBJ_CORE);
    unsigned n = depth >= 0 ? h->get_nbobjs_by_depth(t, depth) : 0;

    memset(out, 0, sizeof *out);
    if (n == 0 || n > GOV_CPUSET_BITS || !build_cores(h, t, depth, n, out))
        return false;
    if (!build_numa(h, t, out))
        return false;
    build_gpus(h, t, depth, n, out);
    return true;
}

int gov__topo_discover(const char *xml, gov_topo_table *out)
{
    struct hwloc_api h;
    hwloc_topology_t t;
    int rc = GOV_EIO;

    memset(out, 0, sizeof *out);
    if (!api_open(&h))
        return GOV_ENOTSUP;
    if (load(&h, xml, &t)) {
        rc = build(&h, t, out) ? 0 : GOV_ERANGE;
        h.topology_destroy(t);
    }
    dlclose(h.lib);
    return rc;
}
