/* environment.c through the SPANK stand-in: the variables user_init sets
 * once for every task of a step, what each task corrects (its own mask),
 * the user's own values kept, a value slurmstepd drops named in
 * GOVERNOR_ENV_REFUSED, an earlier step's exports removed where this step
 * is not governed, what a task was told; and the task snapshot the plan is
 * made from (its mask counted on the node's table, the step's reads taken
 * as they are). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "environment.h"
#include "spank_standin.h"

static cpu_set_t saved;

/* This process on one CPU of its own mask: a task Slurm bound to one CPU. */
static int one_cpu(void **state)
{
    cpu_set_t one;

    (void)state;
    if (sched_getaffinity(0, sizeof saved, &saved))
        return -1;
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &saved)) {
            CPU_SET(c, &one);
            break;
        }
    return sched_setaffinity(0, sizeof one, &one);
}

static int all_cpus(void **state)
{
    (void)state;
    return sched_setaffinity(0, sizeof saved, &saved);
}

/* A step of two tasks of cpus CPUs each on this node, 400 MiB, in mode
 * runtimes (or threads). */
static void step_of(gov_descriptor *d, uint64_t cpus, bool runtimes)
{
    gov__descriptor_init(d);
    d->step_kind = GOV_STEP_NORMAL;
    d->nodes = 1;
    d->tasks_on_node = d->tasks_total = 2;
    d->cpus_per_task = cpus;
    d->cpus_on_node = 2 * cpus;
    d->step_mem_mib = 400;
    d->policy.runtimes = runtimes;
    d->policy.threads = !runtimes;
}

static gov_spank_policy site;

static int setup_site(void **state)
{
    (void)state;
    gov__spank_policy_init(&site);
    return one_cpu(state);
}

/* user_init presets the step's figure for every task; a task bound to one
 * CPU corrects it to its own. */
static void test_step_then_task(void **state)
{
    struct spank_handle sp;
    gov_env_step e;
    gov_env_told told;
    gov_descriptor d;

    (void)state;
    standin_init(&sp, S_CTX_REMOTE);
    memset(&e, 0, sizeof e);
    step_of(&d, 8, true);
    gov__environment_step(&sp, &site, &d, &e);
    assert_true(e.inputs_read && e.reads_done);
    assert_non_null(standin_getenv(&sp, "OMP_NUM_THREADS"));
    assert_non_null(standin_getenv(&sp, "GOMEMLIMIT"));
    assert_non_null(e.preset[0]);
    gov__environment_task(&sp, &site, &d, NULL, &e, &told);
    assert_string_equal(standin_getenv(&sp, "OMP_NUM_THREADS"), "1");
    assert_string_equal(standin_getenv(&sp, "GOMAXPROCS"), "1");
    assert_true(told.told);
    assert_int_equal(told.threads, 1);
    assert_true(told.memory_bytes != GOV_UNKNOWN && told.memory_bytes <= 200ULL << 20);
    assert_null(standin_getenv(&sp, "GOVERNOR_ENV_REFUSED"));
    gov__environment_end(&e);
    assert_false(e.inputs_read || e.reads_done);
    standin_free(&sp);
}

/* A value the user set stays theirs, in the preset and in each task; in
 * threads mode the memory variables are not set and nothing of memory is
 * told. */
static void test_user_values(void **state)
{
    struct spank_handle sp;
    gov_env_step e;
    gov_env_told told;
    gov_descriptor d;

    (void)state;
    standin_init(&sp, S_CTX_REMOTE);
    standin_env(&sp, "OMP_NUM_THREADS", "7");
    memset(&e, 0, sizeof e);
    step_of(&d, 2, false);
    gov__environment_step(&sp, &site, &d, &e);
    assert_string_equal(standin_getenv(&sp, "OMP_NUM_THREADS"), "7");
    gov__environment_task(&sp, &site, &d, NULL, &e, &told);
    assert_string_equal(standin_getenv(&sp, "OMP_NUM_THREADS"), "7");
    assert_string_equal(standin_getenv(&sp, "OPENBLAS_NUM_THREADS"), "1");
    assert_null(standin_getenv(&sp, "GOMEMLIMIT"));
    assert_true(told.told);
    assert_int_equal(told.memory_bytes, GOV_UNKNOWN);
    gov__environment_end(&e);
    standin_free(&sp);
}

/* slurmstepd drops a value past its limit and says success: the task
 * starts with its own, the variable is named in GOVERNOR_ENV_REFUSED and in
 * slurmd's log. */
