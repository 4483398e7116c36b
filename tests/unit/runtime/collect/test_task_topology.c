/* What an affinity mask covers on a real node's topology (collect/
 * topology.c): hwloc's reading of machine trees, masks chosen per case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hwloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collect.h"
#include "descriptor.h"
#include "evidence.h"
#include "runenv_var.h"

static struct hwloc_topology *load_tree(const char *dir)
{
    struct hwloc_topology *topo;

    assert_int_equal(setenv("HWLOC_FSROOT", dir, 1), 0);
    assert_int_equal(gov__inventory_load_topology(&topo), 0);
    assert_int_equal(unsetenv("HWLOC_FSROOT"), 0);
    return topo;
}

static void task_of(struct hwloc_topology *topo, const char *list, gov_snapshot *s)
{
    gov_cpuset mask;

    gov_snapshot_init(s);
    assert_int_equal(gov_cpuset_parse(list, strlen(list), &mask), 0);
    gov__topology_collect(topo, &mask, gov_cpuset_count(&mask), &s->topology);
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
    gov__topology_collect(topo, &none, GOV_UNKNOWN, &s.topology);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_NONE);
    assert_true(s.topology.task.pus == GOV_UNKNOWN);
    /* CPUs the node does not have. */
    task_of(topo, "100-101", &s);
    assert_true(s.topology.task.pus == GOV_UNKNOWN);
    hwloc_topology_destroy(topo);
}

/* A task with mask list on the tree, its affinity the only CPU layer, and
 * mem bytes of cgroup limit, in an allocation (batch: nothing kept back);
 * resolved as a capture resolves it. */
static void task_with(struct hwloc_topology *topo, const char *list, double quota, uint64_t mem,
                      gov_snapshot *s)
{
    task_of(topo, list, s);
    s->scheduler.source = GOV_SCHED_ENVIRONMENT;
    assert_int_equal(gov_cpuset_parse(list, strlen(list), &s->cpu.affinity.set), 0);
    s->cpu.affinity.count = gov_cpuset_count(&s->cpu.affinity.set);
    s->cpu.cgroup.quota_cores = quota;
    s->memory.cgroup.limit_bytes = s->memory.cgroup.remaining_bytes = mem;
    s->memory.cgroup.status = GOV_LIMIT_LIMITED;
    gov_snapshot_resolve(s);
}

static void test_plan_per_core(void **state)
{
    struct hwloc_topology *topo = load_tree(GOV_FIXTURES "/inventory/smt-2s4c2t");
    gov_snapshot s;
    gov_plan p;

    /* Four whole cores of socket 0: 8 PUs, one thread per core leaves 4. */
    task_with(topo, "0-3,8-11", NAN, GOV_UNKNOWN, &s);
    assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
    assert_int_equal(p.threads_per_worker, 8);
    assert_int_equal(p.idle_pus, 0);
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_PER_CORE, &p), 0);
    assert_int_equal(p.threads_per_worker, 4);
    assert_int_equal(p.cores, 4);
    assert_int_equal(p.cpu_workers, 4);
    assert_int_equal(p.idle_pus, 4);
    /* A quota below the cores still binds. */
    task_with(topo, "0-3,8-11", 3.0, GOV_UNKNOWN, &s);
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_PER_CORE, &p), 0);
    assert_int_equal(p.threads_per_worker, 3);
    assert_int_equal(p.idle_pus, 5);
    hwloc_topology_destroy(topo);
}

