/* What a task's affinity mask covers, counted by the plugin on its node
 * table (gov__topo_task) and by the library on hwloc's objects
 * (gov__topology_collect): the same topology part, to the byte, on the same
 * machines.  The machines are this one and the sysfs trees of real ones
 * (tests/fixtures/inventory, and hwloc's own test machines, extracted),
 * both read through HWLOC_FSROOT; the masks are whole packages and NUMA
 * nodes, split cores, pairs across packages and pseudo-random sets.  Then
 * fixed values on the XML fixtures and on a table in text, and per_core=yes
 * planned on it (the task snapshot itself: tests/unit/spank/test_environment.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collect.h"
#include "evidence.h"
#include "descriptor.h"
#include "topo.h"

/* One machine, as the library and the plugin each read it. */
struct machine {
    char root[512];             /* "" for this machine */
    const char *keep_gpu_numa;  /* HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES, or NULL */
    struct hwloc_topology *topo;
    gov_topo_table *table;
};

static void set_or_unset(const char *name, const char *value)
{
    if (value)
        assert_int_equal(setenv(name, value, 1), 0);
    else
        assert_int_equal(unsetenv(name), 0);
}

static void load(struct machine *m)
{
    set_or_unset("HWLOC_FSROOT", m->root[0] ? m->root : NULL);
    set_or_unset("HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES", m->keep_gpu_numa);
    /* On another machine's tree hwloc's x86 component would add this
     * machine's caches (the library never runs it); live, the plugin's
     * discovery runs it, as in slurmd. */
    set_or_unset("HWLOC_COMPONENTS", m->root[0] ? "-x86" : NULL);
    assert_int_equal(gov__inventory_load_topology(&m->topo), 0);
    m->table = malloc(sizeof *m->table);
    assert_non_null(m->table);
    assert_int_equal(gov__topo_discover(NULL, m->table), 0);
    set_or_unset("HWLOC_FSROOT", NULL);
    set_or_unset("HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES", NULL);
    set_or_unset("HWLOC_COMPONENTS", NULL);
}

static void add(gov_cpuset *s, unsigned cpu)
{
    s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static void from_bitmap(hwloc_const_bitmap_t b, gov_cpuset *out)
{
    int i;

    memset(out, 0, sizeof *out);
    hwloc_bitmap_foreach_begin(i, b)
        if (i < GOV_CPUSET_BITS)
            add(out, (unsigned)i);
    hwloc_bitmap_foreach_end();
}

/* Both counts of one mask of n CPUs, compared whole. */
static void same_n(const struct machine *m, const gov_cpuset *mask, uint64_t n, const char *what)
{
    static gov_snapshot lib, ours;
    char list[256];

    gov_snapshot_init(&lib);
    gov_snapshot_init(&ours);
    gov__topology_collect(m->topo, mask, n, &lib.topology);
    gov__topo_task(m->table, mask, n, &ours.topology);
    if (memcmp(&lib.topology, &ours.topology, sizeof lib.topology)) {
        if (gov_cpuset_format(mask, list, sizeof list) < 0)
            strcpy(list, "(long)");
        fail_msg("%s, %s %s: library pus %llu cores %llu whole %llu packages %llu numa %llu/%u;"
                 " table pus %llu cores %llu whole %llu packages %llu numa %llu/%u",
                 m->root[0] ? m->root : "this machine", what, list,
                 (unsigned long long)lib.topology.task.pus,
                 (unsigned long long)lib.topology.task.cores,
                 (unsigned long long)lib.topology.task_whole_cores,
                 (unsigned long long)lib.topology.task.packages,
                 (unsigned long long)lib.topology.task.numa_nodes, lib.topology.numa_count,
                 (unsigned long long)ours.topology.task.pus,
                 (unsigned long long)ours.topology.task.cores,
                 (unsigned long long)ours.topology.task_whole_cores,
                 (unsigned long long)ours.topology.task.packages,
                 (unsigned long long)ours.topology.task.numa_nodes, ours.topology.numa_count);
    }
}

static void same(const struct machine *m, const gov_cpuset *mask, const char *what)
{
    same_n(m, mask, gov_cpuset_count(mask), what);
}

static void each_object(const struct machine *m, hwloc_obj_type_t type, const char *what)
{
    gov_cpuset mask;

    for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(m->topo, type, o));) {
        from_bitmap(o->cpuset, &mask);
        same(m, &mask, what);
    }
}

