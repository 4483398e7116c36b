/* What an affinity mask covers on a real node's topology (collect/
 * topology.c): hwloc's reading of machine trees, masks chosen per case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collect.h"

static struct hwloc_topology *load_tree(const char *dir)
{
    struct hwloc_topology *topo;

    assert_int_equal(setenv("HWLOC_FSROOT", dir, 1), 0);
    assert_int_equal(gov_inventory_load_topology(&topo), 0);
    assert_int_equal(unsetenv("HWLOC_FSROOT"), 0);
    return topo;
}

static void task_of(struct hwloc_topology *topo, const char *list, gov_snapshot *s)
{
    gov_cpuset mask;

    gov_snapshot_init(s);
    assert_int_equal(gov_cpuset_parse(list, strlen(list), &mask), 0);
    gov_topology_collect(topo, &mask, gov_cpuset_count(&mask), &s->topology);
}

/* smt-2s4c2t: 2 packages x 4 cores x 2 threads, siblings N and N+8,
 * NUMA node 0 = CPUs 0-3,8-11, node 1 = 4-7,12-15. */
static void test_split_and_whole_cores(void **state)
{
    struct hwloc_topology *topo = load_tree(GOV_FIXTURES "/inventory/smt-2s4c2t");
    gov_snapshot s;
    char buf[64];

    /* Both threads of cores 0 and 1. */
    task_of(topo, "0-1,8-9", &s);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_LIVE);
    assert_int_equal(s.topology.task.pus, 4);
    assert_int_equal(s.topology.task.cores, 2);
    assert_int_equal(s.topology.task_whole_cores, 2);
    assert_int_equal(s.topology.task.packages, 1);
    assert_int_equal(s.topology.task.numa_nodes, 1);
    assert_int_equal(s.topology.numa_count, 1);
    assert_int_equal(s.topology.numa[0].os_index, 0);
    assert_int_equal(s.topology.numa[0].pus, 4);
    assert_int_equal(s.topology.numa[0].cores, 2);

    /* One thread each of four cores: no whole core. */
    task_of(topo, "0-3", &s);
    assert_int_equal(s.topology.task.cores, 4);
    assert_int_equal(s.topology.task_whole_cores, 0);

    /* Across both sockets. */
    task_of(topo, "3-4,11-12", &s);
    assert_int_equal(s.topology.task.cores, 2);
    assert_int_equal(s.topology.task_whole_cores, 2);
    assert_int_equal(s.topology.task.packages, 2);
    assert_int_equal(s.topology.task.numa_nodes, 2);
    assert_int_equal(s.topology.numa_count, 2);
    assert_int_equal(s.topology.numa[1].os_index, 1);
    assert_int_equal(s.topology.numa[1].pus, 2);
    assert_true(gov_cpuset_format(&s.topology.numa[0].cpus, buf, sizeof buf) > 0);
    assert_string_equal(buf, "3,11");
    assert_true(gov_cpuset_format(&s.topology.numa[1].cpus, buf, sizeof buf) > 0);
    assert_string_equal(buf, "4,12");
    hwloc_topology_destroy(topo);
}

static void test_unknown_mask_counts_nothing(void **state)
{
    struct hwloc_topology *topo = load_tree(GOV_FIXTURES "/inventory/smt-2s4c2t");
    gov_cpuset none = { { 0 } };
    gov_snapshot s;

    gov_snapshot_init(&s);
    gov_topology_collect(topo, &none, GOV_UNKNOWN, &s.topology);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_NONE);
    assert_true(s.topology.task.pus == GOV_UNKNOWN);
    /* CPUs the node does not have. */
    task_of(topo, "100-101", &s);
    assert_true(s.topology.task.pus == GOV_UNKNOWN);
    hwloc_topology_destroy(topo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_and_whole_cores),
        cmocka_unit_test(test_unknown_mask_counts_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
