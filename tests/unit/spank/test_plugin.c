/* governor.so's entry points (plugin.c, startup.c, parse/verdict.c) through
 * the SPANK stand-in, as srun, slurmstepd and slurmd call them: a
 * plugstack line that does not parse (refused where a person is watching,
 * on_init_error= in slurmstepd), --governor values refused at once, a mode
 * word srun takes for the program, a whole governed step (descriptor file,
 * environment, record, nothing left behind), a refused task under
 * seal=required, a step whose slurmstepd was lost finished by the job's
 * epilog, slurmd's start writing the node's table, and pressure triggers
 * refused where there is no cgroup v2 step directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "skip_because.h"
#include "spank_standin.h"
#include "step_report.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    /* The node the records and notes name. */
    setenv("SLURMD_NODENAME", "node1", 1);
    if (standin_run_dir(dir, sizeof dir))
        dir[0] = '\0';
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

/* slurm_spank_init in ctx with the plugstack arguments (NULL ended). */
static int init(struct spank_handle *sp, spank_context_t ctx, char **args)
{
    int ac = 0;

    while (args[ac])
        ac++;
    standin_init(sp, ctx);
    standin_log_clear();
    return slurm_spank_init(sp, ac, args);
}

/* --governor's callback, as srun (remote 0) or slurmstepd (1) calls it. */
static int option(const char *value, int remote)
{
    const struct spank_option *opts[8];
    size_t n = standin_options(opts);

    assert_int_equal(n, 1);
    assert_string_equal(opts[0]->name, "governor");
    return opts[0]->cb(opts[0]->val, value, remote);
}

static void test_bad_line(void **state)
{
    struct spank_handle sp;
    char *bad[] = { "defualt=on", NULL };
    char *drain[] = { "defualt=on", "on_init_error=drain_node", NULL };

    (void)state;
    assert_int_equal(init(&sp, S_CTX_LOCAL, bad), -1);
    assert_non_null(standin_logged("error: governor: unknown plugstack.conf argument 'defualt'"));
    assert_int_equal(init(&sp, S_CTX_REMOTE, bad), 0);
    assert_non_null(standin_logged("the step runs ungoverned (on_init_error=run)"));
    assert_int_equal(init(&sp, S_CTX_REMOTE, drain), -1);
    /* slurmd never fails for it. */
    assert_int_equal(init(&sp, S_CTX_SLURMD, bad), 0);
    /* Nor does the job's epilog. */
    assert_int_equal(init(&sp, S_CTX_JOB_SCRIPT, bad), 0);
    assert_int_equal(slurm_spank_job_epilog(&sp, 1, bad), 0);
}

static void test_option_values(void **state)
{
    struct spank_handle sp;
    char *site[] = { "allow_off=no", "topology_cache=off", NULL };
    char *argv[] = { "runtimes", NULL };

    (void)state;
    assert_int_equal(init(&sp, S_CTX_LOCAL, site), 0);
    assert_int_equal(option("bogus", 0), -1);
    assert_non_null(standin_logged("error: governor: invalid --governor value; valid values "
                                   "here: batch, interactive, threads, runtimes"));
    assert_int_equal(option("off", 0), -1);
    assert_non_null(standin_logged("this site does not allow --governor=off (allow_off=no)"));
    assert_int_equal(option("runtimes", 0), 0);
    /* "--governor runtimes": the word is the program srun runs. */
    assert_int_equal(option(NULL, 0), 0);
    sp.argc = 1;
    sp.argv = argv;
    standin_log_clear();
    assert_int_equal(slurm_spank_local_user_init(&sp, 0, NULL), 0);
    assert_non_null(standin_logged("info: governor: 'runtimes' after --governor is the program "
                                   "this step runs, not a mode: write --governor=runtimes"));
    /* slurmstepd never fails a value: its verdict applies the site's. */
    assert_int_equal(init(&sp, S_CTX_REMOTE, site), 0);
    assert_int_equal(option("bogus", 1), 0);
    assert_int_equal(option("off", 1), 0);
}

/* The items of a step of one task on this node, 200 MiB. */
static void items(struct spank_handle *sp)
{
    sp->has_job = sp->has_step = sp->has_node = sp->has_uid = true;
    sp->job_id = 42;
    sp->step_id = 0;
    sp->uid = 1000;
    sp->nnodes = sp->tasks_total = sp->tasks_local = 1;
    sp->ncpus = 1;
    sp->cpus_per_task = 1;
    sp->job_mem_mib = sp->step_mem_mib = 200;
    sp->job_cores = sp->step_cores = "0";
}

