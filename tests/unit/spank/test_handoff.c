/* handoff.c through the SPANK stand-in: the step's descriptor as root's
 * file (handoff=file) put into the tasks' environment and removed at the
 * step's end; a MUNGE socket root may not trust refused, the file then the
 * way; neither made: inherited variables dropped, the task starting without
 * one under seal=optional and its process ending with status 1 under
 * seal=required, as for a step with no descriptor at all and for a
 * variable slurmstepd refused.  munged's answer is taken in user_init, and
 * a failure logged as root afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "handoff.h"
#include "run_dir.h"
#include "skip_because.h"
#include "spank_standin.h"

static gov_descriptor step;
static char run_dir[64];

static int setup(void **state)
{
    (void)state;
    gov__descriptor_init(&step);
    step.step_kind = GOV_STEP_NORMAL;
    step.job_id = 7;
    step.step_id = 0;
    step.node_index = 0;
    step.uid = getuid();
    step.nodes = step.tasks_on_node = step.tasks_total = 1;
    step.cpus_on_node = step.cpus_per_task = 1;
    if (gov__boot_hash_read(NULL, &step.boot_hash))
        return -1;
    if (standin_run_dir(run_dir, sizeof run_dir))
        run_dir[0] = '\0';
    return 0;
}

static int teardown(void **state)
{
    char path[384], cmd[96];
    struct dirent *e;
    DIR *d;

    (void)state;
    if (!run_dir[0])
        return 0;
    /* A file a failed case left keeps root's mark: the plugin's own
     * removal clears it. */
    snprintf(path, sizeof path, "%s/steps", run_dir);
    if ((d = opendir(path))) {
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/steps/%s", run_dir, e->d_name);
                gov__step_file_remove(run_dir, path);
            }
        closedir(d);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", run_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void site_of(gov_spank_policy *site, bool munge, bool file, bool required)
{
    gov__spank_policy_init(site);
    site->handoff_munge = munge;
    site->handoff_file = file;
    site->seal_required = required;
    snprintf(site->munge_socket, sizeof site->munge_socket, "/nonexistent/munge.socket.2");
    if (run_dir[0])
        snprintf(site->run_dir, sizeof site->run_dir, "%s", run_dir);
}

/* gov__handoff_task in a child, as it runs in the task's own process: its
 * exit status, 0x40 where it returned true (the task holds the
 * descriptor), 0x41 where false, 1 where it ended the task itself. */
