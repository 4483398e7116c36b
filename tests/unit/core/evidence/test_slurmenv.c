/* Slurm variables: every rule of the seed's scheduler section, on envp
 * arrays shaped like the environments Slurm 22.05 writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "evidence.h"
#include "base.h"

#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static gov_snapshot_scheduler collect(const char *const *envp)
{
    gov_snapshot_scheduler ev;

    gov__slurmenv_collect(envp, &ev);
    return ev;
}

static uint64_t resolve(const char *list, uint64_t index)
{
    uint64_t v;

    if (gov__slurm_list_resolve(list, strlen(list), index, &v))
        return GOV_UNKNOWN;
    return v;
}

static void test_normal_step(void **state)
{
    /* srun -N2 -n5 -c2 --mem-per-cpu=1024 on the second node. */
    const char *env[] = {
        "HOME=/home/u", "SLURM_JOB_ID=4242", "SLURM_JOBID=4242",
        "SLURM_STEP_ID=3", "SLURM_STEPID=3", "SLURM_NODEID=1",
        "SLURM_JOB_UID=1000", "SLURM_STEP_TASKS_PER_NODE=3,2",
        "SLURM_TASKS_PER_NODE=3,2", "SLURM_CPUS_PER_TASK=2",
        "SLURM_CPUS_ON_NODE=4", "SLURM_JOB_CPUS_PER_NODE=6,4",
        "SLURM_STEP_NUM_TASKS=5", "SLURM_STEP_NUM_NODES=2",
        "SLURM_NTASKS=5", "SLURM_NNODES=2", "SLURM_MEM_PER_CPU=1024", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_int_equal(ev.source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(ev.step_kind, GOV_STEP_NORMAL);
    assert_int_equal(ev.tasks_on_node, 2);
    assert_int_equal(ev.tasks_total, 5);
    assert_int_equal(ev.nodes, 2);
    assert_int_equal(ev.cpus_on_node, 4);
    assert_int_equal(ev.cpus_per_task, 2);
    assert_int_equal(ev.mem_per_cpu_bytes, GiB);
    assert_true(ev.mem_per_node_bytes == GOV_UNKNOWN);
    assert_true(ev.gpus_on_node == GOV_UNKNOWN);
    assert_true(ev.gpus_per_task == GOV_UNKNOWN);
    assert_false(ev.gpus_verified);
}

static void test_no_job_no_scheduler(void **state)
{
    const char *env[] = { "SLURM_CPUS_PER_TASK=4", "SLURM_MEM_PER_NODE=1000",
                          "SLURM_TASKS_PER_NODE=2", "PATH=/bin", NULL };
    const char *bad_id[] = { "SLURM_JOB_ID=12ab", "SLURM_CPUS_PER_TASK=4", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_int_equal(ev.source, GOV_SCHED_NONE);
    assert_int_equal(ev.step_kind, GOV_STEP_UNKNOWN);
    assert_true(ev.cpus_per_task == GOV_UNKNOWN);
    assert_true(ev.mem_per_node_bytes == GOV_UNKNOWN);
    assert_true(ev.tasks_on_node == GOV_UNKNOWN);
    assert_int_equal(collect(bad_id).source, GOV_SCHED_NONE);
    assert_int_equal(collect(NULL).source, GOV_SCHED_NONE);
}

static void test_tasks_list_with_node_id(void **state)
{
    const char *n0[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=0",
                         "SLURM_TASKS_PER_NODE=1(x2),4", NULL };
    const char *n1[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=1",
                         "SLURM_TASKS_PER_NODE=1(x2),4", NULL };
    const char *n2[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=2",
                         "SLURM_TASKS_PER_NODE=1(x2),4", NULL };
    const char *past[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=3",
                           "SLURM_TASKS_PER_NODE=1(x2),4", NULL };

    assert_int_equal(collect(n0).tasks_on_node, 1);
    assert_int_equal(collect(n1).tasks_on_node, 1);
    assert_int_equal(collect(n2).tasks_on_node, 4);
    assert_true(collect(past).tasks_on_node == GOV_UNKNOWN);
}

static void test_tasks_list_without_node_id(void **state)
{
    const char *uniform[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                              "SLURM_TASKS_PER_NODE=2(x3)", NULL };
    const char *uniform2[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                               "SLURM_TASKS_PER_NODE=2,2(x2),2", NULL };
    const char *mixed[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                            "SLURM_TASKS_PER_NODE=1(x2),4", NULL };
    const char *bad_id[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=x",
                             "SLURM_TASKS_PER_NODE=4,1", NULL };

    assert_int_equal(collect(uniform).tasks_on_node, 2);
    assert_int_equal(collect(uniform2).tasks_on_node, 2);
    /* Never the first node's count. */
    assert_true(collect(mixed).tasks_on_node == GOV_UNKNOWN);
    assert_true(collect(bad_id).tasks_on_node == GOV_UNKNOWN);
}

static void test_step_layout_preferred(void **state)
{
    /* srun --preserve-env keeps the job's SLURM_TASKS_PER_NODE; the step's
     * own layout is always in SLURM_STEP_TASKS_PER_NODE. */
    const char *env[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=1", "SLURM_NODEID=1",
                          "SLURM_TASKS_PER_NODE=4(x2)",
                          "SLURM_STEP_TASKS_PER_NODE=1,3",
                          "SLURM_NTASKS=8", "SLURM_STEP_NUM_TASKS=4",
                          "SLURM_NNODES=2", "SLURM_STEP_NUM_NODES=2", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_int_equal(ev.tasks_on_node, 3);
    assert_int_equal(ev.tasks_total, 4);
    assert_int_equal(ev.nodes, 2);
}

static void test_ntasks_per_node_fallback(void **state)
{
    const char *absent[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                             "SLURM_NTASKS_PER_NODE=6", NULL };
    const char *malformed[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                                "SLURM_TASKS_PER_NODE=6(x", "SLURM_NTASKS_PER_NODE=6", NULL };
    const char *both[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=0",
                           "SLURM_TASKS_PER_NODE=2,6", "SLURM_NTASKS_PER_NODE=6", NULL };

    assert_int_equal(collect(absent).tasks_on_node, 6);
    /* A list that is present but garbled is unknown, not a reason to fall
     * back to the requested figure. */
    assert_true(collect(malformed).tasks_on_node == GOV_UNKNOWN);
    assert_int_equal(collect(both).tasks_on_node, 2);
}

static void test_job_cpus_per_node_is_not_a_count(void **state)
{
    const char *env[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_NODEID=0",
                          "SLURM_JOB_CPUS_PER_NODE=72(x2),36", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_true(ev.cpus_on_node == GOV_UNKNOWN);
    assert_true(ev.cpus_per_task == GOV_UNKNOWN);
    assert_true(ev.tasks_on_node == GOV_UNKNOWN);
}

static void test_cpus_on_node_shared(void **state)
{
    /* SLURM_CPUS_ON_NODE is the node's share, never a per-task bound. */
    const char *env[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                          "SLURM_CPUS_ON_NODE=16", "SLURM_TASKS_PER_NODE=4", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_int_equal(ev.cpus_on_node, 16);
    assert_true(ev.cpus_per_task == GOV_UNKNOWN);
    assert_int_equal(ev.tasks_on_node, 4);
}

static void test_memory(void **state)
{
    const char *node[] = { "SLURM_JOB_ID=7", "SLURM_MEM_PER_NODE=4096", NULL };
    const char *suffix[] = { "SLURM_JOB_ID=7", "SLURM_MEM_PER_NODE=4G",
                             "SLURM_MEM_PER_CPU=512K", NULL };
    const char *tera[] = { "SLURM_JOB_ID=7", "SLURM_MEM_PER_NODE=2T", NULL };
    const char *zero[] = { "SLURM_JOB_ID=7", "SLURM_MEM_PER_NODE=0", NULL };
    const char *junk[] = { "SLURM_JOB_ID=7", "SLURM_MEM_PER_NODE=4GB",
                           "SLURM_MEM_PER_CPU=-1", NULL };
    const char *huge[] = { "SLURM_JOB_ID=7", "SLURM_MEM_PER_NODE=99999999999999T", NULL };
    gov_snapshot_scheduler ev;

    assert_int_equal(collect(node).mem_per_node_bytes, 4 * GiB);
    ev = collect(suffix);
    assert_int_equal(ev.mem_per_node_bytes, 4 * GiB);
    assert_int_equal(ev.mem_per_cpu_bytes, 512 * 1024);
    assert_int_equal(collect(tera).mem_per_node_bytes, 2 * 1024 * GiB);
    assert_true(collect(zero).mem_per_node_bytes == GOV_UNKNOWN);
    ev = collect(junk);
    assert_true(ev.mem_per_node_bytes == GOV_UNKNOWN);
    assert_true(ev.mem_per_cpu_bytes == GOV_UNKNOWN);
    assert_true(collect(huge).mem_per_node_bytes == GOV_UNKNOWN);
}

static void test_memory_per_cpu_needs_cpus_per_task(void **state)
{
    /* Per-CPU memory is kept as such; it only becomes a per-task figure
     * where cpus-per-task is known, which the struct reports alongside. */
    const char *without[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                              "SLURM_MEM_PER_CPU=2048", NULL };
    const char *with[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                           "SLURM_MEM_PER_CPU=2048", "SLURM_CPUS_PER_TASK=3", NULL };
    gov_snapshot_scheduler a = collect(without), b = collect(with);

    assert_int_equal(a.mem_per_cpu_bytes, 2 * GiB);
    assert_true(a.cpus_per_task == GOV_UNKNOWN);
    assert_true(a.mem_per_node_bytes == GOV_UNKNOWN);
    assert_int_equal(b.mem_per_cpu_bytes, 2 * GiB);
    assert_int_equal(b.cpus_per_task, 3);
}

static void test_gpus(void **state)
{
    const char *plain[] = { "SLURM_JOB_ID=7", "SLURM_GPUS_ON_NODE=2",
                            "SLURM_GPUS_PER_TASK=1", NULL };
    const char *typed[] = { "SLURM_JOB_ID=7", "SLURM_GPUS_PER_TASK=a100:2", NULL };
    const char *multi[] = { "SLURM_JOB_ID=7", "SLURM_GPUS_PER_TASK=a100:1,v100:2", NULL };
    const char *bad[] = { "SLURM_JOB_ID=7", "SLURM_GPUS_PER_TASK=a100:",
                          "SLURM_GPUS_ON_NODE=2000", NULL };
    const char *trailing[] = { "SLURM_JOB_ID=7", "SLURM_GPUS_PER_TASK=1,", NULL };
    gov_snapshot_scheduler ev = collect(plain);

    assert_int_equal(ev.gpus_on_node, 2);
    assert_int_equal(ev.gpus_per_task, 1);
    assert_false(ev.gpus_verified); /* variables are never gres evidence */
    assert_int_equal(collect(typed).gpus_per_task, 2);
    assert_int_equal(collect(multi).gpus_per_task, 3);
    ev = collect(bad);
    assert_true(ev.gpus_per_task == GOV_UNKNOWN);
    assert_true(ev.gpus_on_node == GOV_UNKNOWN);
    assert_true(collect(trailing).gpus_per_task == GOV_UNKNOWN);
}

/* slurmstepd's SLURM_STEP_GPUS comes first; every count is bounded, since
 * any user can export these (a per-task count of 2^64-2 was once sealed). */
static void test_gpu_counts_bounded(void **state)
{
    assert_int_equal(gov__slurm_gpus_on_node("0,1", "4"), 2);
    assert_int_equal(gov__slurm_gpus_on_node("0-3,6", NULL), 5);
    assert_int_equal(gov__slurm_gpus_on_node("", "4"), 0);
    assert_int_equal(gov__slurm_gpus_on_node("none", NULL), 0);
    assert_int_equal(gov__slurm_gpus_on_node("NoDevFiles", NULL), 0);
    assert_int_equal(gov__slurm_gpus_on_node(NULL, "3"), 3);
    assert_int_equal(gov__slurm_gpus_on_node(NULL, NULL), GOV_UNKNOWN);
    assert_int_equal(gov__slurm_gpus_on_node("0-1024", NULL), GOV_UNKNOWN);  /* 1025 */
    assert_int_equal(gov__slurm_gpus_on_node("0-1023", NULL), 1024);
    assert_int_equal(gov__slurm_gpus_on_node("GPU-3f2c", NULL), GOV_UNKNOWN);
    assert_int_equal(gov__slurm_gpus_on_node(NULL, "1025"), GOV_UNKNOWN);
    assert_int_equal(gov__slurm_gpus_on_node(NULL, "-1"), GOV_UNKNOWN);
    assert_int_equal(gov__slurm_gpus_per_task("18446744073709551614"), GOV_UNKNOWN);
    assert_int_equal(gov__slurm_gpus_per_task("1024"), 1024);
    assert_int_equal(gov__slurm_gpus_per_task("1000,a:25"), GOV_UNKNOWN);
    assert_int_equal(gov__slurm_gpus_per_task(NULL), GOV_UNKNOWN);
    /* The collector reads the same variables the same way. */
    {
        const char *env[] = { "SLURM_JOB_ID=7", "SLURM_STEP_GPUS=0,1,2",
                              "SLURM_GPUS_ON_NODE=8", NULL };
        assert_int_equal(collect(env).gpus_on_node, 3);
    }
}

/* One reading of step ids for the plugin (the credential's) and the
 * variables (SLURM_STEP_ID). */
static void test_step_kind_of(void **state)
{
    assert_int_equal(gov__step_kind_of(0), GOV_STEP_NORMAL);
    assert_int_equal(gov__step_kind_of(GOV_STEP_MAX_NORMAL_ID), GOV_STEP_NORMAL);
    assert_int_equal(gov__step_kind_of(GOV_STEP_BATCH_ID), GOV_STEP_BATCH);
    assert_int_equal(gov__step_kind_of(GOV_STEP_EXTERN_ID), GOV_STEP_EXTERN);
    assert_int_equal(gov__step_kind_of(GOV_STEP_INTERACTIVE_ID), GOV_STEP_INTERACTIVE);
    assert_int_equal(gov__step_kind_of(0xfffffffd), GOV_STEP_UNKNOWN);    /* pending */
    assert_int_equal(gov__step_kind_of(GOV_UNKNOWN), GOV_STEP_UNKNOWN);
}

static void test_batch_step(void **state)
{
    /* sbatch -N2 -n8 -c2: the script's environment has no SLURM_STEP_ID;
     * sbatch marks it ENVIRONMENT=BATCH. */
    const char *env[] = { "ENVIRONMENT=BATCH", "SLURM_JOB_ID=99", "SLURM_NODEID=0",
                          "SLURM_CPUS_ON_NODE=8", "SLURM_CPUS_PER_TASK=2",
                          "SLURM_TASKS_PER_NODE=4(x2)", "SLURM_NTASKS=8",
                          "SLURM_JOB_NUM_NODES=2", "SLURM_JOB_CPUS_PER_NODE=8(x2)",
                          "SLURM_MEM_PER_CPU=1000", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_int_equal(ev.step_kind, GOV_STEP_BATCH);
    assert_int_equal(ev.tasks_on_node, 1);
    assert_int_equal(ev.tasks_total, 1);
    assert_int_equal(ev.nodes, 1);
    assert_int_equal(ev.cpus_on_node, 8);
    assert_int_equal(ev.cpus_per_task, 8);
    assert_int_equal(ev.mem_per_cpu_bytes, 1000 * MiB);
}

/* salloc's interactive step, like the batch script: one task holding the
 * job's CPUs on the node, whatever -c the job was given. */
static void test_interactive_step_holds_the_node(void **state)
{
    const char *env[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=4294967290", "SLURM_NODEID=0",
                          "SLURM_CPUS_ON_NODE=2", "SLURM_CPUS_PER_TASK=1",
                          "SLURM_TASKS_PER_NODE=2", "SLURM_NTASKS=2", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_int_equal(ev.step_kind, GOV_STEP_INTERACTIVE);
    assert_int_equal(ev.cpus_per_task, 2);
    assert_int_equal(ev.tasks_on_node, 1);
    assert_int_equal(ev.tasks_total, 1);
    assert_int_equal(ev.nodes, 1);
}

static void test_step_kinds(void **state)
{
    const char *interactive[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=4294967290", NULL };
    const char *ext[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=4294967292", NULL };
    const char *batch_id[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=4294967291", NULL };
    const char *pending[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=4294967293", NULL };
    const char *old_name[] = { "SLURM_JOBID=5", "SLURM_STEPID=12", NULL };
    const char *alloc_shell[] = { "SLURM_JOB_ID=5", "SLURM_TASKS_PER_NODE=2", NULL };
    const char *garbled[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=1x", NULL };
    gov_snapshot_scheduler ev;

    assert_int_equal(collect(interactive).step_kind, GOV_STEP_INTERACTIVE);
    assert_int_equal(collect(ext).step_kind, GOV_STEP_EXTERN);
    assert_int_equal(collect(batch_id).step_kind, GOV_STEP_BATCH);
    ev = collect(pending);
    assert_int_equal(ev.step_kind, GOV_STEP_UNKNOWN);
    ev = collect(old_name);
    assert_int_equal(ev.source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(ev.step_kind, GOV_STEP_NORMAL);
    ev = collect(alloc_shell);
    assert_int_equal(ev.source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(ev.step_kind, GOV_STEP_UNKNOWN);
    assert_int_equal(ev.tasks_on_node, 2);
    assert_int_equal(collect(garbled).step_kind, GOV_STEP_UNKNOWN);
}

/* Slurm 26.05 prints SLURM_STEP_ID with %d: salloc's interactive step is
 * "-6", the batch script "-5" (seen on 26.05.5). */
static void test_step_id_signed(void **state)
{
    const char *interactive[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=-6", NULL };
    const char *batch[] = { "SLURM_JOB_ID=5", "SLURM_STEP_ID=-5", NULL };
    gov_snapshot_scheduler ev;
    uint64_t id;

    ev = collect(interactive);
    assert_int_equal(ev.step_kind, GOV_STEP_INTERACTIVE);
    ev = collect(batch);
    assert_int_equal(ev.step_kind, GOV_STEP_BATCH);

    assert_int_equal(gov__slurm_step_id_parse("0", &id), 0);
    assert_int_equal(id, 0);
    assert_int_equal(gov__slurm_step_id_parse("4294967295", &id), 0);
    assert_int_equal(id, 0xffffffffu);
    assert_int_equal(gov__slurm_step_id_parse("-1", &id), 0);
    assert_int_equal(id, 0xffffffffu);
    assert_int_equal(gov__slurm_step_id_parse("-2147483648", &id), 0);
    assert_int_equal(id, 0x80000000u);
    /* Outside 32 bits either way, or not a plain number. */
    assert_int_equal(gov__slurm_step_id_parse("4294967296", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse("-2147483649", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse("-0", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse("-", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse("--6", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse(" 6", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse("", &id), GOV_EPARSE);
    assert_int_equal(gov__slurm_step_id_parse(NULL, &id), GOV_EPARSE);
}

static void test_absurd_counts(void **state)
{
    const char *env[] = { "SLURM_JOB_ID=7", "SLURM_STEP_ID=0",
                          "SLURM_CPUS_PER_TASK=0", "SLURM_CPUS_ON_NODE=100000",
                          "SLURM_NTASKS=-3", "SLURM_STEP_NUM_NODES= 2",
                          "SLURM_JOB_UID=4294967295", "SLURM_TASKS_PER_NODE=70000",
                          NULL };
    const char *big_id[] = { "SLURM_JOB_ID=4294967296", NULL };
    gov_snapshot_scheduler ev = collect(env);

    assert_true(ev.cpus_per_task == GOV_UNKNOWN);
    assert_true(ev.cpus_on_node == GOV_UNKNOWN);
    assert_true(ev.tasks_total == GOV_UNKNOWN);
    assert_true(ev.nodes == GOV_UNKNOWN);
    assert_true(ev.tasks_on_node == GOV_UNKNOWN);
    assert_int_equal(collect(big_id).source, GOV_SCHED_NONE);
}

static void test_env_get(void **state)
{
    const char *env[] = { "SLURM_JOB_ID_X=1", "SLURM_JOB=2", "SLURM_JOB_ID=3",
                          "NOEQUALS", NULL };

    assert_string_equal(gov__env_get(env, "SLURM_JOB_ID"), "3");
    assert_null(gov__env_get(env, "SLURM_JO"));
    assert_null(gov__env_get(env, "NOEQUALS"));
    assert_null(gov__env_get(NULL, "SLURM_JOB_ID"));
}

static void test_list_parser(void **state)
{
    const char *bad[] = { "", "1(x0)", "1(x2", "1,,2", "(x2)", "1,", ",1", "a",
                          "1(y2)", "1 ,2", "1(x2)3", "-1", "1(x-2)", "2000000" };
    uint64_t v;

    assert_int_equal(resolve("4", 0), 4);
    assert_int_equal(resolve("1000000", 0), 1000000);
    assert_true(resolve("1000001", 0) == GOV_UNKNOWN);
    assert_true(resolve("4", 1) == GOV_UNKNOWN);
    assert_int_equal(resolve("3(x1000000),5", 1000000), 5);
    assert_int_equal(resolve("3(x1000000),5", 999999), 3);
    assert_int_equal(resolve("1(x2),4", GOV_UNKNOWN) == GOV_UNKNOWN, 1);
    assert_int_equal(gov__slurm_list_resolve("1(x2),4", 7, GOV_UNKNOWN, &v), GOV_ENOENT);
    assert_int_equal(gov__slurm_list_resolve("1(x2),4", 7, 3, &v), GOV_ERANGE);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_true(gov__slurm_list_resolve(bad[i], strlen(bad[i]), 0, &v) < 0);
    /* Trailing garbage after the wanted entry still rejects the list. */
    assert_int_equal(gov__slurm_list_resolve("2,3,x", 5, 0, &v), GOV_EPARSE);
}

static void test_mem_parser(void **state)
{
    uint64_t b;

    assert_int_equal(gov__slurm_parse_mem("1", 1, &b), 0);
    assert_int_equal(b, MiB);
    assert_int_equal(gov__slurm_parse_mem("3m", 2, &b), 0);
    assert_int_equal(b, 3 * MiB);
    assert_int_equal(gov__slurm_parse_mem("1g", 2, &b), 0);
    assert_int_equal(b, GiB);
    assert_int_equal(gov__slurm_parse_mem("16777215T", 9, &b), 0);
    assert_int_equal(b, UINT64_C(16777215) << 40);
    assert_int_equal(gov__slurm_parse_mem("16777216T", 9, &b), GOV_ERANGE);
    assert_int_equal(gov__slurm_parse_mem("", 0, &b), GOV_EPARSE);
    assert_int_equal(gov__slurm_parse_mem("G", 1, &b), GOV_EPARSE);
    assert_int_equal(gov__slurm_parse_mem("1GG", 3, &b), GOV_EPARSE);
    assert_int_equal(gov__slurm_parse_mem("1P", 2, &b), GOV_EPARSE);
    assert_int_equal(gov__slurm_parse_mem("99999999999999999999", 20, &b), GOV_ERANGE);
    /* One past UINT64_MAX must not wrap to a small number. */
    assert_int_equal(gov__slurm_parse_mem("18446744073709551616K", 21, &b), GOV_ERANGE);
    assert_int_equal(gov__slurm_parse_mem("18446744073709551619", 20, &b), GOV_ERANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_step),
        cmocka_unit_test(test_no_job_no_scheduler),
        cmocka_unit_test(test_tasks_list_with_node_id),
        cmocka_unit_test(test_tasks_list_without_node_id),
        cmocka_unit_test(test_step_layout_preferred),
        cmocka_unit_test(test_ntasks_per_node_fallback),
        cmocka_unit_test(test_job_cpus_per_node_is_not_a_count),
        cmocka_unit_test(test_cpus_on_node_shared),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_memory_per_cpu_needs_cpus_per_task),
        cmocka_unit_test(test_gpus),
        cmocka_unit_test(test_gpu_counts_bounded),
        cmocka_unit_test(test_step_kind_of),
        cmocka_unit_test(test_batch_step),
        cmocka_unit_test(test_step_kinds),
        cmocka_unit_test(test_interactive_step_holds_the_node),
        cmocka_unit_test(test_step_id_signed),
        cmocka_unit_test(test_absurd_counts),
        cmocka_unit_test(test_env_get),
        cmocka_unit_test(test_list_parser),
        cmocka_unit_test(test_mem_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