/* Entries of dir/sub (0 when it does not exist). */
static int entries(const char *sub)
{
    char path[128];
    struct dirent *e;
    DIR *d;
    int n = 0;

    snprintf(path, sizeof path, "%s/%s", dir, sub);
    if (!(d = opendir(path)))
        return 0;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The whole governed step in slurmstepd, as it calls the plugin. */
static void run_step(struct spank_handle *sp, bool exit_too)
{
    char report[96], run[96];
    char *args[] = { "handoff=file", run, report, "topology_cache=off", NULL };

    snprintf(run, sizeof run, "run_dir=%s", dir);
    snprintf(report, sizeof report, "report=%s", dir);
    assert_int_equal(init(sp, S_CTX_REMOTE, args), 0);
    items(sp);
    assert_int_equal(option("runtimes", 1), 0);
    assert_int_equal(slurm_spank_init_post_opt(sp, 0, NULL), 0);
    assert_int_equal(entries("steps"), 1);
    assert_int_equal(entries("pending"), 1);
    assert_int_equal(slurm_spank_user_init(sp, 0, NULL), 0);
    assert_non_null(standin_getenv(sp, "GOVERNOR_DESCRIPTOR_FILE"));
    assert_non_null(standin_getenv(sp, "OMP_NUM_THREADS"));
    sp->task_id = 0;
    sp->task_pid = getpid();
    assert_int_equal(slurm_spank_task_init_privileged(sp, 0, NULL), 0);
    assert_int_equal(slurm_spank_task_post_fork(sp, 0, NULL), 0);
    assert_int_equal(slurm_spank_task_init(sp, 0, NULL), 0);
    if (!exit_too)
        return;
    assert_int_equal(slurm_spank_task_exit(sp, 0, NULL), 0);
    assert_int_equal(slurm_spank_exit(sp, 0, NULL), 0);
}

/* The governed step, in a process that is then killed before task_exit
 * and exit, as the kernel's OOM killer ends a slurmstepd: what the step
 * left behind is what the epilog finds, and the process's memory goes
 * with it. */
static void lose_step(void)
{
    struct spank_handle sp;
    pid_t pid = fork();
    int status;

    assert_true(pid >= 0);
    if (pid == 0) {
        run_step(&sp, false);
        raise(SIGKILL);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* The file's last record. */
static void last_record(gov_step_record *rec)
{
    char path[96], line[GOV_REPORT_LINE_MAX], last[GOV_REPORT_LINE_MAX] = "";
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, GOV_REPORT_FILE);
    assert_non_null(f = fopen(path, "r"));
    while (fgets(line, sizeof line, f))
        memcpy(last, line, sizeof line);
    fclose(f);
    assert_int_equal(gov__step_record_decode(last, strcspn(last, "\n"), rec), 0);
}

static void test_governed_step(void **state)
{
    struct spank_handle sp;
    gov_step_record rec;

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "run_dir and the step report are root's");
    run_step(&sp, true);
    assert_int_equal(entries("steps"), 0);
    assert_int_equal(entries("pending"), 0);
    last_record(&rec);
    assert_int_equal(rec.job, 42);
    assert_string_equal(rec.node, "node1");
    assert_int_equal(rec.told_tasks, 1);
    assert_int_equal(rec.told_threads, 1);
    assert_false(rec.recovered);
    standin_free(&sp);
}

/* slurmstepd lost before task_exit and exit: the job's epilog removes the
 * file and writes the record, marked recovered. */
static void test_lost_stepd(void **state)
{
    struct spank_handle sp;
    char run[96], *args[] = { run, NULL };

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "run_dir and the step report are root's");
    lose_step();
    snprintf(run, sizeof run, "run_dir=%s", dir);
    standin_init(&sp, S_CTX_JOB_SCRIPT);
    sp.has_job = true;
    sp.job_id = 42;
    standin_log_clear();
    /* Without report= the note's file still goes. */
    assert_int_equal(slurm_spank_job_epilog(&sp, 1, args), 0);
    assert_int_equal(entries("steps"), 0);
    assert_int_equal(entries("pending"), 0);
    assert_non_null(standin_logged("1 descriptor file(s) removed, 0 record(s) written"));
    standin_free(&sp);
}

static void test_lost_stepd_record(void **state)
{
    struct spank_handle sp;
    gov_step_record rec;
    char run[96], report[96], *args[] = { run, report, NULL };

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "run_dir and the step report are root's");
    lose_step();
    snprintf(run, sizeof run, "run_dir=%s", dir);
    snprintf(report, sizeof report, "report=%s", dir);
    standin_init(&sp, S_CTX_JOB_SCRIPT);
    sp.has_job = true;
    sp.job_id = 42;
    assert_int_equal(slurm_spank_job_epilog(&sp, 2, args), 0);
    assert_int_equal(entries("pending"), 0);
    last_record(&rec);
    assert_true(rec.recovered);
    assert_true(rec.findings & (1u << GOV_FINDING_STEPD_LOST));
    standin_free(&sp);
}

/* seal=required and a value srun never checked: each task's process ends
 * with status 1 before the program starts. */
