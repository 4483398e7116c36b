/* Heap snapshots (gov_snapshot_new/free): born unknown and stale, usable by
 * every call that takes a snapshot, the same as a stack one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "admission_test_util.h"

static void test_new_is_unknown(void **state)
{
    gov_snapshot *h = NULL, cleared;
    char *a, *b;

    assert_int_equal(gov_snapshot_new(&h), 0);
    assert_non_null(h);
    assert_int_equal(h->captured_ns, 0);
    assert_int_equal(h->cpu.effective.workers, GOV_UNKNOWN);
    assert_true(isnan(h->cpu.effective.capacity_cores));
    assert_int_equal(h->memory.effective.limit_bytes, GOV_UNKNOWN);
    assert_int_equal(h->accel.gpu_index, -1);
    /* The same JSON as a snapshot cleared in place. */
    gov_snapshot_init(&cleared);
    assert_int_equal(gov_snapshot_json(h, &a, NULL), 0);
    assert_int_equal(gov_snapshot_json(&cleared, &b, NULL), 0);
    assert_string_equal(a, b);
    free(a);
    free(b);
    gov_snapshot_free(h);
}

static void test_bad_arguments(void **state)
{
    assert_int_equal(gov_snapshot_new(NULL), GOV_EINVAL);
    gov_snapshot_free(NULL);
}

/* Captured into, a heap snapshot is what a stack capture gives.  The
 * governor reads the test's clock, set to the capture's own time, so that
 * the decision is about the snapshot's contents at any machine speed: on
 * the real clock, a test held up for over a second between capture and
 * decision would rightly be told STALE_SNAPSHOT. */
static void test_capture_plan_and_decide(void **state)
{
    static const char *const env[] = {
        "SLURM_JOB_ID=5", "SLURM_STEP_ID=0", "SLURM_NODEID=0", "SLURM_CPUS_PER_TASK=2",
        "SLURM_CPUS_ON_NODE=2", "SLURM_TASKS_PER_NODE=1", "SLURM_NTASKS=1",
        "SLURM_NNODES=1", "SLURM_MEM_PER_NODE=200", NULL,
    };
    gov_options o = { .sysroot = GOV_FIXTURES "/snapshot/slurm-v1-node", .envp = env,
                      .trusted_uid = GOV_UID_NONE };
    gov_estimate est = { .cpu_threads = 1, .batch_min = 1, .batch_max = 1 };
    test_clock clk = { 10000 * MS };
    gov_context *ctx = NULL;
    gov_governor *gov;
    gov_snapshot *h = NULL;
    gov_decision d;
    gov_plan p;

    assert_int_equal(gov_context_create(&o, &ctx), 0);
    assert_int_equal(gov_snapshot_new(&h), 0);
    gov = make_governor(&clk, 0);
    assert_non_null(gov);

    /* Never captured: captured_ns 0 is older than any valid age. */
    assert_int_equal(gov_governor_decide(gov, h, &est, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_STALE_SNAPSHOT);

    assert_int_equal(gov_snapshot_capture(ctx, h), 0);
    assert_int_equal(h->scheduler.source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(h->cpu.effective.workers, 2);
    assert_int_equal(gov_plan_compute(h, 0, 0, &p), 0);
    assert_int_equal(p.cpu_workers, 2);
    assert_int_equal(p.workers, 1);
    assert_int_equal(p.threads_per_worker, 2);
    assert_true(p.memory_limit_per_worker <= 200ull << 20);
    /* The fixture's memory PSI (some avg10 2.88 %) is above the gate. */
    clk.now = h->captured_ns;
    assert_int_equal(gov_governor_decide(gov, h, &est, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_MEMORY_PRESSURE);

    gov_governor_destroy(gov);
    gov_snapshot_free(h);
    gov_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_is_unknown),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_capture_plan_and_decide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
