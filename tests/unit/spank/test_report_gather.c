/* report_gather.c and report_write.c through the SPANK stand-in: what each
 * task's process puts in its slot of the shared page (sealed, told, the
 * job's times) comes back in the record the last task's exit writes to
 * root's file; a task outside a step's cgroups leaves the CPU time to the
 * rusage; a launch whose last task never exited is written at the step's
 * end; a report directory that cannot take it costs a log line, never the
 * step.  The process counts GPU device nodes in a /dev of its own, so that
 * an end-to-end case making fake ones on the host beside it changes
 * nothing here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "report_gather.h"
#include "skip_because.h"
#include "spank_standin.h"

static char dir[64];
static bool own_dev;

static int setup(void **state)
{
    (void)state;
    if (standin_run_dir(dir, sizeof dir))
        dir[0] = '\0';
    own_dev = dir[0] && standin_private_dev() == 0;
    return 0;
}

static int teardown(void **state)
{
    char cmd[96];

    (void)state;
    if (!dir[0])
        return 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void step_of(gov_descriptor *d)
{
    gov__descriptor_init(d);
    d->step_kind = GOV_STEP_NORMAL;
    d->job_id = 42;
    d->step_id = 1;
    d->uid = 1000;
    d->tasks_on_node = 2;
    d->cpus_on_node = 4;
    d->step_mem_mib = 400;
}

/* The file's last line, decoded. */
static void last_record(gov_step_record *rec)
{
    char path[96], line[GOV_REPORT_LINE_MAX], last[GOV_REPORT_LINE_MAX] = "";
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, GOV_REPORT_FILE);
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        memcpy(last, line, sizeof line);
    fclose(f);
    assert_int_equal(gov__step_record_decode(last, strcspn(last, "\n"), rec), 0);
}

static void test_record(void **state)
{
    struct spank_handle sp;
    gov_spank_policy site;
    gov_descriptor step;
    gov_report r;
    gov_step_record rec;

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the step report is root's file");
    if (!own_dev)
        SKIP_BECAUSE(GOV_FACT_NO_MOUNTNS, "the GPU count needs a /dev of its own");
    gov__spank_policy_init(&site);
    snprintf(site.report_dir, sizeof site.report_dir, "%s", dir);
    step_of(&step);
    standin_init(&sp, S_CTX_REMOTE);
    gov__report_begin(&r, &step);
    assert_int_equal(r.nslots, 2);
    /* The first task's fork: this process is in no step's cgroups. */
    sp.task_id = 0;
    sp.task_pid = getpid();
    assert_false(gov__report_task_forked(&r, &sp));
    /* Each task, in its own process: sealed with a grant of none (no GPU
     * device here confirms more), told, the job's times. */
    standin_env(&sp, "SLURM_JOB_START_TIME", "1000");
    standin_env(&sp, "SLURM_JOB_END_TIME", "4600");
    for (int t = 0; t < 2; t++) {
        sp.task_id = t;
        gov__report_sealed(&r, &sp, 0);
        gov__report_told(&r, &sp, 2 - (uint64_t)t, 100ULL << 20);
        gov__report_task_times(&r, &sp);
    }
    /* A task id past the step's is nobody's slot. */
    sp.task_id = 2;
    gov__report_told(&r, &sp, 99, 1);
    gov__report_task_exited(&r, &site, &step);
    assert_true(r.on);
    gov__report_task_exited(&r, &site, &step);
    assert_false(r.on);
    last_record(&rec);
    assert_int_equal(rec.job, 42);
    assert_string_equal(rec.step, "1");
    assert_int_equal(rec.tasks, 2);
    assert_int_equal(rec.budget_cpus, 4);
    assert_int_equal(rec.budget_memory_bytes, 400ULL << 20);
    assert_int_equal(rec.budget_gpus, 0);
    assert_int_equal(rec.told_tasks, 2);
    assert_int_equal(rec.told_threads, 2);
    assert_int_equal(rec.told_memory_bytes, 100ULL << 20);
    assert_int_equal(rec.time_limit_s, 3600);
    assert_int_equal(rec.job_end, 4600);
    assert_false(rec.cpu_from_cgroup);
    /* The record is written once. */
    gov__report_end(&r, &site, &step);
    assert_null(r.slots);
    standin_free(&sp);
}

/* A GPU device node that no device cgroup fences: root opens every node,
 * so nothing counts the grant, and neither a grant of one nor of two is a
 * budget of the record (unknown); where no node at all is there, a grant of
 * none is confirmed (test_record).  The grant's share, sealed, is there. */
static void test_gpu_unfenced(void **state)
{
    struct spank_handle sp;
    gov_spank_policy site;
    gov_descriptor step;
    gov_report r;
    gov_step_record rec;

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the step report is root's file");
    if (!own_dev)
        SKIP_BECAUSE(GOV_FACT_NO_MOUNTNS, "the GPU count needs a /dev of its own");
    assert_int_equal(mknod("/dev/nvidia0", S_IFCHR | 0666, makedev(195, 0)), 0);
    gov__spank_policy_init(&site);
    snprintf(site.report_dir, sizeof site.report_dir, "%s", dir);
    for (uint64_t grant = 1; grant <= 2; grant++) {
        step_of(&step);
        step.tasks_on_node = 1;
        step.step_id = 2 + (uint32_t)grant;
        step.gpu_share_kind = GOV_GPU_SHARE_SHARD;
        step.gpu_share = grant;
        step.gpu_share_of = 4;
        standin_init(&sp, S_CTX_REMOTE);
        gov__report_begin(&r, &step);
        sp.task_id = 0;
        gov__report_sealed(&r, &sp, grant);
        gov__report_task_exited(&r, &site, &step);
        last_record(&rec);
        assert_int_equal(rec.budget_gpus, GOV_UNKNOWN);
        /* The share is root's sealed figure, confirmed or not. */
        assert_true(rec.budget_gpu_share == (double)grant / 4);
        assert_true(rec.budget_gpu_memory_bytes == GOV_UNKNOWN);
        gov__report_end(&r, &site, &step);
        standin_free(&sp);
    }
    assert_int_equal(unlink("/dev/nvidia0"), 0);
}

/* A launch that failed before its last task exited: written at exit. */
static void test_written_at_end(void **state)
{
    gov_spank_policy site;
    gov_descriptor step;
    gov_report r;
    gov_step_record rec;

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the step report is root's file");
    gov__spank_policy_init(&site);
    snprintf(site.report_dir, sizeof site.report_dir, "%s", dir);
    step_of(&step);
    step.step_id = 2;
    gov__report_begin(&r, &step);
    gov__report_end(&r, &site, &step);
    last_record(&rec);
    assert_string_equal(rec.step, "2");
    assert_int_equal(rec.told_tasks, 0);
}

/* A directory that is not there: the site's log says so, the step goes
 * on. */
static void test_no_directory(void **state)
{
    gov_spank_policy site;
    gov_descriptor step;
    gov_report r;

    (void)state;
    gov__spank_policy_init(&site);
    snprintf(site.report_dir, sizeof site.report_dir, "/nonexistent/report");
    step_of(&step);
    standin_log_clear();
    gov__report_begin(&r, &step);
    gov__report_end(&r, &site, &step);
    assert_non_null(standin_logged("info: governor: no step report for this step: "));
    assert_non_null(standin_logged("the step is not affected"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record),
        cmocka_unit_test(test_gpu_unfenced),
        cmocka_unit_test(test_written_at_end),
        cmocka_unit_test(test_no_directory),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