static void compare(void **state)
{
    struct machine *m = *state;
    hwloc_topology_t t;
    gov_cpuset mask, other;
    uint64_t seed = 88172645463325252u;
    unsigned k = 0;

    load(m);
    t = m->topo;
    from_bitmap(hwloc_get_root_obj(t)->cpuset, &mask);
    same(m, &mask, "the whole node");
    each_object(m, HWLOC_OBJ_PACKAGE, "a package");
    each_object(m, HWLOC_OBJ_NUMANODE, "a NUMA node's locality");
    each_object(m, HWLOC_OBJ_CORE, "a core");
    each_object(m, HWLOC_OBJ_PU, "a PU");
    /* Split cores: the first PU of each, and every other PU. */
    memset(&mask, 0, sizeof mask);
    memset(&other, 0, sizeof other);
    for (hwloc_obj_t c = NULL; (c = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, c));)
        add(&mask, (unsigned)hwloc_bitmap_first(c->cpuset));
    same(m, &mask, "the first PU of each core");
    for (hwloc_obj_t p = NULL; (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PU, p));)
        if (k++ % 2 == 0)
            add(&other, p->os_index);
    same(m, &other, "every other PU");
    /* The last core of each package with the first of the next. */
    for (hwloc_obj_t c = NULL; (c = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, c));) {
        hwloc_obj_t n = c->next_cousin;
        if (!n)
            break;
        if (hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, c) ==
            hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, n))
            continue;
        from_bitmap(c->cpuset, &mask);
        from_bitmap(n->cpuset, &other);
        for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
            mask.bits[i] |= other.bits[i];
        same(m, &mask, "two cores across packages");
    }
    /* Pseudo-random masks of each density (xorshift), with a CPU the node
     * does not have. */
    for (unsigned round = 0; round < 64; round++) {
        memset(&mask, 0, sizeof mask);
        for (hwloc_obj_t p = NULL; (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PU, p));) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            if (seed % 8 <= round % 8)
                add(&mask, p->os_index);
        }
        if (round % 2)
            add(&mask, GOV_CPUSET_BITS - 1);
        same(m, &mask, "a random mask");
    }
    /* Nothing of the node's: neither side counts. */
    memset(&mask, 0, sizeof mask);
    add(&mask, GOV_CPUSET_BITS - 1);
    same(m, &mask, "a CPU the node does not have");
    from_bitmap(hwloc_get_root_obj(t)->cpuset, &mask);
    same_n(m, &mask, GOV_UNKNOWN, "an unknown mask");
    same_n(m, &mask, 0, "an empty mask");
}

static int release(void **state)
{
    struct machine *m = *state;

    if (m->topo)
        hwloc_topology_destroy(m->topo);
    free(m->table);
    m->topo = NULL;
    m->table = NULL;
    return 0;
}

/* ---- fixed values ------------------------------------------------------- */

static void task(const gov_topo_table *t, const char *list, gov_snapshot_topology *out)
{
    static gov_snapshot s;
    gov_cpuset mask;

    gov_snapshot_init(&s);
    assert_int_equal(gov_cpuset_parse(list, strlen(list), &mask), 0);
    gov__topo_task(t, &mask, gov_cpuset_count(&mask), &s.topology);
    *out = s.topology;
}

static void cpus_are(const gov_topology_numa *e, const char *want)
{
    char buf[64];

    assert_true(gov_cpuset_format(&e->cpus, buf, sizeof buf) >= 0);
    assert_string_equal(buf, want);
}

/* two-package-gpu.xml: 2 packages x 4 cores x 2 PUs (core i: PUs 2i and
 * 2i + 1), one 64 GiB NUMA node per package. */
