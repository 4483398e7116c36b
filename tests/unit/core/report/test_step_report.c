/* The step report's record (core/report/step_report.c): its line both ways, the
 * findings' rules at their thresholds, the JSON reader under it
 * (core/base/json_read.c), PSI totals and a real step's cgroups
 * (core/report/step_usage.c, on a fixture captured from a cgroup/v1 step, see
 * tests/slurm/capture_report_v1.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "fixture_root.h"
#include "base.h"
#include "step_report.h"

static gov_step_record sample(void)
{
    gov_step_record r;

    gov__step_record_init(&r);
    r.job = 41;
    r.uid = 1001;
    strcpy(r.step, "0");
    strcpy(r.node, "node-1.a_b");
    r.start = 1796194264;
    r.elapsed_s = 10.0;
    r.tasks = 2;
    r.budget_cpus = 4;
    r.budget_memory_bytes = 400u << 20;
    r.cpu_s = 9.5;
    r.memory_peak_bytes = 100u << 20;
    r.oom_kills = 0;
    return r;
}

static void test_round_trip(void **state)
{
    gov_step_record r = sample(), back;
    char line[GOV_REPORT_LINE_MAX];
    int len;

    (void)state;
    r.told_tasks = 2;
    r.told_threads = 2;
    r.cpu_some_s = 1.25;
    gov__step_record_judge(&r, 1);
    len = gov__step_record_encode(&r, line, sizeof line);
    assert_true(len > 0);
    assert_int_equal(line[len - 1], '\n');
    assert_string_equal(line,
        "{\"schema\":\"governor.step-report/1\",\"job\":41,\"step\":\"0\",\"node\":\"node-1.a_b\","
        "\"uid\":1001,\"start\":1796194264,\"elapsed_s\":10.000,\"time_limit_s\":null,"
        "\"job_end\":null,\"tasks\":2,"
        "\"budget\":{\"cpus\":4,\"memory_bytes\":419430400,\"gpus\":null,"
        "\"gpu_share\":null,\"gpu_memory_bytes\":null},"
        "\"used\":{\"cpu_s\":9.500,\"cpu_efficiency\":0.2375,\"cpu_source\":\"rusage\","
        "\"memory_peak_bytes\":104857600,\"memory_cache_bytes\":null,"
        "\"memory_working_set_bytes\":null,\"memory_efficiency\":null,"
        "\"memory_limit_bytes\":null,\"oom_kills\":0,\"cpu_throttled_s\":null,"
        "\"pressure\":{\"cpu_some_s\":1.250,\"memory_some_s\":null,\"memory_full_s\":null}},"
        "\"recovered\":false,\"told\":{\"tasks\":2,\"threads\":2,\"memory_bytes\":null},"
        "\"findings\":[\"cpu_underused\"]}\n");
    assert_int_equal(gov__step_record_decode(line, (size_t)len - 1, &back), 0);
    assert_int_equal(back.job, 41);
    assert_string_equal(back.node, "node-1.a_b");
    assert_true(back.budget_gpus == GOV_UNKNOWN);
    assert_true(isnan(back.budget_gpu_share));
    assert_true(back.budget_gpu_memory_bytes == GOV_UNKNOWN);
    assert_true(isnan(back.memory_some_s));
    assert_true(back.cpu_some_s == 1.25);
    assert_int_equal(back.told_tasks, 2);
    assert_true(back.told_memory_bytes == GOV_UNKNOWN);
    assert_int_equal(back.findings, 1u << GOV_FINDING_CPU_UNDERUSED);
    assert_false(back.cpu_from_cgroup);
}

/* A shard's share of its GPU and a MIG profile's memory, as sealed, come
 * back from the line; a record of an earlier version, without them, reads
 * as unknown. */
