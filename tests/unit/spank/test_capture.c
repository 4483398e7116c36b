/* capture.c through the SPANK stand-in: a step's facts from the items of
 * Slurm's job credential and the GPU variables slurmstepd wrote; the batch
 * and interactive steps' own rules; --mem-per-cpu believed only where it
 * agrees with the credential; the extern step left alone; a binding item
 * Slurm refuses named in the log, and no descriptor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "spank_standin.h"

static gov_spank_policy site;

static int setup(void **state)
{
    (void)state;
    gov__spank_policy_init(&site);
    site.topology_cache_off = true;   /* hwloc's discovery, nothing written */
    return 0;
}

/* Two tasks of two CPUs on node 1 of a two-node step, 400 MiB. */
static void items(struct spank_handle *sp, uint32_t step_id)
{
    standin_init(sp, S_CTX_REMOTE);
    sp->has_job = sp->has_step = sp->has_node = sp->has_uid = true;
    sp->job_id = 42;
    sp->step_id = step_id;
    sp->node_id = 1;
    sp->uid = 1000;
    sp->nnodes = 2;
    sp->tasks_total = 4;
    sp->tasks_local = 2;
    sp->ncpus = 4;
    sp->cpus_per_task = 2;
    sp->job_mem_mib = 800;
    sp->step_mem_mib = 400;
    sp->job_cores = sp->step_cores = "0";
}

static void test_step(void **state)
{
    struct spank_handle sp;
    gov_topo_table *table;
    gov_descriptor d;

    (void)state;
    items(&sp, 3);
    standin_env(&sp, "SLURM_STEP_GPUS", "0,1");
    standin_env(&sp, "SLURM_GPUS_PER_TASK", "a100:1");
    standin_env(&sp, "CUDA_VISIBLE_DEVICES", "0,1");
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    assert_int_equal(d.step_kind, GOV_STEP_NORMAL);
    assert_int_equal(d.job_id, 42);
    assert_int_equal(d.step_id, 3);
    assert_int_equal(d.node_index, 1);
    assert_int_equal(d.uid, 1000);
    assert_true(d.boot_hash != GOV_UNKNOWN);
    assert_int_equal(d.nodes, 2);
    assert_int_equal(d.tasks_total, 4);
    assert_int_equal(d.tasks_on_node, 2);
    assert_int_equal(d.cpus_on_node, 4);
    assert_int_equal(d.cpus_per_task, 2);
    assert_int_equal(d.job_mem_mib, 800);
    assert_int_equal(d.step_mem_mib, 400);
    assert_int_equal(d.step_cores, 1);
    assert_int_equal(d.gpus_on_node, 2);
    assert_int_equal(d.gpus_per_task, 1);
    assert_int_equal(d.gpus_visible, 2);
    assert_int_equal(d.mem_per_cpu_mib, GOV_UNKNOWN);
    /* The node's table, for the tasks' own counts; the step's core on it. */
    assert_non_null(table);
    assert_true(d.topo.cores == 1 || d.topo.cores == GOV_UNKNOWN);
    free(table);
    standin_free(&sp);
}

/* SLURM_MEM_PER_CPU is the allocation's: believed only where it makes the
 * credential's memory on this node. */
static void test_mem_per_cpu(void **state)
{
    struct spank_handle sp;
    gov_topo_table *table;
    gov_descriptor d;

    (void)state;
    items(&sp, 0);
    standin_env(&sp, "SLURM_MEM_PER_CPU", "100");
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    assert_int_equal(d.mem_per_cpu_mib, 100);
    free(table);
    standin_env(&sp, "SLURM_MEM_PER_CPU", "150");
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    assert_int_equal(d.mem_per_cpu_mib, GOV_UNKNOWN);
    free(table);
    standin_free(&sp);
}

/* The batch step is the script alone; the interactive step's one task
 * holds every CPU of the job on its node. */
