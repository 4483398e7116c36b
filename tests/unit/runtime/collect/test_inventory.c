/* Host inventory and the task's topology, read as production reads them:
 * a context on a sysroot that HWLOC_FSROOT names, so hwloc reads the
 * fixture tree; there is no second reader to agree with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>

#include "collect/collect.h"
#include "fixture_root.h"

/* Capture a snapshot of the tree at dir, hwloc pointed there. */
static void capture_tree(const char *dir, gov_snapshot *snap)
{
    gov_options o = { .sysroot = dir, .flags = GOV_OPT_NO_DESCRIPTOR };
    gov_context *ctx;

    assert_int_equal(fixture_context(&o, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, snap), 0);
    gov_context_destroy(ctx);
}

static void test_smt_two_sockets(void **state)
{
    gov_snapshot s;

    capture_tree(GOV_FIXTURES "/inventory/smt-2s4c2t", &s);
    assert_int_equal(s.cpu.host.logical, 16);
    assert_int_equal(s.cpu.host.physical, 8);
    assert_int_equal(s.cpu.host.packages, 2);
    assert_int_equal(s.cpu.host.numa_nodes, 2);
    assert_int_equal(s.cpu.host.online, 16);
    assert_int_equal(s.topology.memory_only_numa_nodes, 0);
}

static void test_offline_cpus(void **state)
{
    gov_snapshot s;

    /* CPUs 6-7 offline; an older kernel with thread_siblings_list only.
     * Offline CPUs have no topology, so hwloc counts the online ones. */
    capture_tree(GOV_FIXTURES "/inventory/offline", &s);
    assert_int_equal(s.cpu.host.online, 6);
    assert_int_equal(s.cpu.host.logical, 6);
    assert_int_equal(s.cpu.host.physical, 4);
    assert_int_equal(s.cpu.host.packages, 1);
    assert_int_equal(s.cpu.host.numa_nodes, 1);
}

static void test_this_machine_fixture(void **state)
{
    gov_snapshot s;

    /* Copied from the 2-vCPU VM this project was started on. */
    capture_tree(GOV_FIXTURES "/inventory/thismachine", &s);
    assert_int_equal(s.cpu.host.online, 2);
    assert_int_equal(s.cpu.host.logical, 2);
    assert_int_equal(s.cpu.host.physical, 2);
    assert_int_equal(s.cpu.host.packages, 1);
    assert_int_equal(s.cpu.host.numa_nodes, 1);
}

static void test_missing_tree_is_unknown(void **state)
{
    gov_snapshot s;

    capture_tree(GOV_FIXTURES "/inventory/does-not-exist", &s);
    assert_true(s.cpu.host.logical == GOV_UNKNOWN);
    assert_true(s.cpu.host.physical == GOV_UNKNOWN);
    assert_true(s.cpu.host.packages == GOV_UNKNOWN);
    assert_true(s.cpu.host.numa_nodes == GOV_UNKNOWN);
    assert_true(s.cpu.host.online == GOV_UNKNOWN);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_NONE);
}

static void test_missing_topology_never_derived(void **state)
{
    gov_snapshot s;

    /* Online CPUs but no topology directories: hwloc's Linux reader gives
     * up, and its fallback would count this machine's CPUs.  Nothing is
     * guessed: only the online count is known. */
    capture_tree(GOV_FIXTURES "/inventory/no-topology", &s);
    assert_int_equal(s.cpu.host.online, 4);
    assert_true(s.cpu.host.logical == GOV_UNKNOWN);
    assert_true(s.cpu.host.physical == GOV_UNKNOWN);
    assert_true(s.cpu.host.packages == GOV_UNKNOWN);
    assert_true(s.cpu.host.numa_nodes == GOV_UNKNOWN);
}

/* A sysroot hwloc is not pointed at: the live host's topology would be
 * another machine's, so none. */
static void test_sysroot_without_fsroot(void **state)
{
    gov_options o = { .sysroot = GOV_FIXTURES "/inventory/smt-2s4c2t",
                      .flags = GOV_OPT_NO_DESCRIPTOR };
    gov_context *ctx;
    gov_snapshot s;

    assert_int_equal(unsetenv("HWLOC_FSROOT"), 0);
    assert_int_equal(gov_context_create(&o, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, &s), 0);
    gov_context_destroy(ctx);
    assert_int_equal(s.cpu.host.online, 16);
    assert_true(s.cpu.host.logical == GOV_UNKNOWN);
    assert_true(s.cpu.host.numa_nodes == GOV_UNKNOWN);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_NONE);
}

static void test_live_host(void **state)
{
    gov_context *ctx;
    gov_snapshot s;

    assert_int_equal(gov_context_create(NULL, &ctx), 0);
    assert_int_equal(gov_snapshot_capture(ctx, &s), 0);
    gov_context_destroy(ctx);
    assert_true(s.cpu.host.logical != GOV_UNKNOWN && s.cpu.host.logical >= 1);
    assert_true(s.cpu.host.physical <= s.cpu.host.logical);
    assert_true(s.cpu.host.numa_nodes >= 1 && s.cpu.host.numa_nodes != GOV_UNKNOWN);
    /* This process's own mask on the live topology. */
    assert_int_equal(s.topology.task.pus, s.cpu.affinity.count);
    assert_true(s.topology.numa_count >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smt_two_sockets),
        cmocka_unit_test(test_offline_cpus),
        cmocka_unit_test(test_this_machine_fixture),
        cmocka_unit_test(test_missing_tree_is_unknown),
        cmocka_unit_test(test_missing_topology_never_derived),
        cmocka_unit_test(test_sysroot_without_fsroot),
        cmocka_unit_test(test_live_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
