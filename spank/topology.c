/* topology.c - hwloc summary of the node, restricted to the step's cores.
 *
 * hwloc is opened with dlopen in slurmstepd only, so srun, sbatch and
 * salloc never need libhwloc (Debian's slurm-client does not pull it in);
 * the inline helpers of hwloc.h are avoided for the same reason.  A full
 * discovery with I/O devices costs tens of milliseconds on large nodes, so
 * the result is cached as XML per node and boot: DIR/topology-BOOTID.xml,
 * trusted only when root owns it and nobody else may write it. */
#include "plugin.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GOV_HWLOC_SONAME "libhwloc.so.15"
/* hwloc loads every plugin it finds at its first topology_init.  The GL and
 * OpenCL plugins pull in X11 and OpenCL libraries and only add second names
 * for GPUs that DRM already shows; the libxml2 parser is slower than hwloc's
 * own for the XML hwloc itself wrote.  Together they cost milliseconds per
 * step.  An administrator's own setting of the variable wins. */
#define GOV_HWLOC_BLACKLIST "hwloc_gl,hwloc_opencl,hwloc_xml_libxml"

struct hwloc_api {
    void *lib;
    unsigned (*get_api_version)(void);
    int (*topology_init)(hwloc_topology_t *);
    int (*topology_load)(hwloc_topology_t);
    void (*topology_destroy)(hwloc_topology_t);
    int (*set_xml)(hwloc_topology_t, const char *);
    int (*set_io_types_filter)(hwloc_topology_t, enum hwloc_type_filter_e);
    int (*export_xml)(hwloc_topology_t, const char *, unsigned long);
    int (*get_type_depth)(hwloc_topology_t, hwloc_obj_type_t);
    unsigned (*get_nbobjs_by_depth)(hwloc_topology_t, int);
    hwloc_obj_t (*get_obj_by_depth)(hwloc_topology_t, int, unsigned);
    hwloc_bitmap_t (*bitmap_alloc)(void);
    void (*bitmap_free)(hwloc_bitmap_t);
    int (*bitmap_or)(hwloc_bitmap_t, hwloc_const_bitmap_t, hwloc_const_bitmap_t);
    int (*bitmap_intersects)(hwloc_const_bitmap_t, hwloc_const_bitmap_t);
    int (*bitmap_weight)(hwloc_const_bitmap_t);
    int (*bitmap_first)(hwloc_const_bitmap_t);
};

static bool api_open(struct hwloc_api *h)
{
    struct { void **slot; const char *name; } syms[] = {
        { (void **)&h->get_api_version, "hwloc_get_api_version" },
        { (void **)&h->topology_init, "hwloc_topology_init" },
        { (void **)&h->topology_load, "hwloc_topology_load" },
        { (void **)&h->topology_destroy, "hwloc_topology_destroy" },
        { (void **)&h->set_xml, "hwloc_topology_set_xml" },
        { (void **)&h->set_io_types_filter, "hwloc_topology_set_io_types_filter" },
        { (void **)&h->export_xml, "hwloc_topology_export_xml" },
        { (void **)&h->get_type_depth, "hwloc_get_type_depth" },
        { (void **)&h->get_nbobjs_by_depth, "hwloc_get_nbobjs_by_depth" },
        { (void **)&h->get_obj_by_depth, "hwloc_get_obj_by_depth" },
        { (void **)&h->bitmap_alloc, "hwloc_bitmap_alloc" },
        { (void **)&h->bitmap_free, "hwloc_bitmap_free" },
        { (void **)&h->bitmap_or, "hwloc_bitmap_or" },
        { (void **)&h->bitmap_intersects, "hwloc_bitmap_intersects" },
        { (void **)&h->bitmap_weight, "hwloc_bitmap_weight" },
        { (void **)&h->bitmap_first, "hwloc_bitmap_first" },
    };

    memset(h, 0, sizeof *h);
    setenv("HWLOC_PLUGINS_BLACKLIST", GOV_HWLOC_BLACKLIST, 0);
    h->lib = dlopen(GOV_HWLOC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h->lib)
        return false;
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(h->lib, syms[i].name);
        if (!*syms[i].slot) {
            dlclose(h->lib);
            h->lib = NULL;
            return false;
        }
    }
    /* Objects' layout is the 2.x ABI this file was compiled against. */
    if (h->get_api_version() >> 16 != HWLOC_API_VERSION >> 16) {
        dlclose(h->lib);
        h->lib = NULL;
        return false;
    }
    return true;
}

/* A cache file is used only when root owns it and only root may write it:
 * anyone able to plant an XML there could otherwise invent hardware. */
static bool cache_trusted(const char *path)
{
    struct stat st;

    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 &&
           !(st.st_mode & (S_IWGRP | S_IWOTH));
}

static bool cache_path(const char *dir, char *out, size_t cap)
{
    char boot[64];
    size_t len, j = 0;

    if (gov_read_file(NULL, "/proc/sys/kernel/random/boot_id", boot, sizeof boot, &len))
        return false;
    /* Keep only the id's hex digits and dashes in a file name. */
    for (size_t i = 0; i < len; i++)
        if ((boot[i] >= '0' && boot[i] <= '9') || (boot[i] >= 'a' && boot[i] <= 'f') ||
            boot[i] == '-')
            boot[j++] = boot[i];
    boot[j] = '\0';
    if (j < 8)
        return false;
    return snprintf(out, cap, "%s/topology-%s.xml", dir, boot) < (int)cap;
}