static void test_plan_numa_workers(void **state)
{
    struct hwloc_topology *topo = load_tree(GOV_FIXTURES "/inventory/smt-2s4c2t");
    const uint64_t gib = UINT64_C(1) << 30;
    gov_snapshot s;
    gov_plan p;

    /* The whole node, 10 GiB: a worker per socket's NUMA node. */
    task_with(topo, "0-15", NAN, 10 * gib, &s);
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_WORKERS_NUMA, &p), 0);
    assert_int_equal(p.workers, 2);
    assert_int_equal(p.numa_workers, 2);
    assert_int_equal(p.worker[0].threads, 8);
    assert_int_equal(p.worker[1].threads, 8);
    assert_int_equal(p.worker[0].memory_limit_bytes, 5 * gib);
    assert_int_equal(p.threads_per_worker, 8);
    assert_int_equal(p.memory_limit_per_worker, 5 * gib);

    /* Per core under a 6-core quota: the 8 cores scale down together. */
    task_with(topo, "0-15", 6.0, 10 * gib, &s);
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_WORKERS_NUMA | GOV_PLAN_PER_CORE, &p), 0);
    assert_int_equal(p.worker[0].threads, 3);
    assert_int_equal(p.worker[1].threads, 3);
    assert_int_equal(p.idle_pus, 10);

    /* Uneven: 3 PUs on node 0, 1 on node 1. */
    task_with(topo, "0-1,8,4", NAN, 8 * gib, &s);
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_WORKERS_NUMA, &p), 0);
    assert_int_equal(p.worker[0].threads, 3);
    assert_int_equal(p.worker[1].threads, 1);
    assert_int_equal(p.worker[0].memory_limit_bytes, 6 * gib);
    assert_int_equal(p.worker[1].memory_limit_bytes, 2 * gib);
    assert_int_equal(p.threads_per_worker, 1);
    /* Free per worker never above the worker's limit (8 GiB free over
     * two workers would be 4 GiB, the smaller node holds 2). */
    s.memory.effective.remaining_bytes = 8 * gib;
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_WORKERS_NUMA, &p), 0);
    assert_int_equal(p.memory_remaining_per_worker, 2 * gib);

    /* No topology: refused, planned as without the flag. */
    gov_snapshot_init(&s);
    gov_snapshot_resolve(&s);
    assert_int_equal(gov_plan_compute(&s, 0, GOV_PLAN_WORKERS_NUMA, &p), GOV_ENOENT);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.numa_workers, 0);
    assert_int_equal(gov_plan_compute(&s, 0, 0x80, &p), GOV_EINVAL);
    hwloc_topology_destroy(topo);
}

/* What a launcher reads: each worker's threads, bytes and CPUs. */
static void test_runenv_numa_lists(void **state)
{
    struct hwloc_topology *topo = load_tree(GOV_FIXTURES "/inventory/smt-2s4c2t");
    const char *const inherited[] = { "GOVERNOR_WORKER_CPUS=0-1", "OMP_PLACES=sockets", NULL };
    gov_runenv *env;
    gov_snapshot s;

    task_with(topo, "0-15", NAN, UINT64_C(4) << 30, &s);
    assert_int_equal(gov_runenv_compute(&s, 0, NULL, GOV_RUNENV_WORKERS_NUMA | GOV_RUNENV_PER_CORE |
                                                         GOV_RUNENV_OMP_PLACES, &env), 0);
    assert_string_equal(var(env, "GOVERNOR_WORKER_CPUS"), "0-3,8-11:4-7,12-15");
    assert_string_equal(var(env, "GOVERNOR_WORKER_THREADS"), "4,4");
    assert_string_equal(var(env, "GOVERNOR_WORKER_MEMORY"), "2147483648,2147483648");
    assert_string_equal(var(env, "GOVERNOR_WORKERS"), "2");
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "4");
    assert_string_equal(var(env, "OMP_PLACES"), "cores");
    assert_string_equal(var(env, "OMP_PROC_BIND"), "close");
    assert_int_equal(env->affinity_count, 0);
    gov_runenv_free(env);

    /* Not asked: the lists an earlier run left are removed, OpenMP's
     * placement is the user's and stays. */
    assert_int_equal(gov_runenv_compute(&s, 0, inherited, 0, &env), 0);
    assert_string_equal(var(env, "GOVERNOR_WORKER_CPUS"), "(unset)");
    assert_null(var(env, "OMP_PLACES"));
    assert_null(var(env, "OMP_PROC_BIND"));
    assert_string_equal(var(env, "OMP_NUM_THREADS"), "16");
    gov_runenv_free(env);

    /* Asked, but the user's OMP_PLACES stays. */
    assert_int_equal(gov_runenv_compute(&s, 0, inherited, GOV_RUNENV_OMP_PLACES, &env), 0);
    assert_null(var(env, "OMP_PLACES"));
    assert_string_equal(var(env, "OMP_PROC_BIND"), "close");
    gov_runenv_free(env);

    /* No topology: NUMA workers cannot be planned. */
    gov_snapshot_init(&s);
    assert_int_equal(gov_runenv_compute(&s, 0, NULL, GOV_RUNENV_WORKERS_NUMA, &env), GOV_ENOENT);
    hwloc_topology_destroy(topo);
}

