/*
 * numa_nearest.h - which NUMA nodes are CPU NUMA nodes, one rule for the
 * plugin's node table (spank/topology/topo_hwloc.c) and the library's counts
 * (runtime/collect/topology.c), so the sealed step part and the task's own
 * part can never count differently.
 *
 * hwloc attaches every NUMA node to the object whose CPUs are near it, and
 * gives a node without CPUs of its own (GPU memory, CXL, HBM or NVDIMM
 * beside DDR) the locality of its initiators.  So a cpuset does not say
 * whether a node has CPUs.  The rule: a PU's nearest NUMA node is the first
 * NUMA node attached at its closest ancestor that has memory (through
 * memory-side caches); a CPU NUMA node is the nearest of some PU, and every
 * other NUMA node is memory-only.  Kernels number a socket's DDR before
 * the memory-only nodes near it, and hwloc keeps that order.
 *
 * Header only, on struct fields: the plugin opens hwloc with dlopen and
 * cannot call its functions directly.  Include <hwloc.h> first.
 */
#ifndef GOV_NUMA_NEAREST_H
#define GOV_NUMA_NEAREST_H

static inline hwloc_obj_t gov__numa_nearest(hwloc_obj_t pu)
{
    hwloc_obj_t o = pu;

    while (o && !o->memory_arity)
        o = o->parent;
    o = o ? o->memory_first_child : NULL;
    while (o && o->type != HWLOC_OBJ_NUMANODE)
        o = o->memory_first_child;
    return o;
}

#endif /* GOV_NUMA_NEAREST_H */