static bool load(const struct hwloc_api *h, const char *xml, hwloc_topology_t *out)
{
    hwloc_topology_t t;

    if (h->topology_init(&t))
        return false;
    h->set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if ((xml && h->set_xml(t, xml)) || h->topology_load(t)) {
        h->topology_destroy(t);
        return false;
    }
    *out = t;
    return true;
}

/* Write the cache atomically: concurrent steps on the node race here. */
static void cache_store(const struct hwloc_api *h, hwloc_topology_t t, const char *path)
{
    char tmp[GOV_SPANK_POLICY_PATH_MAX + 96];

    if (snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp)
        return;
    if (h->export_xml(t, tmp, 0) == 0 && chmod(tmp, 0644) == 0 && rename(tmp, path) == 0)
        return;
    unlink(tmp);
}

static hwloc_topology_t open_topology(const struct hwloc_api *h, const char *cache_dir)
{
    char path[GOV_SPANK_POLICY_PATH_MAX + 64];
    hwloc_topology_t t;

    if (cache_dir && cache_path(cache_dir, path, sizeof path)) {
        if (cache_trusted(path) && load(h, path, &t))
            return t;
        if (!load(h, NULL, &t))
            return NULL;
        cache_store(h, t, path);
        return t;
    }
    return load(h, NULL, &t) ? t : NULL;
}

static hwloc_obj_t ancestor_of_type(hwloc_obj_t o, hwloc_obj_type_t type)
{
    while (o && o->type != type)
        o = o->parent;
    return o;
}

static void summarise(const struct hwloc_api *h, hwloc_topology_t t,
                      const gov_cpuset *cores, gov_desc_topology *out)
{
    hwloc_bitmap_t allowed = h->bitmap_alloc();
    hwloc_obj_t seen_pci[GOV_DESC_MAX_GPUS];
    gov_cpuset packages;
    int depth;
    unsigned n;

    if (!allowed)
        return;
    memset(&packages, 0, sizeof packages);
    out->cores = 0;
    /* Slurm numbers a node's cores in hwloc's logical order. */
    depth = h->get_type_depth(t, HWLOC_OBJ_CORE);
    n = depth >= 0 ? h->get_nbobjs_by_depth(t, depth) : 0;
    for (unsigned i = 0; i < n && i < GOV_CPUSET_BITS; i++) {
        hwloc_obj_t core = h->get_obj_by_depth(t, depth, i);
        hwloc_obj_t pkg;
        if (!core || !(cores->bits[i / 64] >> (i % 64) & 1u) || !core->cpuset)
            continue;
        out->cores++;
        h->bitmap_or(allowed, allowed, core->cpuset);
        pkg = ancestor_of_type(core, HWLOC_OBJ_PACKAGE);
        if (pkg && pkg->logical_index < GOV_CPUSET_BITS)
            packages.bits[pkg->logical_index / 64] |= UINT64_C(1) << (pkg->logical_index % 64);
    }
    if (out->cores == 0) {
        h->bitmap_free(allowed);
        return;
    }
    out->packages = gov_cpuset_count(&packages);
    out->pus = (uint64_t)h->bitmap_weight(allowed);
    out->numa_nodes = 0;
    n = h->get_nbobjs_by_depth(t, HWLOC_TYPE_DEPTH_NUMANODE);
    for (unsigned i = 0; i < n; i++) {
        hwloc_obj_t node = h->get_obj_by_depth(t, HWLOC_TYPE_DEPTH_NUMANODE, i);
        if (!node || !node->cpuset || !h->bitmap_intersects(node->cpuset, allowed))
            continue;
        out->numa_nodes++;
        if (out->numa_count < GOV_DESC_MAX_NUMA)
            out->numa_mem_bytes[out->numa_count++] = node->attr->numanode.local_memory;
    }
    /* One GPU per PCI device, however many OS devices (card, renderD,
     * CUDA) it shows. */
    n = h->get_nbobjs_by_depth(t, HWLOC_TYPE_DEPTH_OS_DEVICE);
    for (unsigned i = 0; i < n && out->gpu_count < GOV_DESC_MAX_GPUS; i++) {
        hwloc_obj_t os = h->get_obj_by_depth(t, HWLOC_TYPE_DEPTH_OS_DEVICE, i);
        hwloc_obj_t pci, anc;
        bool dup = false;
        uint32_t g;
        if (!os || (os->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU &&
                    os->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC))
            continue;
        pci = ancestor_of_type(os, HWLOC_OBJ_PCI_DEVICE);
        for (g = 0; g < out->gpu_count && pci; g++)
            dup = dup || seen_pci[g] == pci;
        if (dup)
            continue;
        anc = os;
        while (anc && !anc->cpuset)
            anc = anc->parent;
        g = out->gpu_count++;
        seen_pci[g] = pci;
        out->gpu_numa[g] = anc && anc->nodeset ? h->bitmap_first(anc->nodeset) : -1;
        out->gpu_local[g] = anc && h->bitmap_intersects(anc->cpuset, allowed);
    }
    out->present = true;
    h->bitmap_free(allowed);
}

void gov_topology_summarise(const char *cache_dir, const gov_cpuset *cores,
                            gov_desc_topology *out)
{
    struct hwloc_api h;
    hwloc_topology_t t;

    memset(out, 0, sizeof *out);
    out->packages = out->cores = out->pus = out->numa_nodes = GOV_UNKNOWN;
    if (!api_open(&h))
        return;
    t = open_topology(&h, cache_dir);
    if (t) {
        summarise(&h, t, cores, out);
        h.topology_destroy(t);
    }
    dlclose(h.lib);
}