/* The sealed step part, and the GPUs local to the task's NUMA nodes: the
 * descriptor lists every GPU of the node with its NUMA node. */
static void test_descriptor_step_part(void **state)
{
    struct hwloc_topology *topo = load_tree(GOV_FIXTURES "/inventory/smt-2s4c2t");
    gov_descriptor d;
    gov_snapshot s;

    gov__descriptor_init(&d);
    d.topo.present = true;
    d.topo.packages = 1, d.topo.cores = 4, d.topo.pus = 8, d.topo.numa_nodes = 1;
    d.topo.gpu_count = 2;
    d.topo.gpu_numa[0] = 0, d.topo.gpu_numa[1] = 1;
    d.gpus_on_node = 2;
    d.gpus_verified = true;
    /* A task on NUMA node 1 holding both GPUs: one is local. */
    task_of(topo, "4-7,12-15", &s);
    gov__descriptor_apply(&d, NULL, NULL, &s);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_DESCRIPTOR);
    assert_int_equal(s.topology.step.pus, 8);
    assert_int_equal(s.topology.step.numa_nodes, 1);
    assert_int_equal(s.topology.task_gpus_local, 1);
    /* Across both nodes: both. */
    task_of(topo, "0-15", &s);
    gov__descriptor_apply(&d, NULL, NULL, &s);
    assert_int_equal(s.topology.task_gpus_local, 2);
    /* One GPU of two, unverified: which one the task holds is unknown. */
    d.gpus_on_node = 1;
    d.gpus_verified = false;
    task_of(topo, "4-7,12-15", &s);
    gov__descriptor_apply(&d, NULL, NULL, &s);
    assert_true(s.topology.task_gpus_local == GOV_UNKNOWN);
    /* No GPU on the node: none local. */
    d.topo.gpu_count = 0;
    gov__descriptor_apply(&d, NULL, NULL, &s);
    assert_int_equal(s.topology.task_gpus_local, 0);
    /* Version 4: the grant is confirmed by the devices the process may
     * open (two of four, the others refused by a device cgroup), then the
     * task holds both GPUs and one is local; with no such evidence, not. */
    d.topo.gpu_count = 2;
    d.gpus_on_node = 2;
    d.version = 4;
    {
        gov_gpu_nodes nvidia = { 4, 2, 2 }, render = { 0, 0, 0 };
        task_of(topo, "4-7,12-15", &s);
        gov__descriptor_apply(&d, &nvidia, &render, &s);
        assert_true(s.scheduler.gpus_verified);
        assert_int_equal(s.scheduler.gpus_on_node_source, GOV_SCHED_DESCRIPTOR);
        assert_int_equal(s.topology.task_gpus_local, 1);
        nvidia.usable = 3, nvidia.denied = 1;   /* more than the grant */
        gov__descriptor_apply(&d, &nvidia, &render, &s);
        assert_false(s.scheduler.gpus_verified);
        assert_int_equal(s.scheduler.gpus_on_node_source, GOV_SCHED_ENVIRONMENT);
        assert_true(s.topology.task_gpus_local == GOV_UNKNOWN);
    }
    hwloc_topology_destroy(topo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_and_whole_cores),
        cmocka_unit_test(test_unknown_mask_counts_nothing),
        cmocka_unit_test(test_plan_per_core),
        cmocka_unit_test(test_plan_numa_workers),
        cmocka_unit_test(test_runenv_numa_lists),
        cmocka_unit_test(test_descriptor_step_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