static void test_gpu_share(void **state)
{
    gov_step_record r = sample(), back;
    char line[GOV_REPORT_LINE_MAX];
    int len;

    (void)state;
    r.budget_gpus = 1;
    r.budget_gpu_share = 0.25;
    r.budget_gpu_memory_bytes = 5ull << 30;
    len = gov__step_record_encode(&r, line, sizeof line);
    assert_true(len > 0);
    assert_non_null(strstr(line, "\"gpus\":1,\"gpu_share\":0.250,\"gpu_memory_bytes\":5368709120}"));
    assert_int_equal(gov__step_record_decode(line, (size_t)len - 1, &back), 0);
    assert_true(back.budget_gpu_share == 0.25);
    assert_true(back.budget_gpu_memory_bytes == 5ull << 30);

    /* The same record as an earlier version wrote it. */
    {
        static const char added[] = ",\"gpu_share\":0.250,\"gpu_memory_bytes\":5368709120";
        char *at = strstr(line, added);

        assert_non_null(at);
        memmove(at, at + strlen(added), strlen(at + strlen(added)) + 1);
        assert_int_equal(gov__step_record_decode(line, strlen(line) - 1, &back), 0);
        assert_true(isnan(back.budget_gpu_share));
        assert_true(back.budget_gpu_memory_bytes == GOV_UNKNOWN);
        assert_int_equal(back.budget_gpus, 1);
    }
}

/* The job's time limit: a step that lasted to the job's end timed out; a
 * batch step, which lasts as long as its job, that ran under a quarter of
 * the limit asked too much, however short it was. */
static void test_judge_time(void **state)
{
    gov_step_record r = sample(), back;
    char line[GOV_REPORT_LINE_MAX];
    int len;

    (void)state;
    r.cpu_s = 9.9;
    r.memory_peak_bytes = 300u << 20;
    r.time_limit_s = 3600;
    r.job_end = r.start + 3000;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);   /* step 0: not the job's whole run */
    strcpy(r.step, "batch");
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 1u << GOV_FINDING_TIME_OVERREQUESTED);
    len = gov__step_record_encode(&r, line, sizeof line);
    assert_true(len > 0);
    assert_non_null(strstr(line, "\"time_limit_s\":3600,\"job_end\":1796197264,"));
    assert_int_equal(gov__step_record_decode(line, (size_t)len - 1, &back), 0);
    assert_int_equal(back.time_limit_s, 3600);
    assert_int_equal(back.job_end, r.job_end);
    assert_int_equal(back.findings, 1u << GOV_FINDING_TIME_OVERREQUESTED);
    /* A quarter exactly is used enough. */
    r.elapsed_s = 900;
    r.cpu_s = 3590;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);
    /* Ended at the job's end (start in whole seconds: a second's slack). */
    r.elapsed_s = 2999.2;
    r.cpu_s = 11990;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 1u << GOV_FINDING_TIMEOUT);
    r.elapsed_s = 2998.9;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);
    assert_true(gov__time_overrequested(899.9, 3600));
    assert_false(gov__time_overrequested(900, 3600));
    assert_false(gov__time_overrequested(1, GOV_UNKNOWN));
    assert_false(gov__time_overrequested(NAN, 3600));
}

static void test_told_null(void **state)
{
    gov_step_record r = sample(), back;
    char line[GOV_REPORT_LINE_MAX];
    int len;

    (void)state;
    r.cpu_from_cgroup = true;
    len = gov__step_record_encode(&r, line, sizeof line);
    assert_non_null(strstr(line, ",\"told\":null,"));
    assert_non_null(strstr(line, "\"cpu_source\":\"cgroup\""));
    assert_int_equal(gov__step_record_decode(line, (size_t)len, &back), 0);
    assert_int_equal(back.told_tasks, 0);
    assert_true(back.cpu_from_cgroup);
}

static void test_names_refused(void **state)
{
    gov_step_record r = sample();
    char line[GOV_REPORT_LINE_MAX];

    (void)state;
    strcpy(r.node, "a\"b");
    assert_int_equal(gov__step_record_encode(&r, line, sizeof line), GOV_EINVAL);
    r = sample();
    assert_int_equal(gov__step_record_encode(&r, line, 40), GOV_ENOSPC);
}

static int decode(const char *text)
{
    gov_step_record r;

    return gov__step_record_decode(text, strlen(text), &r);
}

