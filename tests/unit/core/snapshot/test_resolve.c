/* The snapshot's combining rules (DESIGN "The snapshot contract") on
 * synthetic snapshots: effective values, binding layer, enforcement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base.h"
#include "snapshot_base.h"

#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static gov_snapshot host_only(void)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.cpu.host.logical = 16;
    s.memory.host.total_bytes = 64 * GiB;
    s.memory.host.available_bytes = 60 * GiB;
    return s;
}

static void test_nothing_known(void **state)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    gov_snapshot_resolve(&s);
    assert_true(isnan(s.cpu.effective.capacity_cores));
    assert_int_equal(s.cpu.effective.workers, GOV_UNKNOWN);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_NONE);
    assert_int_equal(s.memory.effective.limit_bytes, GOV_UNKNOWN);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCEMENT_UNKNOWN);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCEMENT_UNKNOWN);
}

static void test_host_is_a_bound(void **state)
{
    gov_snapshot s = host_only();

    gov_snapshot_resolve(&s);
    assert_true(s.cpu.effective.capacity_cores == 16.0);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_HOST);
    assert_int_equal(s.memory.effective.limit_bytes, 64 * GiB);
    assert_int_equal(s.memory.effective.remaining_bytes, 60 * GiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_HOST);
    /* No allocation to compare with: unknown, not "not enforced". */
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCEMENT_UNKNOWN);
}

static void test_quota_one_and_a_half(void **state)
{
    gov_snapshot s = host_only();

    s.cpu.affinity.count = 16;
    s.cpu.cgroup.cpuset_count = 16;
    s.cpu.cgroup.quota_cores = 1.5;
    gov_snapshot_resolve(&s);
    assert_true(s.cpu.effective.capacity_cores == 1.5);
    assert_int_equal(s.cpu.effective.workers, 1);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_QUOTA);
}

static void test_quota_below_one_cpu(void **state)
{
    gov_snapshot s = host_only();

    s.cpu.cgroup.quota_cores = 0.25;
    gov_snapshot_resolve(&s);
    assert_true(s.cpu.effective.capacity_cores == 0.25);
    assert_int_equal(s.cpu.effective.workers, 1);
}

static void test_cpuset_smaller_than_quota(void **state)
{
    gov_snapshot s = host_only();

    s.cpu.affinity.count = 2;
    s.cpu.cgroup.cpuset_count = 2;
    s.cpu.cgroup.quota_cores = 3.0;
    gov_snapshot_resolve(&s);
    assert_true(s.cpu.effective.capacity_cores == 2.0);
    /* A tie between affinity and cpuset names the first kernel layer. */
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_AFFINITY);
}

static void test_affinity_narrower_than_cpuset(void **state)
{
    gov_snapshot s = host_only();

    s.cpu.affinity.count = 1;
    s.cpu.cgroup.cpuset_count = 4;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.effective.workers, 1);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_AFFINITY);
}

static void test_scheduler_cpu_bound_and_enforcement(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.scheduler.cpus_per_task = 4;
    s.scheduler.cpus_on_node = 8;
    s.cpu.affinity.count = 16;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.scheduler.cpus, 4);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_SCHEDULER);
    assert_int_equal(s.enforcement.cpu, GOV_NOT_ENFORCED);

    s.cpu.affinity.count = 4;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCED);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_AFFINITY);

    s.cpu.affinity.count = 16;
    s.cpu.cgroup.quota_cores = 4.0;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCED);
}

static void test_cpus_on_node_without_cpus_per_task(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.scheduler.cpus_on_node = 6;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.scheduler.cpus, 6);
}

/* salloc -c2, then srun without -c on Slurm 22.05: one CPU a task sealed,
 * both CPUs the step's on the node and the task bound to both.  The task's
 * share of the step's CPUs is what it holds; two tasks share them. */
