/* The GPU rules (core/snapshot/gpu_rules.c): which nodes stand for GPUs, what the
 * plugin seals, and DESIGN's enforcement rule, on the cases the test cluster
 * shows (tests/slurm/cases/gpu_*.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "evidence.h"

#define U GOV_UNKNOWN

static void test_kind(void **state)
{
    gov_gpu_nodes nvidia = { 6, 2, 4 }, none = { 0, 0, 0 }, render = { 4, 1, 3 };

    assert_ptr_equal(gov__gpu_kind(&nvidia, &render), &nvidia);
    assert_ptr_equal(gov__gpu_kind(&none, &render), &render);
    nvidia.total = U;
    assert_ptr_equal(gov__gpu_kind(&nvidia, &render), &render);
}

static void seal(uint64_t grant, gov_gpu_nodes dev, uint64_t want_node, bool want_verified)
{
    uint64_t node = 12345;
    bool verified = !want_verified;

    gov__gpu_seal(grant, &dev, &node, &verified);
    assert_int_equal(node, want_node);
    assert_int_equal(verified, want_verified);
}

static void test_seal(void **state)
{
    /* --gres=gpu:2 on a 4-GPU node, ConstrainDevices=yes (the other node's
     * two files are denied too): the cgroup admits exactly the grant. */
    seal(2, (gov_gpu_nodes){ 6, 2, 4 }, 2, true);
    /* No --gres: slurmstepd writes no variable; every GPU is denied. */
    seal(U, (gov_gpu_nodes){ 6, 0, 6 }, 0, true);
    /* A whole-node grant: nothing denied.  A user's own SLURM_GPUS_ON_NODE
     * on a node whose GPUs Slurm does not know looks exactly the same, so
     * it is never verified (issue 16). */
    seal(4, (gov_gpu_nodes){ 4, 4, 0 }, 4, false);
    seal(6, (gov_gpu_nodes){ 6, 6, 0 }, 6, false);
    /* ConstrainDevices=no: the variables say 2, root can open 6. */
    seal(2, (gov_gpu_nodes){ 6, 6, 0 }, 2, false);
    /* No grant and no constraint on a GPU node: unknown, never a guess. */
    seal(U, (gov_gpu_nodes){ 6, 6, 0 }, U, false);
    /* A node with no GPU device at all confirms a grant of none... */
    seal(U, (gov_gpu_nodes){ 0, 0, 0 }, 0, true);
    /* ...but not a grant of two. */
    seal(2, (gov_gpu_nodes){ 0, 0, 0 }, 2, false);
    /* v2: no readable devices cgroup, but EPERM proves a filter. */
    seal(1, (gov_gpu_nodes){ 4, 1, 3 }, 1, true);
    /* A grant the kernel does not confirm keeps the variables' count. */
    seal(3, (gov_gpu_nodes){ 6, 2, 4 }, 3, false);
    /* Devices that cannot be judged confirm nothing. */
    seal(2, (gov_gpu_nodes){ U, U, U }, 2, false);
    seal(2, (gov_gpu_nodes){ 6, U, U }, 2, false);
}

static void test_enforcement(void **state)
{
    assert_int_equal(gov__gpu_enforcement(2, &(gov_gpu_nodes){ 6, 2, 4 }, 1), GOV_ENFORCED);
    assert_int_equal(gov__gpu_enforcement(0, &(gov_gpu_nodes){ 6, 0, 6 }, 1), GOV_ENFORCED);
    assert_int_equal(gov__gpu_enforcement(1, &(gov_gpu_nodes){ 4, 1, 3 }, -1), GOV_ENFORCED);
    assert_int_equal(gov__gpu_enforcement(0, &(gov_gpu_nodes){ 0, 0, 0 }, -1), GOV_ENFORCED);
    /* Every GPU open to a grant of them all: an allowlist of the whole node
     * and none look alike under a devices cgroup (v1) or on v2. */
    assert_int_equal(gov__gpu_enforcement(4, &(gov_gpu_nodes){ 4, 4, 0 }, 1),
                     GOV_ENFORCEMENT_UNKNOWN);
    assert_int_equal(gov__gpu_enforcement(4, &(gov_gpu_nodes){ 4, 4, 0 }, -1),
                     GOV_ENFORCEMENT_UNKNOWN);
    /* ...but in v1's root devices cgroup nothing can hold it. */
    assert_int_equal(gov__gpu_enforcement(4, &(gov_gpu_nodes){ 4, 4, 0 }, 0), GOV_NOT_ENFORCED);
    /* A grant with no constraint and more GPUs than the grant. */
    assert_int_equal(gov__gpu_enforcement(2, &(gov_gpu_nodes){ 6, 6, 0 }, 0), GOV_NOT_ENFORCED);
    assert_int_equal(gov__gpu_enforcement(2, &(gov_gpu_nodes){ 6, 6, 0 }, 1), GOV_NOT_ENFORCED);
    /* A constraint that admits more than the grant. */
    assert_int_equal(gov__gpu_enforcement(1, &(gov_gpu_nodes){ 6, 2, 4 }, 1), GOV_NOT_ENFORCED);
    /* No grant known, or devices not judged. */
    assert_int_equal(gov__gpu_enforcement(U, &(gov_gpu_nodes){ 6, 0, 6 }, 1),
                     GOV_ENFORCEMENT_UNKNOWN);
    assert_int_equal(gov__gpu_enforcement(2, &(gov_gpu_nodes){ 6, U, U }, 1),
                     GOV_ENFORCEMENT_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind),
        cmocka_unit_test(test_seal),
        cmocka_unit_test(test_enforcement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