static void test_batch_and_interactive(void **state)
{
    struct spank_handle sp;
    gov_topo_table *table;
    gov_descriptor d;

    (void)state;
    items(&sp, GOV_STEP_BATCH_ID);
    sp.nnodes = 0;   /* what 22.05 reads there */
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    assert_int_equal(d.step_kind, GOV_STEP_BATCH);
    assert_int_equal(d.nodes, 1);
    assert_int_equal(d.tasks_total, 1);
    assert_int_equal(d.tasks_on_node, 1);
    free(table);
    standin_free(&sp);
    items(&sp, GOV_STEP_INTERACTIVE_ID);
    sp.cpus_per_task = 1;
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    assert_int_equal(d.step_kind, GOV_STEP_INTERACTIVE);
    assert_int_equal(d.cpus_per_task, 4);
    free(table);
    standin_free(&sp);
}

/* The extern step has no tasks: nothing, quietly. */
static void test_extern(void **state)
{
    struct spank_handle sp;
    gov_topo_table *table;
    gov_descriptor d;

    (void)state;
    items(&sp, GOV_STEP_EXTERN_ID);
    standin_log_clear();
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), GOV_ENOENT);
    assert_null(table);
    assert_int_equal(standin_log_count(), 0);
    standin_free(&sp);
}

/* Without a binding item there is no descriptor, and the log names the
 * item, as pyxis does. */
static void test_binding_item_refused(void **state)
{
    struct spank_handle sp;
    gov_topo_table *table;
    gov_descriptor d;

    (void)state;
    items(&sp, 0);
    sp.has_uid = false;
    standin_log_clear();
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), GOV_EIO);
    assert_null(table);
    assert_non_null(standin_logged("error: governor: spank_get_item(S_JOB_UID) failed"));
    standin_free(&sp);
}

/* A share of a GPU: the numerator from slurmstepd's variables, the
 * denominator from the node's gres.conf beside SLURM_CONF. */
static void test_share(void **state)
{
    char dir[] = "/tmp/gov-capture-XXXXXX", path[64];
    struct spank_handle sp;
    gov_topo_table *table;
    gov_descriptor d;
    FILE *f;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/gres.conf", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs("NodeName=node1 Name=gpu File=/dev/nvidia0\n"
          "NodeName=node1 Name=shard Count=4 File=/dev/nvidia0\n"
          "NodeName=node2 Name=gpu File=/dev/nvidia1\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/slurm.conf", dir);
    setenv("SLURM_CONF", path, 1);
    setenv("SLURMD_NODENAME", "node1", 1);
    items(&sp, 0);
    standin_env(&sp, "SLURM_STEP_GPUS", "0");
    standin_env(&sp, "SLURM_GPUS_ON_NODE", "1");
    standin_env(&sp, "SLURM_SHARDS_ON_NODE", "1");
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    free(table);
    assert_int_equal(d.gpu_share_kind, GOV_GPU_SHARE_SHARD);
    assert_int_equal(d.gpu_share, 1);
    assert_int_equal(d.gpu_share_of, 4);
    /* node2 has no gres/shard: the variable is a user's, the GPU whole. */
    setenv("SLURMD_NODENAME", "node2", 1);
    standin_env(&sp, "SLURM_STEP_GPUS", "1");
    assert_int_equal(gov__capture_step(&sp, &site, &d, &table), 0);
    free(table);
    assert_int_equal(d.gpu_share_kind, GOV_GPU_SHARE_GPU);
    unsetenv("SLURM_CONF");
    unsetenv("SLURMD_NODENAME");
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
    standin_free(&sp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_mem_per_cpu),
        cmocka_unit_test(test_batch_and_interactive),
        cmocka_unit_test(test_extern),
        cmocka_unit_test(test_binding_item_refused),
        cmocka_unit_test(test_share),
    };

    return cmocka_run_group_tests(tests, setup, NULL);
}