static void test_share_above_cpus_per_task(void **state)
{
    gov_snapshot s = host_only();

    (void)state;
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.cpus_per_task = 1;
    s.scheduler.cpus_on_node = 2;
    s.scheduler.tasks_on_node = 1;
    s.cpu.affinity.count = 2;
    s.cpu.cgroup.cpuset_count = 2;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.scheduler.cpus, 2);
    assert_true(s.cpu.effective.capacity_cores == 2.0);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_AFFINITY);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCED);
    /* Bound to one CPU by the kernel: that holds, whatever the share. */
    s.cpu.affinity.count = 1;
    gov_snapshot_resolve(&s);
    assert_true(s.cpu.effective.capacity_cores == 1.0);
    /* Two tasks on the node: a CPU each, as sealed. */
    s.cpu.affinity.count = 2;
    s.scheduler.tasks_on_node = 2;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.scheduler.cpus, 1);
    assert_int_equal(s.enforcement.cpu, GOV_NOT_ENFORCED);
}

static void test_memory_high_below_max(void **state)
{
    gov_snapshot s = host_only();

    s.memory.cgroup.limit_bytes = 8 * GiB;
    s.memory.cgroup.high_bytes = 6 * GiB;
    s.memory.cgroup.current_bytes = 1 * GiB;
    s.memory.cgroup.working_set_bytes = 1 * GiB;
    s.memory.cgroup.remaining_bytes = 7 * GiB;
    s.memory.cgroup.planning_remaining_bytes = 5 * GiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.limit_bytes, 6 * GiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_CGROUP);
    /* high plans; the distance to the OOM point stays the cgroup's own. */
    assert_int_equal(s.memory.effective.remaining_bytes, 5 * GiB);
    assert_int_equal(s.memory.cgroup.remaining_bytes, 7 * GiB);
}

static void test_scheduler_memory(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.scheduler.mem_per_cpu_bytes = 500 * MiB;
    s.scheduler.cpus_on_node = 4;
    s.scheduler.cpus_per_task = 2;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.scheduler.limit_bytes, 2000 * MiB);
    assert_int_equal(s.memory.scheduler.per_task_bytes, 1000 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 1000 * MiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_SCHEDULER);
    assert_int_equal(s.enforcement.memory, GOV_NOT_ENFORCED);

    /* Without cpus-per-task the task's CPU bound is the node's CPUs: its
     * per-CPU share is the node's memory. */
    s.scheduler.cpus_per_task = GOV_UNKNOWN;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.scheduler.per_task_bytes, 2000 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 2000 * MiB);
}

/* srun -n1 in an sbatch -n2 -c1 --mem-per-cpu=300M allocation: the one
 * task holds both CPUs, and the step's cgroup limit is both CPUs' memory.
 * Its share is that, not one CPU's; the step's limit enforces it. */
static void test_task_holding_several_tasks_cpus(void **state)
{
    gov_snapshot s = host_only();

    (void)state;
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.mem_per_cpu_bytes = 300 * MiB;
    s.scheduler.mem_per_node_bytes = 600 * MiB;
    s.scheduler.cpus_on_node = 2;
    s.scheduler.cpus_per_task = 1;
    s.scheduler.tasks_on_node = 1;
    s.memory.cgroup.limit_bytes = 600 * MiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.scheduler.cpus, 2);
    assert_int_equal(s.memory.scheduler.per_task_bytes, 600 * MiB);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCED);

    /* The same allocation's srun -n2: two tasks share the step's 600 MiB
     * limit; each one's share is 300 MiB, and the step's limit holds the
     * step's allocation. */
    s.scheduler.tasks_on_node = 2;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.scheduler.per_task_bytes, 300 * MiB);
    assert_int_equal(s.memory.effective.limit_bytes, 300 * MiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_SCHEDULER);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCED);

    /* A limit above the step's memory (AllowedRAMSpace over 100) does not
     * hold it. */
    s.memory.cgroup.limit_bytes = 700 * MiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.memory, GOV_NOT_ENFORCED);
}

static void test_slurm_step_limit_enforced(void **state)
{
    gov_snapshot s = host_only();

    /* Task level unlimited, step level 200 MiB: the collector reports the
     * step's limit and the allocation is held by it. */
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.mem_per_node_bytes = 200 * MiB;
    s.memory.cgroup.limit_bytes = 200 * MiB;
    s.memory.cgroup.current_bytes = 50 * MiB;
    s.memory.cgroup.working_set_bytes = 50 * MiB;
    s.memory.cgroup.remaining_bytes = 150 * MiB;
    s.memory.cgroup.planning_remaining_bytes = 150 * MiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCED);
    assert_int_equal(s.memory.effective.limit_bytes, 200 * MiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_CGROUP);
    assert_int_equal(s.memory.effective.remaining_bytes, 150 * MiB);
}

