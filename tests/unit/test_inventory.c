/* Host inventory: hwloc on the live system, sysfs under a sysroot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hwloc.h>
#include <stdlib.h>

#include "collect/collect.h"
#include "fixture_root.h"

/* The sysfs path under a fixture, or with topo, the hwloc path. */
static void collect_with(struct hwloc_topology *topo, const char *fixture, gov_snapshot_cpu_host *inv)
{
    gov_root root = fixture_root(fixture);

    gov_inventory_collect(topo, &root, inv);
    gov_root_close(&root);
}

static void collect(const char *fixture, gov_snapshot_cpu_host *inv)
{
    collect_with(NULL, fixture, inv);
}

static void test_smt_two_sockets(void **state)
{
    gov_snapshot_cpu_host inv;

    collect(GOV_FIXTURES "/inventory/smt-2s4c2t", &inv);
    assert_int_equal(inv.logical, 16);
    assert_int_equal(inv.physical, 8);
    assert_int_equal(inv.packages, 2);
    assert_int_equal(inv.numa_nodes, 2);
    assert_int_equal(inv.online, 16);
}

static void test_offline_cpus(void **state)
{
    gov_snapshot_cpu_host inv;

    /* CPUs 6-7 offline; an older kernel with thread_siblings_list only.
     * The siblings of offline threads are still separate cores. */
    collect(GOV_FIXTURES "/inventory/offline", &inv);
    assert_int_equal(inv.online, 6);
    assert_int_equal(inv.logical, 6);
    assert_int_equal(inv.physical, 4);
    assert_int_equal(inv.packages, 1);
    assert_int_equal(inv.numa_nodes, 1);
}

static void test_this_machine_fixture(void **state)
{
    gov_snapshot_cpu_host inv;

    /* Copied from the 2-vCPU VM this project was started on. */
    collect(GOV_FIXTURES "/inventory/thismachine", &inv);
    assert_int_equal(inv.online, 2);
    assert_int_equal(inv.logical, 2);
    assert_int_equal(inv.physical, 2);
    assert_int_equal(inv.packages, 1);
    assert_int_equal(inv.numa_nodes, 1);
}

static void test_missing_tree_is_unknown(void **state)
{
    gov_snapshot_cpu_host inv;

    collect(GOV_FIXTURES "/inventory/does-not-exist", &inv);
    assert_true(inv.logical == GOV_UNKNOWN);
    assert_true(inv.physical == GOV_UNKNOWN);
    assert_true(inv.packages == GOV_UNKNOWN);
    assert_true(inv.numa_nodes == GOV_UNKNOWN);
    assert_true(inv.online == GOV_UNKNOWN);
}

static void test_missing_topology_never_derived(void **state)
{
    gov_snapshot_cpu_host inv;

    /* Online CPUs but no topology directories: logical is known, physical
     * and packages stay unknown instead of being guessed from it. */
    collect(GOV_FIXTURES "/inventory/no-topology", &inv);
    assert_int_equal(inv.logical, 4);
    assert_true(inv.physical == GOV_UNKNOWN);
    assert_true(inv.packages == GOV_UNKNOWN);
    assert_true(inv.numa_nodes == GOV_UNKNOWN);
}

/* The hwloc path, its topology pointed at a fixture (HWLOC_FSROOT), must
 * count what the sysfs path counts: both read the same topology files. */
static void test_fixtures_agree_with_hwloc(void **state)
{
    const char *fixtures[] = { GOV_FIXTURES "/inventory/smt-2s4c2t",
                               GOV_FIXTURES "/inventory/offline",
                               GOV_FIXTURES "/inventory/thismachine" };

    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        struct hwloc_topology *topo;
        gov_snapshot_cpu_host hw, fs;

        assert_int_equal(setenv("HWLOC_FSROOT", fixtures[i], 1), 0);
        assert_int_equal(setenv("HWLOC_THISSYSTEM", "0", 1), 0);
        /* The x86 backend would mix in this CPU's own caches. */
        assert_int_equal(setenv("HWLOC_COMPONENTS", "-x86", 1), 0);
        assert_int_equal(gov_inventory_load_topology(&topo), 0);
        assert_int_equal(unsetenv("HWLOC_FSROOT"), 0);
        assert_int_equal(unsetenv("HWLOC_THISSYSTEM"), 0);
        assert_int_equal(unsetenv("HWLOC_COMPONENTS"), 0);
        collect_with(topo, fixtures[i], &hw);
        collect(fixtures[i], &fs);
        hwloc_topology_destroy(topo);
        assert_true(hw.logical != GOV_UNKNOWN);
        assert_int_equal(hw.logical, fs.logical);
        assert_int_equal(hw.physical, fs.physical);
        assert_int_equal(hw.packages, fs.packages);
        assert_int_equal(hw.numa_nodes, fs.numa_nodes);
        assert_int_equal(hw.online, fs.online);
    }
}

static void test_live_hwloc_agrees_with_sysfs(void **state)
{
    struct hwloc_topology *topo;
    gov_snapshot_cpu_host hw, fs;

    assert_int_equal(gov_inventory_load_topology(&topo), 0);
    gov_inventory_collect(topo, NULL, &hw);
    gov_inventory_collect(NULL, NULL, &fs); /* no topology: sysfs path */
    hwloc_topology_destroy(topo);

    assert_true(hw.logical != GOV_UNKNOWN && hw.logical >= 1);
    assert_int_equal(hw.logical, fs.logical);
    assert_int_equal(hw.physical, fs.physical);
    assert_int_equal(hw.packages, fs.packages);
    assert_int_equal(hw.numa_nodes, fs.numa_nodes);
    assert_int_equal(hw.online, fs.online);
    assert_true(hw.physical == GOV_UNKNOWN || hw.physical <= hw.logical);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smt_two_sockets),
        cmocka_unit_test(test_offline_cpus),
        cmocka_unit_test(test_this_machine_fixture),
        cmocka_unit_test(test_missing_tree_is_unknown),
        cmocka_unit_test(test_missing_topology_never_derived),
        cmocka_unit_test(test_fixtures_agree_with_hwloc),
        cmocka_unit_test(test_live_hwloc_agrees_with_sysfs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