static void test_two_packages(void **state)
{
    gov_topo_table *t = malloc(sizeof *t);
    static gov_snapshot_topology s;

    (void)state;
    assert_non_null(t);
    assert_int_equal(gov__topo_discover(GOV_FIXTURES "/topology/two-package-gpu.xml", t), 0);
    task(t, "2-5", &s);
    assert_int_equal(s.source, GOV_TOPOLOGY_SOURCE_LIVE);
    assert_int_equal(s.task.pus, 4);
    assert_int_equal(s.task.cores, 2);
    assert_int_equal(s.task_whole_cores, 2);
    assert_int_equal(s.task.packages, 1);
    assert_int_equal(s.task.numa_nodes, 1);
    assert_int_equal(s.numa_count, 1);
    assert_int_equal(s.numa[0].os_index, 0);
    assert_int_equal(s.numa[0].pus, 4);
    assert_int_equal(s.numa[0].cores, 2);
    assert_int_equal(s.numa[0].local_memory_bytes, UINT64_C(64) << 30);
    cpus_are(&s.numa[0], "2-5");
    /* One PU each of cores 3 and 4, across the packages. */
    task(t, "7-8", &s);
    assert_int_equal(s.task.pus, 2);
    assert_int_equal(s.task.cores, 2);
    assert_int_equal(s.task_whole_cores, 0);
    assert_int_equal(s.task.packages, 2);
    assert_int_equal(s.task.numa_nodes, 2);
    assert_int_equal(s.numa[1].os_index, 1);
    assert_int_equal(s.numa[1].cores, 1);
    cpus_are(&s.numa[0], "7");
    cpus_are(&s.numa[1], "8");
    /* CPUs beyond the node's count for nothing; none of its, no change. */
    task(t, "15-20", &s);
    assert_int_equal(s.task.pus, 1);
    assert_int_equal(s.task_whole_cores, 0);
    task(t, "16-20", &s);
    assert_int_equal(s.source, GOV_TOPOLOGY_SOURCE_NONE);
    assert_true(s.task.pus == GOV_UNKNOWN);
    assert_int_equal(s.numa_count, 0);
    free(t);
}

/* fakeheteromemtiers.xml: DRAM nodes 0-2 with CPUs (2 cores each), HBM and
 * NVM nodes without: the task spans the three CPU nodes only. */
static void test_memory_tiers(void **state)
{
    gov_topo_table *t = malloc(sizeof *t);
    static gov_snapshot_topology s;

    (void)state;
    assert_non_null(t);
    assert_int_equal(gov__topo_discover(GOV_FIXTURES "/topology/fakeheteromemtiers.xml", t), 0);
    task(t, "0-5", &s);
    assert_int_equal(s.task.numa_nodes, 3);
    assert_int_equal(s.numa_count, 3);
    assert_int_equal(s.numa[0].local_memory_bytes, UINT64_C(3005392) * 1024);
    assert_int_equal(s.numa[2].os_index, 2);
    assert_int_equal(s.numa[2].cores, 2);
    assert_true(s.memory_only_numa_nodes == GOV_UNKNOWN);
    free(t);
}

/* The table keeps hwloc's order of first PUs; the task part lists NUMA
 * nodes in OS order, and a node of 0 bytes has unknown memory. */
static void test_os_order(void **state)
{
    const char *text = "governor-topology/1\ncores=2\npackage=0-1\npus=1:0-1\ncore=0\ncore=1\n"
                       "numa=5:0:0\nnuma=3:7:1\n";
    gov_topo_table *t = malloc(sizeof *t);
    static gov_snapshot_topology s;

    (void)state;
    assert_non_null(t);
    assert_int_equal(gov__topo_parse(text, strlen(text), t), 0);
    task(t, "0-1", &s);
    assert_int_equal(s.numa_count, 2);
    assert_int_equal(s.numa[0].os_index, 3);
    assert_int_equal(s.numa[0].local_memory_bytes, 7);
    cpus_are(&s.numa[0], "1");
    assert_int_equal(s.numa[1].os_index, 5);
    assert_true(s.numa[1].local_memory_bytes == GOV_UNKNOWN);
    assert_int_equal(s.task_whole_cores, 2);
    free(t);
}

static const char *var(const gov_runenv *env, const char *name)
{
    for (size_t i = 0; i < env->nvars; i++)
        if (!strcmp(env->vars[i].name, name))
            return env->vars[i].value;
    return NULL;
}

/* What the plugin's flags give a task of four whole cores (8 PUs) of
 * smt-2s4c2t's table, its mask the only CPU layer: per_core=yes plans a
 * thread per core for runtimes and threads alike. */
