/* gres.conf as Slurm's documentation writes it (gres.conf(5), gres.html):
 * this node's GPUs by their files' numbers, their types and MIG
 * instances, and the gres/shard and gres/mps counts on each, per GPU or
 * split evenly; another node's lines, comments, other gres and keys in
 * another case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "parse.h"

static gov_gres_node node;

static void parse(const char *text, const char *name)
{
    assert_int_equal(gov__gres_conf_parse(text, strlen(text), name, &node), 0);
}

static void test_per_gpu(void **state)
{
    (void)state;
    /* What tests/slurm/cluster.sh writes, and gres.html's examples 2. */
    parse("NodeName=node1 Name=gpu File=/dev/nvidia0\n"
          "NodeName=node1 Name=shard Count=4 File=/dev/nvidia0\n"
          "NodeName=node1 Name=gpu File=/dev/nvidia1\n"
          "NodeName=node1 Name=shard Count=8 File=/dev/nvidia1\n"
          "NodeName=node2 Name=gpu File=/dev/nvidia4\n"
          "NodeName=node2 Name=nic File=/dev/nvidia0\n",
          "node1");
    assert_int_equal(node.ngpus, 2);
    assert_true(node.shard && !node.mps);
    assert_int_equal(node.gpu[0].index, 0);
    assert_int_equal(node.gpu[0].shards, 4);
    assert_int_equal(node.gpu[1].index, 1);
    assert_int_equal(node.gpu[1].shards, 8);
    parse("NodeName=node1 Name=gpu File=/dev/nvidia0\nNodeName=node2 Name=gpu File=/dev/nvidia4\n",
          "node2");
    assert_int_equal(node.ngpus, 1);
    assert_int_equal(node.gpu[0].index, 4);
}

static void test_even_split(void **state)
{
    (void)state;
    /* gres.html's example 1: a node's count over its GPUs, and a range. */
    parse("AutoDetect=off # not this reader's\n"
          "Name=gpu Type=gp100 File=/dev/nvidia[0-1] Cores=0,1\n"
          "Name=gpu Type=p6000 File=/dev/nvidia[2-3]\n"
          "# Set gres/mps Count value to 100 on each of the 4 available GPUs\n"
          "Name=mps Count=400\n",
          "tux0");
    assert_int_equal(node.ngpus, 4);
    assert_true(node.mps && !node.shard);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(node.gpu[i].index, (int)i);
        assert_int_equal(node.gpu[i].mps, 100);
        assert_string_equal(node.gpu[i].type, i < 2 ? "gp100" : "p6000");
    }
    /* Keys in any case; a Count over a range split evenly. */
    parse("name=gpu file=/dev/nvidia[0-1]\nNAME=shard COUNT=16 FILE=/dev/nvidia[0-1]\n", "x");
    assert_int_equal(node.gpu[0].shards, 8);
    assert_int_equal(node.gpu[1].shards, 8);
}

static void test_mig(void **state)
{
    (void)state;
    /* MIG instances as gres.conf(5) writes them without NVML. */
    parse("Name=gpu Type=1g.5gb MultipleFiles=/dev/nvidia0,/dev/nvidia-caps/nvidia-cap21,"
          "/dev/nvidia-caps/nvidia-cap22\n"
          "Name=gpu Type=3g.20gb MultipleFiles=/dev/nvidia1,/dev/nvidia-caps/nvidia-cap30\n"
          "Name=gpu Type=a100 File=/dev/nvidia2\n",
          "n");
    assert_int_equal(node.ngpus, 3);
    assert_true(node.gpu[0].mig && node.gpu[1].mig && !node.gpu[2].mig);
    assert_string_equal(node.gpu[0].type, "1g.5gb");
    assert_string_equal(node.gpu[1].type, "3g.20gb");
    assert_int_equal(node.gpu[1].index, 1);
}

static void test_hostlist(void **state)
{
    static const char list[] = "node[1-3,07-08],gpu10,dgx[01-02]x";

    (void)state;
    assert_true(gov__hostlist_has(list, strlen(list), "node2"));
    assert_true(gov__hostlist_has(list, strlen(list), "node07"));
    assert_false(gov__hostlist_has(list, strlen(list), "node7"));
    assert_true(gov__hostlist_has(list, strlen(list), "gpu10"));
    assert_true(gov__hostlist_has(list, strlen(list), "dgx02x"));
    assert_false(gov__hostlist_has(list, strlen(list), "node4"));
    /* Not a hostlist: nothing matches, nothing breaks. */
    assert_false(gov__hostlist_has("node[1-", 7, "node1"));
    assert_false(gov__hostlist_has("node[3-1]", 9, "node2"));
    assert_false(gov__hostlist_has("node[0-99999]", 13, "node5"));
    parse("NodeName=gpu[01-04] Name=gpu File=/dev/nvidia0\nName=gpu File=/dev/nvidia1\n", "gpu03");
    assert_int_equal(node.ngpus, 2);
    parse("NodeName=gpu[01-04] Name=gpu File=/dev/nvidia0\n", "gpu05");
    assert_int_equal(node.ngpus, 0);
}

/* What it cannot read it leaves out: a Count that is no number, a File
 * with no number, an unclosed range. */
