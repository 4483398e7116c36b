/* The step report's file (spank/run_dir/report_file.c): appended whole, created
 * root-only, never through a link, only when it is root's regular file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "governor.h"
#include "run_dir.h"
#include "skip_because.h"

#define NEED_ROOT()                                                                    \
    do {                                                                               \
        if (geteuid() != 0)                                                            \
            SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the report directory must be root's");     \
    } while (0)

static char dir[64], file[96];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/run/gov-report-test-%ld", (long)getpid());
    snprintf(file, sizeof file, "%s/steps.jsonl", dir);
    return 0;
}

static int remove_dir(void **state)
{
    char cmd[96];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_appends(void **state)
{
    const char *why = NULL;
    struct stat st;
    char buf[64] = "";
    FILE *f;

    (void)state;
    NEED_ROOT();
    assert_int_equal(gov__report_append(dir, "{\"a\":1}\n", 8, &why), 0);
    assert_int_equal(gov__report_append(dir, "{\"b\":2}\n", 8, &why), 0);
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(st.st_uid, 0);
    f = fopen(file, "r");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf - 1, f), 16);
    fclose(f);
    assert_string_equal(buf, "{\"a\":1}\n{\"b\":2}\n");
}

static void test_refused(void **state)
{
    char target[96];
    const char *why = NULL;
    struct stat st;

    (void)state;
    NEED_ROOT();
    snprintf(target, sizeof target, "%s/target", dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(close(open(target, O_WRONLY | O_CREAT, 0600)), 0);
    assert_int_equal(symlink(target, file), 0);
    assert_int_equal(gov__report_append(dir, "x\n", 2, &why), -ELOOP);
    assert_string_equal(why, "the report file is a link");
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_size, 0);
    /* Another owner's file: a user's, had the directory once been hers. */
    assert_int_equal(unlink(file), 0);
    assert_int_equal(close(open(file, O_WRONLY | O_CREAT, 0600)), 0);
    assert_int_equal(chown(file, 1, 1), 0);
    assert_int_equal(gov__report_append(dir, "x\n", 2, &why), GOV_EACCES);
    assert_string_equal(why, "the report file is not a regular file of root's");
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_size, 0);
    /* A directory under the root-only one that others may write. */
    assert_int_equal(chmod(dir, 0777), 0);
    assert_int_equal(gov__report_append(dir, "x\n", 2, &why), GOV_EACCES);
}

/* Readable by others (an admin's chmod 644, logrotate's create 0644), or
 * with a second link: refused, since any user could then hold its lock
 * and stall the end of every step. */
static void test_not_root_alone(void **state)
{
    char other[96];
    const char *why = NULL;

    (void)state;
    NEED_ROOT();
    assert_int_equal(gov__report_append(dir, "a\n", 2, &why), 0);
    assert_int_equal(chmod(file, 0644), 0);
    assert_int_equal(gov__report_append(dir, "b\n", 2, &why), GOV_EACCES);
    assert_non_null(strstr(why, "chmod 600"));
    assert_int_equal(chmod(file, 0600), 0);
    snprintf(other, sizeof other, "%s/elsewhere", dir);
    assert_int_equal(link(file, other), 0);
    assert_int_equal(gov__report_append(dir, "c\n", 2, &why), GOV_EACCES);
    assert_int_equal(unlink(other), 0);
    assert_int_equal(gov__report_append(dir, "d\n", 2, &why), 0);
}

/* A lock held by another process: the record is dropped after a bounded
 * wait, never waited for (the hang guard is the alarm; the wait is 50 ms). */
static void test_lock_held(void **state)
{
    const char *why = NULL;
    int ready[2], done[2];
    char c;
    pid_t holder;
    struct stat st;

    (void)state;
    NEED_ROOT();
    assert_int_equal(gov__report_append(dir, "a\n", 2, &why), 0);
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(done), 0);
    holder = fork();
    assert_true(holder >= 0);
    if (holder == 0) {
        int fd = open(file, O_RDONLY);
        if (fd < 0 || flock(fd, LOCK_SH) || write(ready[1], "x", 1) != 1)
            _exit(1);
        _exit(read(done[0], &c, 1) == 1 ? 0 : 2);
    }
    assert_int_equal(read(ready[0], &c, 1), 1);
    alarm(60);
    assert_int_equal(gov__report_append(dir, "b\n", 2, &why), GOV_ETIMEDOUT);
    alarm(0);
    assert_non_null(strstr(why, "dropped"));
    assert_int_equal(write(done[1], "x", 1), 1);
    assert_int_equal(waitpid(holder, NULL, 0), holder);
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_size, 2);
    assert_int_equal(gov__report_append(dir, "c\n", 2, &why), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_appends, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_refused, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_not_root_alone, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_lock_held, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