static void test_per_core_plan(void **state)
{
    const char *text = "governor-topology/1\ncores=8\npackage=0-3\npackage=4-7\npus=2:0-7\n"
                       "core=0,8\ncore=1,9\ncore=2,10\ncore=3,11\ncore=4,12\ncore=5,13\n"
                       "core=6,14\ncore=7,15\nnuma=0:0:0-3,8-11\nnuma=1:0:4-7,12-15\n";
    static const unsigned modes[] = { 0, GOV_RUNENV_CPU_ONLY };
    gov_topo_table *t = malloc(sizeof *t);
    static gov_snapshot s;
    gov_runenv *env;

    (void)state;
    assert_non_null(t);
    assert_int_equal(gov__topo_parse(text, strlen(text), t), 0);
    gov_snapshot_init(&s);
    s.scheduler.source = GOV_SCHED_ENVIRONMENT; /* batch: nothing kept back */
    assert_int_equal(gov_cpuset_parse("0-3,8-11", 8, &s.cpu.affinity.set), 0);
    s.cpu.affinity.count = 8;
    gov__topo_task(t, &s.cpu.affinity.set, s.cpu.affinity.count, &s.topology);
    gov_snapshot_resolve(&s);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        assert_int_equal(gov_runenv_compute(&s, 0, NULL, modes[i], &env), 0);
        assert_string_equal(var(env, "OMP_NUM_THREADS"), "8");
        gov_runenv_free(env);
        assert_int_equal(gov_runenv_compute(&s, 0, NULL, modes[i] | GOV_RUNENV_PER_CORE, &env), 0);
        assert_string_equal(var(env, "OMP_NUM_THREADS"), "4");
        assert_string_equal(var(env, "GOVERNOR_THREADS"), "4");
        gov_runenv_free(env);
    }
    free(t);
}

/* ---- the machines --------------------------------------------------------- */

#define MAX_MACHINES 16

static struct machine machines[MAX_MACHINES];
static char names[MAX_MACHINES][64];
static size_t n_machines;

static struct machine *machine(const char *name)
{
    struct machine *m;

    if (n_machines == MAX_MACHINES)
        abort();
    snprintf(names[n_machines], sizeof names[0], "%s", name);
    m = &machines[n_machines++];
    memset(m, 0, sizeof *m);
    return m;
}

/* hwloc's test machines, each extracted into tmp; the NVIDIA one twice,
 * its GPU memory nodes hidden and kept. */
static void extract_trees(const char *tmp)
{
    const char *dir = GOV_FIXTURES "/topology/hwloc";
    DIR *d = opendir(dir);
    struct dirent *e;
    char cmd[1536];

    assert_non_null(d);
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        struct machine *m;
        if (n < 9 || strcmp(e->d_name + n - 8, ".tar.bz2"))
            continue;
        m = machine(e->d_name);
        snprintf(m->root, sizeof m->root, "%s/%.*s", tmp, (int)(n - 8), e->d_name);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s' && tar -xjf '%s/%s' -C '%s' --strip-components=1",
                 m->root, dir, e->d_name, m->root);
        if (system(cmd) != 0)
            abort();
        if (!strncmp(e->d_name, "nvidiagpunumanodes", 18)) {
            struct machine *kept = machine("nvidiagpunumanodes, GPU memory kept");
            memcpy(kept->root, m->root, sizeof kept->root);
            kept->keep_gpu_numa = "1";
        }
    }
    closedir(d);
}

int main(void)
{
    static struct CMUnitTest tests[MAX_MACHINES + 5];
    char tmp[] = "/tmp/gov-topo-task-XXXXXX", cmd[64];
    size_t n = 0;
    int rc;

    if (!mkdtemp(tmp))
        return 1;
    machine("this machine");
    snprintf(machine("smt-2s4c2t")->root, sizeof machines[0].root, "%s",
             GOV_FIXTURES "/inventory/smt-2s4c2t");
    snprintf(machine("offline")->root, sizeof machines[0].root, "%s",
             GOV_FIXTURES "/inventory/offline");
    extract_trees(tmp);
    for (size_t i = 0; i < n_machines; i++)
        tests[n++] = (struct CMUnitTest){ names[i], compare, NULL, release, &machines[i] };
    tests[n++] = (struct CMUnitTest){ "two packages (XML)", test_two_packages, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "memory tiers (XML)", test_memory_tiers, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "NUMA nodes in OS order", test_os_order, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "per_core=yes on the table", test_per_core_plan, NULL, NULL,
                                      NULL };
    rc = _cmocka_run_group_tests("topo_task", tests, n, NULL, NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? rc : 1;
}