static void test_bad_lines(void **state)
{
    (void)state;
    parse("Name=gpu File=/dev/nvidia0\nName=shard Count=many File=/dev/nvidia0\n"
          "Name=gpu File=/dev/gpu\nName=gpu File=/dev/nvidia[1-\n=\nName=\n", "n");
    assert_int_equal(node.ngpus, 1);
    assert_false(node.shard);
    assert_int_equal(gov__gres_conf_parse(NULL, 0, "n", &node), GOV_EINVAL);
}

/* The grant from slurmstepd's variables against the node's gres.conf, as
 * the three series wrote them in real steps (tests/slurm/cases/gpu_shares.sh). */
static void test_grant(void **state)
{
    gov_gres_grant g;

    (void)state;
    parse("Name=gpu File=/dev/nvidia0\nName=shard Count=4 File=/dev/nvidia0\n"
          "Name=gpu File=/dev/nvidia1\nName=shard Count=8 File=/dev/nvidia1\n", "n");
    /* --gres=shard:1: SLURM_STEP_GPUS=0 SLURM_GPUS_ON_NODE=1 SLURM_SHARDS_ON_NODE=1. */
    gov__gres_grant(&node, "0", "1", NULL, 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_SHARD);
    assert_int_equal(g.share, 1);
    assert_int_equal(g.share_of, 4);
    gov__gres_grant(&node, "1", "2", NULL, 1, &g);
    assert_int_equal(g.share_of, 8);
    /* --gres=gpu:1 on the same node: whole. */
    gov__gres_grant(&node, "1", NULL, NULL, 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_GPU);
    assert_int_equal(g.share, 1);
    assert_int_equal(g.share_of, 1);
    /* No GPU at all. */
    gov__gres_grant(&node, NULL, NULL, NULL, 0, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_NONE);
    /* An MPS variable on a node without gres/mps is a user's: not a share. */
    gov__gres_grant(&node, "0", NULL, "25", 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_GPU);

    parse("Name=gpu File=/dev/nvidia[0-1]\nName=mps Count=200\n", "n");
    /* --gres=mps:25: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25. */
    gov__gres_grant(&node, "0", NULL, "25", 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_MPS);
    assert_int_equal(g.share, 25);
    assert_int_equal(g.share_of, 100);
    /* A shard variable on a node without gres/shard is a user's. */
    gov__gres_grant(&node, "0", "3", "25", 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_MPS);

    /* Both configured: Slurm's percentage counts the shards (22.05 wrote
     * 625 for mps:25 with 4 shards a GPU), so it says nothing. */
    parse("Name=gpu File=/dev/nvidia0\nName=shard Count=4 File=/dev/nvidia0\n"
          "Name=mps Count=100 File=/dev/nvidia0\n", "n");
    gov__gres_grant(&node, "0", NULL, "625", 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_MPS);
    assert_int_equal(g.share, GOV_UNKNOWN);
    assert_int_equal(g.share_of, GOV_UNKNOWN);
    /* There a shard step has no SLURM_STEP_GPUS: the count every GPU of
     * the node has is the denominator; where they differ, none is. */
    gov__gres_grant(&node, NULL, "1", NULL, 0, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_SHARD);
    assert_int_equal(g.share_of, 4);
    parse("Name=gpu File=/dev/nvidia[0-1]\nName=shard Count=4 File=/dev/nvidia0\n"
          "Name=shard Count=8 File=/dev/nvidia1\nName=mps Count=200\n", "n");
    gov__gres_grant(&node, NULL, "1", NULL, 0, &g);
    assert_int_equal(g.share, 1);
    assert_int_equal(g.share_of, GOV_UNKNOWN);

    /* MIG instances: whole, their profile's memory in decimal gigabytes;
     * SLURM_STEP_GPUS numbers the lines, two instances on one GPU two of
     * them (22.05: 2 for the 3g.20gb, 3 for the first a100). */
    parse("Name=gpu Type=1g.5gb MultipleFiles=/dev/nvidia0,/dev/nvidia-caps/nvidia-cap21\n"
          "Name=gpu Type=1g.5gb MultipleFiles=/dev/nvidia0,/dev/nvidia-caps/nvidia-cap30\n"
          "Name=gpu Type=3g.20gb MultipleFiles=/dev/nvidia1,/dev/nvidia-caps/nvidia-cap39\n"
          "Name=gpu Type=a100 File=/dev/nvidia[2-3]\n", "n");
    assert_int_equal(node.ngpus, 5);
    gov__gres_grant(&node, "1", NULL, NULL, 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_MIG);
    assert_int_equal(g.share, 1);
    assert_int_equal(g.mem_bytes, 5000000000ULL);
    gov__gres_grant(&node, "2", NULL, NULL, 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_MIG);
    assert_int_equal(g.mem_bytes, 20000000000ULL);
    gov__gres_grant(&node, "3", NULL, NULL, 1, &g);
    assert_int_equal(g.kind, GOV_GPU_SHARE_GPU);
    assert_int_equal(g.mem_bytes, GOV_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_gpu),
        cmocka_unit_test(test_even_split),
        cmocka_unit_test(test_mig),
        cmocka_unit_test(test_hostlist),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_grant),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