static void test_refused_value(void **state)
{
    struct spank_handle sp;
    gov_env_step e;
    gov_env_told told;
    gov_descriptor d;
    const char *refused;

    (void)state;
    standin_init(&sp, S_CTX_REMOTE);
    sp.drop_setenv = "NODE_OPTIONS";
    standin_log_clear();
    memset(&e, 0, sizeof e);
    step_of(&d, 1, true);
    gov__environment_step(&sp, &site, &d, &e);
    gov__environment_task(&sp, &site, &d, NULL, &e, &told);
    refused = standin_getenv(&sp, "GOVERNOR_ENV_REFUSED");
    assert_non_null(refused);
    assert_string_equal(refused, "NODE_OPTIONS");
    assert_non_null(standin_logged("error: governor: slurmstepd refused NODE_OPTIONS"));
    assert_null(standin_getenv(&sp, "NODE_OPTIONS"));
    gov__environment_end(&e);
    standin_free(&sp);
}

/* A step without the governor: what an earlier one exported (its marker
 * says so) is removed, a user's own value is not. */
static void test_not_governed(void **state)
{
    struct spank_handle sp;
    gov_env_step e;
    gov_env_told told;

    (void)state;
    standin_init(&sp, S_CTX_REMOTE);
    standin_env(&sp, GOV_THREADS_ENV, "4");
    standin_env(&sp, "OMP_NUM_THREADS", "4");
    standin_env(&sp, "GOMAXPROCS", "3");
    memset(&e, 0, sizeof e);
    gov__environment_step(&sp, &site, NULL, &e);
    assert_false(e.inputs_read);
    gov__environment_task(&sp, &site, NULL, NULL, &e, &told);
    assert_null(standin_getenv(&sp, "OMP_NUM_THREADS"));
    assert_string_equal(standin_getenv(&sp, "GOMAXPROCS"), "3");
    assert_false(told.told);
    standin_free(&sp);
}

/* The task snapshot: this process's mask counted on this machine's table
 * before the descriptor applies, so that the GPUs local to the task (none
 * on a node without GPUs) are counted; the step's reads taken as they
 * are. */
static void test_task_snapshot(void **state)
{
    gov_topo_table *t = malloc(sizeof *t);
    static gov_snapshot s, again;
    static gov_env_step e;
    gov_descriptor d;

    (void)state;
    assert_non_null(t);
    assert_int_equal(gov__topo_discover(NULL, t), 0);
    gov__descriptor_init(&d);
    d.topo.present = true;
    d.topo.packages = d.topo.cores = d.topo.pus = d.topo.numa_nodes = 1;
    gov__environment_snapshot(&d, t, NULL, &s);
    assert_int_equal(s.topology.source, GOV_TOPOLOGY_SOURCE_DESCRIPTOR);
    assert_int_equal(s.cpu.affinity.count, 1);
    assert_int_equal(s.topology.task.pus, 1);
    assert_int_equal(s.topology.task.cores, 1);
    assert_int_equal(s.topology.numa_count, s.topology.task.numa_nodes);
    assert_int_equal(s.topology.task_gpus_local, 0);
    /* Without the step's reads the task reads the host's memory itself. */
    assert_true(s.memory.host.total_bytes != GOV_UNKNOWN);
    /* The step's reads: the host's memory, and the cgroup limits
     * slurmstepd read (here this process's own, so they match its own). */
    e.reads_done = e.have_cgroups = true;
    e.host_total_bytes = 3ULL << 30;
    e.host_available_bytes = 1ULL << 30;
    gov__cgroup_collect_limits(NULL, &e.cgroups);
    gov__environment_snapshot(&d, t, &e, &again);
    assert_int_equal(again.memory.host.total_bytes, 3ULL << 30);
    assert_int_equal(again.memory.host.available_bytes, 1ULL << 30);
    assert_int_equal(again.memory.cgroup.status, s.memory.cgroup.status);
    assert_int_equal(again.memory.cgroup.limit_bytes, s.memory.cgroup.limit_bytes);
    assert_int_equal(again.cpu.cgroup.cpuset_count, s.cpu.cgroup.cpuset_count);
    /* A limit the step read, not this process's, is what the task plans
     * with. */
    e.cgroups.memory.version = 1;
    e.cgroups.memory.status = GOV_LIMIT_LIMITED;
    e.cgroups.memory.limit_bytes = 300ULL << 20;
    gov__environment_snapshot(&d, t, &e, &again);
    assert_int_equal(again.memory.cgroup.limit_bytes, 300ULL << 20);
    assert_int_equal(again.memory.effective.binding, GOV_LAYER_CGROUP);
    /* Without a table the task part is unknown, and so are its GPUs. */
    gov__environment_snapshot(&d, NULL, NULL, &s);
    assert_true(s.topology.task.cores == GOV_UNKNOWN);
    assert_true(s.topology.task_gpus_local == GOV_UNKNOWN);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_then_task),
        cmocka_unit_test(test_user_values),
        cmocka_unit_test(test_refused_value),
        cmocka_unit_test(test_not_governed),
        cmocka_unit_test(test_task_snapshot),
    };

    return cmocka_run_group_tests(tests, setup_site, all_cpus);
}