static void test_decode_refuses(void **state)
{
    (void)state;
    assert_int_equal(decode("{\"schema\":\"governor.step-report/2\",\"job\":1}"), GOV_EVERSION);
    assert_int_equal(decode("{\"job\":1,\"step\":\"0\",\"node\":\"n\"}"), GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"step\":\"0\",\"node\":\"n\"}"),
                     GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"step\":\"0\","
                            "\"node\":\"n\\u0041\"}"), GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"job\":2,"
                            "\"step\":\"0\",\"node\":\"n\"}"), GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":-1,\"step\":\"0\","
                            "\"node\":\"n\"}"), GOV_EPARSE);
    assert_int_equal(decode("[1]"), GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"step\":\"0\","
                            "\"node\":\"n\"} x"), GOV_EPARSE);
    /* Seconds beyond any step (here 1e60, whose %.3f does not fit the
     * reader's 64 characters) and 1e308 are refused, not written back
     * as a figure the reader refuses or JSON cannot hold. */
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"step\":\"0\","
                            "\"node\":\"n\",\"elapsed_s\":1e60}"), GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"step\":\"0\","
                            "\"node\":\"n\",\"used\":{\"cpu_s\":1e308}}"), GOV_EPARSE);
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"step\":\"0\","
                            "\"node\":\"n\",\"elapsed_s\":1e15}"), 0);
    /* A later version's member and finding are passed over. */
    assert_int_equal(decode("{\"schema\":\"governor.step-report/1\",\"job\":1,\"step\":\"0\","
                            "\"node\":\"n\",\"new\":{\"x\":[1,2]},\"findings\":[\"new_one\"]}"), 0);
}

static void test_judge(void **state)
{
    gov_step_record r = sample();

    (void)state;
    /* 90 % of the budget exactly is near; a byte less is not. */
    r.memory_peak_bytes = (uint64_t)(0.9 * (double)r.budget_memory_bytes);
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 1u << GOV_FINDING_MEMORY_NEAR_LIMIT);
    r.memory_peak_bytes--;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);
    /* 9.5 s of 40 is under a quarter; the step is too short under 60 s. */
    assert_true(fabs(r.cpu_efficiency - 0.2375) < 1e-9);
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 1u << GOV_FINDING_CPU_UNDERUSED);
    r.cpu_s = 10.0;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 0);
    /* Unknown figures judge nothing; without the cache's figure the peak
     * is judged near the limit, and nothing is judged underused. */
    assert_true(r.memory_working_set_bytes == GOV_UNKNOWN);
    assert_true(isnan(r.memory_efficiency));
    r.cpu_s = NAN;
    r.memory_peak_bytes = GOV_UNKNOWN;
    r.oom_kills = 3;
    r.cpu_throttled_s = 1.0;
    r.memory_some_s = 0.99;
    gov__step_record_judge(&r, 10);
    assert_true(isnan(r.cpu_efficiency));
    assert_int_equal(r.findings, (1u << GOV_FINDING_OOM_KILLED) | (1u << GOV_FINDING_THROTTLED));
    r.memory_some_s = 1.0;
    gov__step_record_judge(&r, 10);
    assert_true(r.findings & (1u << GOV_FINDING_STALLED));
}

/* A hard limit below the sealed memory at the step's end (lowered while it
 * ran, Slurm 26.05) is said whatever the step's length; equal, above or
 * unknown is not. */
static void test_judge_memory_lowered(void **state)
{
    gov_step_record r = sample(), back;
    char line[GOV_REPORT_LINE_MAX];
    int len;

    (void)state;
    r.cpu_s = 40.0;
    r.memory_peak_bytes = 200u << 20;
    r.memory_limit_bytes = r.budget_memory_bytes;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);
    r.memory_limit_bytes = 150u << 20;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 1u << GOV_FINDING_MEMORY_LOWERED);
    len = gov__step_record_encode(&r, line, sizeof line);
    assert_non_null(strstr(line, "\"memory_limit_bytes\":157286400,"));
    assert_non_null(strstr(line, "\"findings\":[\"memory_lowered\"]"));
    assert_int_equal(gov__step_record_decode(line, (size_t)len - 1, &back), 0);
    assert_int_equal(back.memory_limit_bytes, 150u << 20);
    assert_int_equal(back.findings, 1u << GOV_FINDING_MEMORY_LOWERED);
    r.memory_limit_bytes = GOV_UNKNOWN;
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);
}