static void test_high_does_not_enforce(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.mem_per_node_bytes = 1 * GiB;
    s.memory.cgroup.high_bytes = 1 * GiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.memory, GOV_NOT_ENFORCED);
}

/* The scheduler's bound has no usage of its own: what the step holds is
 * the cgroup's working set, not its page cache. */
static void test_scheduler_remaining_uses_working_set(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.scheduler.mem_per_node_bytes = 1 * GiB;
    s.memory.cgroup.current_bytes = 900 * MiB;
    s.memory.cgroup.working_set_bytes = 300 * MiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.remaining_bytes, 1 * GiB - 300 * MiB);
    s.memory.cgroup.working_set_bytes = 2 * GiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.remaining_bytes, 0);
    /* No usage evidence: the whole bound. */
    s.memory.cgroup.current_bytes = s.memory.cgroup.working_set_bytes = GOV_UNKNOWN;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.remaining_bytes, 1 * GiB);
}

/* GPUs: the grant against the process's own view of the GPU nodes. */
static void test_gpu_enforcement(void **state)
{
    gov_snapshot s = host_only();

    s.accel.nvidia_dev_nodes = 6;
    s.accel.nvidia_dev_usable = 2;
    s.accel.nvidia_dev_denied = 4;
    s.accel.drm_render_nodes = 0;
    s.accel.devices_confined = 1;
    s.scheduler.gpus_on_node = 2;
    gov_snapshot_resolve(&s);
    /* No scheduler: no grant to compare with, whatever the fields say. */
    assert_int_equal(s.enforcement.gpu, GOV_ENFORCEMENT_UNKNOWN);
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.gpu, GOV_ENFORCED);
    s.accel.nvidia_dev_usable = 6;
    s.accel.nvidia_dev_denied = 0;
    s.accel.devices_confined = 0;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.gpu, GOV_NOT_ENFORCED);
    /* Render nodes stand for the GPUs when there is no NVIDIA node. */
    s.accel.nvidia_dev_nodes = s.accel.nvidia_dev_usable = 0;
    s.accel.drm_render_nodes = 4;
    s.accel.drm_render_usable = 2;
    s.accel.drm_render_denied = 2;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.gpu, GOV_ENFORCED);
}

/* The grant as it is: a whole GPU on a partitioned AMD card is the card's
 * share of its GPU, with the card's memory and the device cgroup's fence; a
 * shard's memory is its share of the card's; an MPS client's memory is held
 * only under a pinned limit; a shard is never held. */
static void test_gpu_shares(void **state)
{
    gov_snapshot s = host_only();

    (void)state;
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.gpus_on_node = 1;
    s.accel.nvidia_dev_nodes = 0;
    s.accel.drm_render_nodes = 2;
    s.accel.drm_render_usable = 1;
    s.accel.drm_render_denied = 1;
    s.accel.devices_confined = 1;
    s.accel.gpu_vram_total_bytes = 96 * GiB;
    s.accel.gpu_unified = 0;
    s.accel.gpu_partitions = 2;
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_GPU;
    s.scheduler.gpu_share = 1;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.scheduler.gpu_share_kind, GOV_GPU_SHARE_PARTITION);
    assert_true(s.scheduler.gpu_share == 0.5);
    assert_int_equal(s.scheduler.gpu_memory_bytes, 96 * GiB);
    assert_int_equal(s.enforcement.gpu_share, GOV_ENFORCED);

    s = host_only();
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.accel.gpu_vram_total_bytes = 16 * GiB;
    s.accel.gpu_unified = 0;
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_SHARD;
    s.scheduler.gpu_share = 0.25;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.scheduler.gpu_memory_bytes, 4 * GiB);
    assert_int_equal(s.enforcement.gpu_share, GOV_NOT_ENFORCED);
    s.scheduler.gpu_memory_bytes = GOV_UNKNOWN;
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_MPS;
    s.accel.mps_pinned_limit = 0;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.gpu_share, GOV_NOT_ENFORCED);
    s.accel.mps_pinned_limit = 1;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.gpu_share, GOV_ENFORCED);
    /* A unified GPU's carve-out is no GPU memory of the share's. */
    s.scheduler.gpu_memory_bytes = GOV_UNKNOWN;
    s.accel.gpu_unified = 1;
    gov_snapshot_resolve(&s);
    assert_true(s.scheduler.gpu_memory_bytes == GOV_UNKNOWN);
    /* No grant: nothing is held, or known to be. */
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_NONE;
    s.scheduler.gpu_share = NAN;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.enforcement.gpu_share, GOV_ENFORCEMENT_UNKNOWN);
}