static int task_in_child(const gov_spank_policy *site, const gov_handoff *h)
{
    int status;
    pid_t pid = fork();

    if (pid == 0)
        _exit(gov__handoff_task(site, h) ? 0x40 : 0x41);
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_file(void **state)
{
    struct spank_handle sp;
    gov_spank_policy site;
    gov_handoff h;
    struct stat st;
    const char *path;

    (void)state;
    if (!run_dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the descriptor file is root's, in run_dir");
    standin_init(&sp, S_CTX_REMOTE);
    standin_env(&sp, GOV_DESCRIPTOR_ENV, "an inherited credential");
    site_of(&site, false, true, false);
    gov__handoff_step(&sp, &site, &step, &h);
    assert_null(h.cred);
    assert_string_equal(h.failure, "");
    assert_int_equal(strncmp(h.file, run_dir, strlen(run_dir)), 0);
    assert_int_equal(stat(h.file, &st), 0);
    assert_int_equal(st.st_uid, 0);
    assert_int_equal(st.st_mode & 0777, 0444);
    gov__handoff_env(&sp, &site, true, &h);
    path = standin_getenv(&sp, GOV_DESCRIPTOR_FILE_ENV);
    assert_non_null(path);
    assert_string_equal(path, h.file);
    assert_null(standin_getenv(&sp, GOV_DESCRIPTOR_ENV));
    assert_int_equal(task_in_child(&site, &h), 0x40);
    gov__handoff_end(&site, &h);
    assert_int_equal(stat(path, &st), -1);
    standin_free(&sp);
}

/* munged out of reach: the file is then how the tasks get the descriptor,
 * and only debug level says so. */
static void test_munged_unreachable_then_file(void **state)
{
    struct spank_handle sp;
    gov_spank_policy site;
    gov_handoff h;

    (void)state;
    if (!run_dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the descriptor file is root's, in run_dir");
    standin_init(&sp, S_CTX_REMOTE);
    standin_log_clear();
    site_of(&site, true, true, true);
    gov__handoff_step(&sp, &site, &step, &h);
    /* munged's answer is taken in user_init, off the launch's path. */
    assert_true(h.sealing);
    gov__handoff_env(&sp, &site, true, &h);
    assert_false(h.sealing);
    assert_null(h.cred);
    assert_true(h.file[0]);
    assert_non_null(standin_logged("debug: governor: "));
    assert_non_null(standin_logged("the tasks get the descriptor the other way"));
    assert_int_equal(task_in_child(&site, &h), 0x40);
    gov__handoff_end(&site, &h);
    standin_free(&sp);
}

/* Neither hand-off made: the inherited variables go; seal=optional starts
 * the task without one (logged once for the cause and user), seal=required
 * ends its process with status 1. */
static void test_neither(void **state)
{
    struct spank_handle sp;
    gov_spank_policy site;
    gov_handoff h;

    (void)state;
    standin_init(&sp, S_CTX_REMOTE);
    standin_env(&sp, GOV_DESCRIPTOR_ENV, "an inherited credential");
    standin_env(&sp, GOV_DESCRIPTOR_FILE_ENV, "/an/inherited/file");
    standin_log_clear();
    site_of(&site, true, false, false);
    gov__handoff_step(&sp, &site, &step, &h);
    gov__handoff_env(&sp, &site, true, &h);
    assert_null(h.cred);
    assert_string_equal(h.file, "");
    assert_non_null(strstr(h.failure, "/nonexistent"));
    /* user_init is the user's: the log waits for root (task_post_fork). */
    assert_null(standin_logged("tasks run without a descriptor"));
    gov__handoff_log(&site, &h);
    assert_non_null(standin_logged("tasks run without a descriptor (seal=optional)"));
    standin_log_clear();
    gov__handoff_log(&site, &h);
    assert_int_equal(standin_log_count(), 0);
    assert_null(standin_getenv(&sp, GOV_DESCRIPTOR_ENV));
    assert_null(standin_getenv(&sp, GOV_DESCRIPTOR_FILE_ENV));
    assert_int_equal(task_in_child(&site, &h), 0x41);
    site.seal_required = true;
    standin_log_clear();
    gov__handoff_step(&sp, &site, &step, &h);
    gov__handoff_env(&sp, &site, true, &h);
    /* The user is told the cause without its path. */
    assert_string_equal(h.told,
                        "MUNGE cannot seal the descriptor (munged refused or cannot be reached)");
    gov__handoff_log(&site, &h);
    assert_non_null(standin_logged("this site requires a sealed descriptor"));
    assert_int_equal(task_in_child(&site, &h), 1);
    gov__handoff_end(&site, &h);
    standin_free(&sp);
}

/* A step the plugin could not describe (its facts unread, a --governor
 * value that does not parse): each task refused under seal=required. */
static void test_missing(void **state)
{
    gov_spank_policy site;
    gov_handoff h;

    (void)state;
    memset(&h, 0, sizeof h);
    site_of(&site, true, false, false);
    gov__handoff_missing(&h, "this step's --governor value is not valid", "valid values: ...");
    assert_true(h.due);
    assert_int_equal(task_in_child(&site, &h), 0x41);
    site.seal_required = true;
    assert_int_equal(task_in_child(&site, &h), 1);
    /* A step that is not governed owes its tasks nothing. */
    memset(&h, 0, sizeof h);
    assert_int_equal(task_in_child(&site, &h), 0x41);
}

/* slurmstepd refuses the variable: the task holds no descriptor. */
static void test_env_refused(void **state)
{
    struct spank_handle sp;
    gov_spank_policy site;
    gov_handoff h;

    (void)state;
    if (!run_dir[0])
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the descriptor file is root's, in run_dir");
    standin_init(&sp, S_CTX_REMOTE);
    sp.refuse_setenv = GOV_DESCRIPTOR_FILE_ENV;
    site_of(&site, false, true, false);
    gov__handoff_step(&sp, &site, &step, &h);
    gov__handoff_env(&sp, &site, true, &h);
    assert_true(h.env_failed);
    assert_null(standin_getenv(&sp, GOV_DESCRIPTOR_FILE_ENV));
    assert_int_equal(task_in_child(&site, &h), 0x41);
    site.seal_required = true;
    assert_int_equal(task_in_child(&site, &h), 1);
    /* A step without the governor: nothing stale is left to verify. */
    standin_env(&sp, GOV_DESCRIPTOR_ENV, "an inherited credential");
    gov__handoff_env(&sp, &site, false, &h);
    assert_null(standin_getenv(&sp, GOV_DESCRIPTOR_ENV));
    gov__handoff_end(&site, &h);
    standin_free(&sp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_munged_unreachable_then_file),
        cmocka_unit_test(test_neither),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_env_refused),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