/* The working set is the peak less the page cache held at the end: a step
 * whose peak was its cache is not near its limit.  Underused is judged on
 * the peak itself (cache charged after the peak would lower the working
 * set below what the step held then), unless the step was killed for
 * memory or is too short to judge. */
static void test_judge_working_set(void **state)
{
    gov_step_record r = sample();

    (void)state;
    r.cpu_s = 40.0;     /* its 4 CPUs busy */
    r.budget_memory_bytes = 200u << 20;
    r.memory_peak_bytes = 198u << 20;
    r.memory_cache_bytes = 190u << 20;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.memory_working_set_bytes, 8u << 20);
    assert_true(fabs(r.memory_efficiency - 0.04) < 1e-9);
    assert_int_equal(r.findings, 0);
    /* 90 % exactly is near. */
    r.memory_cache_bytes = r.memory_peak_bytes - (uint64_t)(0.9 * (double)(200u << 20));
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 1u << GOV_FINDING_MEMORY_NEAR_LIMIT);
    /* More cache than peak (charged after the peak): a working set of 0. */
    r.memory_cache_bytes = r.memory_peak_bytes + 1;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.memory_working_set_bytes, 0);
    assert_int_equal(r.findings, 0);
    /* The peak under a quarter is underused; a quarter exactly is not. */
    r.memory_peak_bytes = (50u << 20) - 1;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 1u << GOV_FINDING_MEMORY_UNDERUSED);
    /* Too short: underused is a judgement over a run. */
    gov__step_record_judge(&r, 60);
    assert_int_equal(r.findings, 0);
    /* Killed for memory: never underused. */
    r.oom_kills = 1;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 1u << GOV_FINDING_OOM_KILLED);
    r.oom_kills = 0;
    r.memory_peak_bytes = 50u << 20;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 0);
    /* Without the cache's figure: underused on the peak alike. */
    r.memory_peak_bytes = 10u << 20;
    r.memory_cache_bytes = GOV_UNKNOWN;
    gov__step_record_judge(&r, 10);
    assert_int_equal(r.findings, 1u << GOV_FINDING_MEMORY_UNDERUSED);
}

static void test_finding_names(void **state)
{
    (void)state;
    for (unsigned f = 0; f < GOV_FINDING_COUNT; f++) {
        const char *n = gov__finding_name((gov_finding)f);
        assert_non_null(n);
        assert_non_null(gov__finding_text((gov_finding)f));
        assert_int_equal(gov__finding_from_name(n, strlen(n)), f);
    }
    assert_null(gov__finding_name(GOV_FINDING_COUNT));
    assert_int_equal(gov__finding_from_name("oom", 3), GOV_FINDING_COUNT);
}