/* A cgroup namespace of its own hides the step's limits: vouched-for
 * scheduler facts are the budget, a user's claim (a descriptor whose maker
 * went unchecked, the variables) is held to the host, and without one the
 * budget is unknown, never the host's. */
static void test_hidden_cgroups_and_who_made_the_facts(void **state)
{
    gov_snapshot s = host_only();

    (void)state;
    s.descriptor.namespaces = 1u << GOV_NAMESPACE_CGROUP;
    s.descriptor.status = GOV_DESCRIPTOR_VERIFIED;
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.mem_per_node_bytes = 1024 * GiB;   /* a forged terabyte */
    s.scheduler.cpus_per_task = 64;
    gov_snapshot_resolve(&s);
    assert_true(gov__scheduler_vouched(&s));
    assert_int_equal(s.memory.effective.limit_bytes, 1024 * GiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_SCHEDULER);
    s.descriptor.unchecked = 1u << GOV_BINDING_OWNER;
    gov_snapshot_resolve(&s);
    assert_false(gov__scheduler_vouched(&s));
    assert_int_equal(s.memory.effective.limit_bytes, 64 * GiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_HOST);
    assert_true(s.cpu.effective.capacity_cores <= 16);
    s.descriptor.unchecked = 1u << GOV_BINDING_MUNGED;
    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.descriptor.status = GOV_DESCRIPTOR_INVALID;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.limit_bytes, 64 * GiB);
    /* No scheduler bound at all: unknown, not the host's. */
    s.scheduler.mem_per_node_bytes = GOV_UNKNOWN;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.memory.effective.limit_bytes, GOV_UNKNOWN);
}

static void test_no_scheduler_ignores_its_fields(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.cpus_per_task = 1;
    s.scheduler.mem_per_node_bytes = 1 * MiB;
    gov_snapshot_resolve(&s);
    assert_int_equal(s.cpu.scheduler.cpus, GOV_UNKNOWN);
    assert_int_equal(s.memory.scheduler.limit_bytes, GOV_UNKNOWN);
    assert_int_equal(s.cpu.effective.binding, GOV_LAYER_HOST);
}

static void test_overflow_saturates(void **state)
{
    gov_snapshot s = host_only();

    s.scheduler.source = GOV_SCHED_ENVIRONMENT;
    s.scheduler.mem_per_cpu_bytes = UINT64_MAX / 2;
    s.scheduler.cpus_per_task = 4;
    gov_snapshot_resolve(&s);
    assert_int_not_equal(s.memory.scheduler.per_task_bytes, GOV_UNKNOWN);
    assert_int_equal(s.memory.effective.limit_bytes, 64 * GiB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_known),
        cmocka_unit_test(test_host_is_a_bound),
        cmocka_unit_test(test_quota_one_and_a_half),
        cmocka_unit_test(test_quota_below_one_cpu),
        cmocka_unit_test(test_cpuset_smaller_than_quota),
        cmocka_unit_test(test_affinity_narrower_than_cpuset),
        cmocka_unit_test(test_scheduler_cpu_bound_and_enforcement),
        cmocka_unit_test(test_cpus_on_node_without_cpus_per_task),
        cmocka_unit_test(test_share_above_cpus_per_task),
        cmocka_unit_test(test_memory_high_below_max),
        cmocka_unit_test(test_scheduler_memory),
        cmocka_unit_test(test_task_holding_several_tasks_cpus),
        cmocka_unit_test(test_slurm_step_limit_enforced),
        cmocka_unit_test(test_high_does_not_enforce),
        cmocka_unit_test(test_scheduler_remaining_uses_working_set),
        cmocka_unit_test(test_gpu_enforcement),
        cmocka_unit_test(test_gpu_shares),
        cmocka_unit_test(test_hidden_cgroups_and_who_made_the_facts),
        cmocka_unit_test(test_no_scheduler_ignores_its_fields),
        cmocka_unit_test(test_overflow_saturates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
