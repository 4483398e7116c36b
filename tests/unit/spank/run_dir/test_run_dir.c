/* The plugin's run directory (spank/run_dir/run_dir.c): refused wherever a user
 * could have prepared it, sticky /tmp included; and the node-wide log rate
 * limit kept there (spank/run_dir/ratelimit.c), which must never wait for a lock
 * a user holds (issue 16). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "governor.h"
#include "descriptor.h"
#include "run_dir.h"
#include "skip_because.h"

#define NEED_ROOT()                                                                    \
    do {                                                                               \
        if (geteuid() != 0)                                                            \
            SKIP_BECAUSE(GOV_FACT_NOT_ROOT,                                            \
                         "the run directory is root's, under /run");                   \
    } while (0)

/* Long enough that only a hung holder could outlast it. */
#define TOGETHER_WAIT_MS 30000

static char dir[64];
static uint64_t folded;   /* what gov__note_due() last said it folded */

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gov-rundir-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    /* mkdtemp makes it 0700; the parent (/tmp) is sticky. */
    return chmod(dir, 0755);
}

static int remove_dir(void **state)
{
    char cmd[96];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* An O_PATH handle on a test directory, as gov__run_dir_open gives one for a
 * safe path (the test's own lives under sticky /tmp, which it refuses). */
static int dir_fd(const char *sub)
{
    char path[128];
    int fd;

    snprintf(path, sizeof path, "%s/%s", dir, sub);
    mkdir(path, 0755);
    fd = open(path, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    return fd;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_note_due(void **state)
{
    char victim[128], stamp[128];
    struct stat st;
    int fd = dir_fd("basic");

    (void)state;
    assert_true(gov__note_due(fd, "munge", 60, &folded));
    assert_int_equal(folded, 0);
    assert_false(gov__note_due(fd, "munge", 60, &folded));
    assert_false(gov__note_due(fd, "munge", 60, &folded));
    /* The next one due says how many were folded since; the count restarts. */
    assert_true(gov__note_due(fd, "munge", 0, &folded));
    assert_int_equal(folded, 2);
    assert_true(gov__note_due(fd, "munge", 0, &folded));
    assert_int_equal(folded, 0);
    assert_true(gov__note_due(fd, "other", 60, &folded));
    /* The stamp is private. */
    snprintf(stamp, sizeof stamp, "%s/basic/munge.stamp", dir);
    assert_int_equal(stat(stamp, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    /* Tasks that fail together: one of them logs, and the next message
     * due counts the other seven (each waits its turn for the lock).  They
     * wait up to TOGETHER_WAIT_MS, not the plugin's 50 ms: on a loaded
     * machine a child descheduled while it holds the lock would make the
     * others give up uncounted, as the plugin's tasks rightly do. */
    {
        int due = 0, status;
        for (int i = 0; i < 8; i++)
            if (fork() == 0)
                _exit(gov__note_due_wait(fd, "together", 60, TOGETHER_WAIT_MS, &folded));
        for (int i = 0; i < 8; i++) {
            assert_true(wait(&status) > 0);
            due += WIFEXITED(status) && WEXITSTATUS(status) == 1;
        }
        assert_int_equal(due, 1);
        assert_true(gov__note_due(fd, "together", 0, &folded));
        assert_int_equal(folded, 7);
    }
    /* No directory: no limit. */
    assert_true(gov__note_due(-1, "munge", 60, &folded));
    /* A link at the stamp's name is neither followed nor written through. */
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(stamp, sizeof stamp, "%s/basic/linked.stamp", dir);
    assert_int_equal(symlink(victim, stamp), 0);
    assert_true(gov__note_due(fd, "linked", 60, &folded));
    assert_int_equal(lstat(victim, &st), -1);
    close(fd);
}

/* A process holding the stamp's lock (here root's own child: a user cannot
 * open the 0600 file) makes the message not due after LOCK_WAIT_MS (50 ms);
 * nothing waits on it longer.  The bound is 10 s, not a figure near 50 ms:
 * a starved test process may take seconds over 50 polls, while a wait that
 * forgot its limit blocks for as long as the holder (alarm() ends that). */
static void test_note_never_waits(void **state)
{
    char stamp[128];
    struct timespec t0;
    int fd = dir_fd("held"), sfd, pipefd[2], status;
    pid_t child;
    char c;

    (void)state;
    assert_true(gov__note_due(fd, "held", 0, &folded));
    snprintf(stamp, sizeof stamp, "%s/held/held.stamp", dir);
    assert_int_equal(pipe(pipefd), 0);
    child = fork();
    if (child == 0) {
        sfd = open(stamp, O_RDONLY);
        if (sfd < 0 || flock(sfd, LOCK_EX) || write(pipefd[1], "x", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    assert_int_equal(read(pipefd[0], &c, 1), 1);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    alarm(60);  /* a blocking flock would hang the test: fail it instead */
    assert_false(gov__note_due(fd, "held", 0, &folded));
    alarm(0);
    assert_true(seconds_since(&t0) < 10.0);
    kill(child, SIGKILL);
    assert_int_equal(waitpid(child, &status, 0), child);
    /* Free again: due. */
    assert_true(gov__note_due(fd, "held", 0, &folded));
    close(pipefd[0]);
    close(pipefd[1]);
    close(fd);
}

/* A stamp an older version left readable by all (0644), with a user's
 * shared lock on it: replaced by a private one, and the lock on the old
 * file holds nothing. */
static void test_note_replaces_open_stamp(void **state)
{
    char stamp[128];
    struct stat before, after;
    int fd = dir_fd("open"), old, holder;

    (void)state;
    NEED_ROOT();
    snprintf(stamp, sizeof stamp, "%s/open/seal-skipped.stamp", dir);
    old = open(stamp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    assert_true(old >= 0);
    assert_int_equal(fchmod(old, 0644), 0);
    assert_int_equal(write(old, "\n", 1), 1);
    close(old);
    assert_int_equal(stat(stamp, &before), 0);
    holder = open(stamp, O_RDONLY);
    assert_true(holder >= 0);
    assert_int_equal(flock(holder, LOCK_SH), 0);
    assert_true(gov__note_due(fd, "seal-skipped", 60, &folded));
    assert_int_equal(stat(stamp, &after), 0);
    assert_true(after.st_ino != before.st_ino);
    assert_int_equal(after.st_mode & 0777, 0600);
    assert_int_equal(after.st_uid, 0);
    assert_false(gov__note_due(fd, "seal-skipped", 60, &folded));
    /* A stamp of another owner is replaced the same way. */
    assert_int_equal(chown(stamp, 65534, 65534), 0);
    assert_true(gov__note_due(fd, "seal-skipped", 60, &folded));
    assert_int_equal(stat(stamp, &after), 0);
    assert_int_equal(after.st_uid, 0);
    close(holder);
    close(fd);
}

/* Root-owned and closed to others all the way down: accepted; a sticky
 * directory anywhere on the path (as /tmp), refused, whoever made the
 * directory below it. */
static void test_open_refuses_sticky(void **state)
{
    char safe[128], under_sticky[160], sticky[128];
    const char *why = NULL;
    int fd;

    (void)state;
    NEED_ROOT();
    /* This test's own directory sits under /tmp. */
    snprintf(under_sticky, sizeof under_sticky, "%s/cache", dir);
    fd = gov__run_dir_open(under_sticky, true, &why);
    assert_int_equal(fd, GOV_EACCES);
    assert_non_null(strstr(why, "sticky"));
    /* Nothing was created there. */
    assert_int_equal(access(under_sticky, F_OK), -1);
    snprintf(sticky, sizeof sticky, "%s/sticky", dir);
    assert_int_equal(mkdir(sticky, 0755), 0);
    assert_int_equal(chmod(sticky, 01777), 0);
    snprintf(under_sticky, sizeof under_sticky, "%s/gov", sticky);
    assert_int_equal(mkdir(under_sticky, 0755), 0);
    assert_int_equal(gov__run_dir_open(under_sticky, false, &why), GOV_EACCES);
    /* A root-only path (this test's mkdtemp under /run when there is one). */
    snprintf(safe, sizeof safe, "/run/gov-rundir-test-%ld", (long)getpid());
    fd = gov__run_dir_open(safe, true, &why);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rmdir(safe), 0);
    /* Not absolute, or with dot components. */
    assert_int_equal(gov__run_dir_open("run/governor", true, &why), GOV_EINVAL);
    assert_true(gov__run_dir_open("/run/../run/gov", true, &why) < 0);
}

/* The step's file carries root's mark, which its removal takes off. */
static void test_step_file_marked(void **state)
{
    char run[96], path[256];
    const char *why = NULL;
    struct statfs fs;
    bool marked;
    int fd, rc;

    (void)state;
    NEED_ROOT();
    snprintf(run, sizeof run, "/run/gov-rundir-test-%ld", (long)getpid());
    assert_int_equal(gov__step_file_write(run, "text\n", 5, path, sizeof path, &why), 0);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    /* The flag is set on any filesystem that keeps it: immutable, not even
     * root unlinks the file.  It vouches only on the filesystems the
     * library names (tmpfs, ext4, xfs, btrfs: /run on a node); on another
     * (a chroot's overlayfs, here in the Slurm roots) it says nothing. */
    marked = gov__file_marked(fd);
    assert_int_equal(fstatfs(fd, &fs), 0);
    rc = unlink(path);
    close(fd);
    gov__step_file_remove(run, path);
    assert_int_equal(rc, -1);
    assert_int_equal(marked, fs.f_type == TMPFS_MAGIC || fs.f_type == EXT4_SUPER_MAGIC ||
                                 fs.f_type == XFS_SUPER_MAGIC || fs.f_type == BTRFS_SUPER_MAGIC);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof path, "rm -rf '%s'", run);
    assert_int_equal(system(path), 0);
}

struct seen {
    int n;
    char steps[4][16];
};

static void seen_note(const char *text, size_t len, const char *step, void *arg)
{
    struct seen *s = arg;

    assert_int_equal(len, strlen(text));
    assert_true(s->n < 4);
    snprintf(s->steps[s->n++], sizeof s->steps[0], "%s", step);
}

/* A lost slurmstepd's notes: the job's on its node swept, root's alone;
 * another node's and another job's kept. */
static void test_pending_sweep(void **state)
{
    char run[96], note[192];
    const char *why = NULL;
    struct seen s = { 0 };
    struct stat st;

    (void)state;
    NEED_ROOT();
    snprintf(run, sizeof run, "/run/gov-rundir-test-%ld", (long)getpid());
    assert_int_equal(gov__pending_write(run, "node1", 5, "0", "file=a\n", 7, &why), 0);
    assert_int_equal(gov__pending_write(run, "node1", 5, "batch", "file=b\n", 7, &why), 0);
    assert_int_equal(gov__pending_write(run, "node2", 5, "0", "file=c\n", 7, &why), 0);
    assert_int_equal(gov__pending_write(run, "node1", 55, "0", "file=d\n", 7, &why), 0);
    /* Replaced whole. */
    assert_int_equal(gov__pending_write(run, "node1", 5, "0", "file=a2\n", 8, &why), 0);
    snprintf(note, sizeof note, "%s/pending", run);
    assert_int_equal(stat(note, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(gov__pending_sweep(run, "node1", 5, seen_note, &s, &why), 2);
    assert_int_equal(s.n, 2);
    assert_true((!strcmp(s.steps[0], "0") && !strcmp(s.steps[1], "batch")) ||
                (!strcmp(s.steps[0], "batch") && !strcmp(s.steps[1], "0")));
    snprintf(note, sizeof note, "%s/pending/node1.5.0", run);
    assert_int_equal(access(note, F_OK), -1);
    snprintf(note, sizeof note, "%s/pending/node2.5.0", run);
    assert_int_equal(access(note, F_OK), 0);
    snprintf(note, sizeof note, "%s/pending/node1.55.0", run);
    assert_int_equal(access(note, F_OK), 0);
    gov__pending_remove(run, "node1", 55, "0");
    assert_int_equal(access(note, F_OK), -1);
    assert_int_equal(gov__pending_sweep(run, "node3", 5, seen_note, &s, &why), 0);
    /* A name with a slash never leaves the directory. */
    assert_int_equal(gov__pending_write(run, "../x", 5, "0", "x\n", 2, &why), GOV_EINVAL);
    snprintf(note, sizeof note, "rm -rf '%s'", run);
    assert_int_equal(system(note), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_note_due),
        cmocka_unit_test(test_note_never_waits),
        cmocka_unit_test(test_note_replaces_open_stamp),
        cmocka_unit_test(test_open_refuses_sticky),
        cmocka_unit_test(test_step_file_marked),
        cmocka_unit_test(test_pending_sweep),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