static void test_json_leaves(void **state)
{
    gov_json_leaf l[8];
    const char *t = " {\"a\":{\"b\":[1,-2.5e3,\"x\\n\"]},\"c\":null,\"d\":true} ";

    (void)state;
    assert_int_equal(gov__json_leaves(t, strlen(t), l, 8), 5);
    assert_string_equal(l[0].path, "a.b[]");
    assert_int_equal(l[1].type, GOV_JSON_NUMBER);
    assert_int_equal(l[1].len, 6);
    assert_int_equal(l[2].type, GOV_JSON_STRING);
    assert_false(l[2].plain);
    assert_string_equal(l[3].path, "c");
    assert_int_equal(l[4].type, GOV_JSON_BOOL);
    assert_int_equal(gov__json_leaves(t, strlen(t), l, 4), GOV_EPARSE);
    static const char *const bad[] = {
        "", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "01", "1.", "-", "\"a\tb\"", "\"\\x\"",
        "\"\\u12G4\"", "{\"a.b\":1}", "tru", "{\"a\":1}}", "[[[[[[[[[[1]]]]]]]]]]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(gov__json_leaves(bad[i], strlen(bad[i]), l, 8), GOV_EPARSE);
}

static void test_psi_totals(void **state)
{
    /* A step's memory.pressure from the cgroup/v2 guest (fixture slurm-v2),
     * then the same lines with other totals, and cpu.pressure's one line
     * (kernels before 5.13). */
    gov_root root = fixture_root(GOV_FIXTURES "/cgroup/slurm-v2");
    const char *mem = "some avg10=0.00 avg60=0.00 avg300=0.00 total=1234\n"
                      "full avg10=0.00 avg60=0.00 avg300=0.00 total=56\n";
    char real[512];
    size_t n;
    gov_psi p;

    (void)state;
    assert_int_equal(gov__read_file(&root, "/sys/fs/cgroup/system.slice/node1_slurmstepd.scope/"
                                          "job_1/step_0/user/memory.pressure",
                                   real, sizeof real, &n), 0);
    gov__root_close(&root);
    assert_int_equal(gov__psi_parse(real, n, GOV_PSI_STRICT, &p), 0);
    assert_int_equal(p.some_total_us, 0);
    assert_int_equal(p.full_total_us, 0);
    assert_int_equal(gov__psi_parse(mem, strlen(mem), GOV_PSI_STRICT, &p), 0);
    assert_int_equal(p.some_total_us, 1234);
    assert_int_equal(p.full_total_us, 56);
    assert_int_equal(gov__psi_parse(mem, (size_t)(strchr(mem, '\n') - mem + 1), GOV_PSI_STRICT,
                                    &p), 0);
    assert_true(p.full_total_us == GOV_UNKNOWN);
    assert_int_equal(gov__psi_parse("some avg10=1\n", 13, GOV_PSI_STRICT, &p), GOV_EPARSE);
    assert_int_equal(gov__psi_parse("full total=1\n", 13, GOV_PSI_STRICT, &p), GOV_EPARSE);
    assert_int_equal(gov__psi_parse("some total=1\nsome total=2\n", 26, GOV_PSI_STRICT, &p),
                     GOV_EPARSE);
    /* Lenient, the same text is read: the last "some" line stands. */
    assert_int_equal(gov__psi_parse("some avg10=1 total=1\nsome avg10=2 total=2\n", 42, 0, &p), 0);
    assert_int_equal(p.some_total_us, 2);
    assert_int_equal(gov__psi_parse("some total=1\nnoise\n", 19, GOV_PSI_STRICT, &p),
                     GOV_EPARSE);
}

/* The step of the fixture tree's task, and what it used, as the plugin
 * reads them. */
static void read_step(const char *tree, gov_step_cgroups *cg, gov_step_record *r)
{
    char path[256];
    gov_root root;
    gov_cg_text t = { 0 };

    snprintf(path, sizeof path, "%s/cgroup/%s", GOV_FIXTURES, tree);
    root = fixture_root(path);
    assert_true(gov__cg_read_texts_of(&root, "/proc/self/cgroup", &t));
    assert_int_equal(gov__step_cgroups_find(&root, &t, cg), 0);
    free(t.mountinfo);
    gov__step_record_init(r);
    gov__step_usage_read(&root, cg, r);
    gov__root_close(&root);
}

static void test_v1_step(void **state)
{
    gov_step_cgroups cg;
    gov_step_record r;

    (void)state;
    read_step("slurm-v1-report", &cg, &r);
    assert_int_equal(cg.version, 1);
    assert_string_equal(cg.dir, "/sys/fs/cgroup/memory/slurm_node1/uid_1001/job_1/step_0");
    assert_string_equal(cg.cpuacct, "");
    assert_int_equal(r.memory_peak_bytes, 209715200);
    /* The file task 0 wrote: total_active_file + total_inactive_file. */
    assert_int_equal(r.memory_cache_bytes, 192512 + 16846848);
    /* The kill counts in the victim's task cgroup, not the step's. */
    assert_int_equal(r.oom_kills, 1);
    assert_true(isnan(r.cpu_s));
    assert_false(r.cpu_from_cgroup);
    assert_true(isnan(r.cpu_some_s));
}

/* A kill in a cgroup a user nested below her task counts too: the step's
 * whole subtree is summed (the fixture's tree, with the victim's own file
 * copied one level down under a cgroup of the user's making). */
static void test_v1_nested_oom(void **state)
{
    char tmp[] = "/tmp/gov-step-report.XXXXXX", cmd[2048], task[512];
    gov_root root;
    gov_cg_text t = { 0 };
    gov_step_cgroups cg;
    gov_step_record r;

    (void)state;
    assert_non_null(mkdtemp(tmp));
    snprintf(task, sizeof task, "%s/sys/fs/cgroup/memory/slurm_node1/uid_1001/job_1/step_0/task_1",
             tmp);
    snprintf(cmd, sizeof cmd, "cp -a '%s/cgroup/slurm-v1-report/.' '%s' && mkdir -p '%s/mine/deeper' && "
             "cp '%s/memory.oom_control' '%s/mine/deeper/memory.oom_control'",
             GOV_FIXTURES, tmp, task, task, task);
    assert_int_equal(system(cmd), 0);
    root = fixture_root(tmp);
    assert_true(gov__cg_read_texts_of(&root, "/proc/self/cgroup", &t));
    assert_int_equal(gov__step_cgroups_find(&root, &t, &cg), 0);
    free(t.mountinfo);
    gov__step_record_init(&r);
    gov__step_usage_read(&root, &cg, &r);
    gov__root_close(&root);
    assert_int_equal(r.oom_kills, 2);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

/* A step of the cgroup/v2 guest, captured from its task after a second of
 * CPU (tests/guest/capture.sh, slurm-v2-report): the step's cgroup is
 * step_0/user, where its limits sit and slurmstepd does not. */
static void test_v2_step(void **state)
{
    gov_step_cgroups cg;
    gov_step_record r;

    (void)state;
    read_step("slurm-v2-report", &cg, &r);
    assert_int_equal(cg.version, 2);
    assert_string_equal(cg.dir, "/sys/fs/cgroup/system.slice/node1_slurmstepd.scope/job_3/step_0/user");
    assert_true(r.cpu_from_cgroup);
    assert_true(fabs(r.cpu_s - 9.290747) < 1e-9);
    assert_true(r.cpu_throttled_s == 0);
    assert_int_equal(r.memory_peak_bytes, 76234752);
    /* active_file + inactive_file of the step's memory.stat, not shmem. */
    assert_int_equal(r.memory_cache_bytes, 5013504 + 405504);
    assert_int_equal(r.oom_kills, 0);
    assert_true(fabs(r.cpu_some_s - 0.606386) < 1e-9);
    assert_true(r.memory_some_s == 0 && r.memory_full_s == 0);
}

static void test_not_a_task(void **state)
{
    /* A process outside a Slurm task's cgroup gives nothing. */
    gov_root root = fixture_root(GOV_FIXTURES "/cgroup/hybrid-host");
    gov_cg_text t = { 0 };
    gov_step_cgroups cg;

    (void)state;
    assert_true(gov__cg_read_texts_of(&root, "/proc/self/cgroup", &t));
    assert_int_equal(gov__step_cgroups_find(&root, &t, &cg), GOV_ENOENT);
    free(t.mountinfo);
    gov__root_close(&root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_gpu_share),
        cmocka_unit_test(test_judge_time),
        cmocka_unit_test(test_judge_memory_lowered),
        cmocka_unit_test(test_told_null),
        cmocka_unit_test(test_names_refused),
        cmocka_unit_test(test_decode_refuses),
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_judge_working_set),
        cmocka_unit_test(test_finding_names),
        cmocka_unit_test(test_json_leaves),
        cmocka_unit_test(test_psi_totals),
        cmocka_unit_test(test_v1_step),
        cmocka_unit_test(test_v1_nested_oom),
        cmocka_unit_test(test_v2_step),
        cmocka_unit_test(test_not_a_task),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