static void test_refused_task(void **state)
{
    struct spank_handle sp;
    char run[96], *args[] = { "seal=required", "default=on", "topology_cache=off", run, NULL };
    int status;
    pid_t pid;

    (void)state;
    snprintf(run, sizeof run, "run_dir=%s", dir[0] ? dir : "/nonexistent");
    assert_int_equal(init(&sp, S_CTX_REMOTE, args), 0);
    items(&sp);
    assert_int_equal(option("bogus", 1), 0);
    assert_int_equal(slurm_spank_init_post_opt(&sp, 0, NULL), 0);
    assert_int_equal(slurm_spank_user_init(&sp, 0, NULL), 0);
    pid = fork();
    if (pid == 0)
        _exit(slurm_spank_task_init_privileged(&sp, 0, NULL) == 0 ? 0x40 : 0x41);
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_int_equal(slurm_spank_exit(&sp, 0, NULL), 0);
    standin_free(&sp);
}

/* A value that did not parse under seal=optional, and one the site
 * refuses: the site's default applies, and the log says so. */
static void test_verdict_notes(void **state)
{
    struct spank_handle sp;
    char run[96], *args[] = { "allow_off=no", "default=on", "topology_cache=off",
                              "handoff=munge", "munge_socket=/nonexistent/socket", run, NULL };

    (void)state;
    /* The log's rate-limit stamps go to this test's run_dir, not the node's. */
    snprintf(run, sizeof run, "run_dir=%s", dir[0] ? dir : "/nonexistent");
    assert_int_equal(init(&sp, S_CTX_REMOTE, args), 0);
    items(&sp);
    assert_int_equal(option("off", 1), 0);
    assert_int_equal(slurm_spank_init_post_opt(&sp, 0, NULL), 0);
    assert_non_null(standin_logged("info: governor: --governor=off reached this step although "
                                   "the site does not allow it (allow_off=no)"));
    assert_int_equal(slurm_spank_exit(&sp, 0, NULL), 0);
    assert_int_equal(init(&sp, S_CTX_REMOTE, args), 0);
    items(&sp);
    assert_int_equal(option("bogus", 1), 0);
    assert_int_equal(slurm_spank_init_post_opt(&sp, 0, NULL), 0);
    assert_non_null(standin_logged("the --governor value that reached this step is not valid; "
                                   "the site's default applies"));
    assert_int_equal(slurm_spank_exit(&sp, 0, NULL), 0);
    standin_free(&sp);
}

/* slurmd's start: the node's topology table into run_dir, never a failure;
 * a step's lookup of it then needs no discovery. */
static void test_slurmd_table(void **state)
{
    struct spank_handle sp;
    char run[96], *args[] = { run, NULL };

    (void)state;
    if (!dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "run_dir is root's");
    snprintf(run, sizeof run, "run_dir=%s", dir);
    assert_int_equal(init(&sp, S_CTX_SLURMD, args), 0);
    assert_true(entries("") >= 1);
    assert_null(standin_logged("error:"));
}

/* pressure=on where the tasks are in no cgroup v2 step directory (this
 * process is not): said once in slurmd's log, and a task inherits no
 * pressure variable. */
static void test_pressure_not_v2(void **state)
{
    struct spank_handle sp;
    char run[96], *args[] = { "pressure=on", "default=on", "topology_cache=off", "handoff=munge",
                              "munge_socket=/nonexistent/socket", run, NULL };

    (void)state;
    snprintf(run, sizeof run, "run_dir=%s", dir[0] ? dir : "/nonexistent");
    assert_int_equal(init(&sp, S_CTX_REMOTE, args), 0);
    items(&sp);
    standin_env(&sp, "MEMORY_PRESSURE_WATCH", "/an/inherited/memory.pressure");
    standin_env(&sp, "MEMORY_PRESSURE_WRITE", "c29tZSAyMDAwMDAgMjAwMDAwMAA=");
    assert_int_equal(slurm_spank_init_post_opt(&sp, 0, NULL), 0);
    assert_int_equal(slurm_spank_user_init(&sp, 0, NULL), 0);
    sp.task_id = 0;
    sp.task_pid = getpid();
    assert_int_equal(slurm_spank_task_post_fork(&sp, 0, NULL), 0);
    assert_non_null(standin_logged("governor: no pressure triggers for this step: "));
    assert_int_equal(slurm_spank_task_init(&sp, 0, NULL), 0);
    assert_null(standin_getenv(&sp, "MEMORY_PRESSURE_WATCH"));
    assert_null(standin_getenv(&sp, "MEMORY_PRESSURE_WRITE"));
    assert_int_equal(slurm_spank_exit(&sp, 0, NULL), 0);
    standin_free(&sp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_line),
        cmocka_unit_test(test_option_values),
        cmocka_unit_test(test_governed_step),
        cmocka_unit_test(test_lost_stepd),
        cmocka_unit_test(test_lost_stepd_record),
        cmocka_unit_test(test_refused_task),
        cmocka_unit_test(test_verdict_notes),
        cmocka_unit_test(test_slurmd_table),
        cmocka_unit_test(test_pressure_not_v2),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
