/* Disk: statvfs of the working directory and a non-writing access check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "collect/collect.h"

static gov_snapshot snap;

static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;

    assert_non_null(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void test_matches_statvfs(void **state)
{
    char dir[] = "/tmp/gov-disk-XXXXXX";
    struct statvfs st;

    assert_non_null(mkdtemp(dir));
    memset(&snap, 0xa5, sizeof snap);
    gov__disk_collect(dir, &snap.disk);
    assert_int_equal(statvfs(dir, &st), 0);
    assert_int_equal(snap.disk.capacity_bytes, (uint64_t)st.f_blocks * st.f_frsize);
    /* free/avail move with other writers; check the ordering instead. */
    assert_true(snap.disk.avail_bytes <= snap.disk.free_bytes);
    assert_true(snap.disk.free_bytes <= snap.disk.capacity_bytes);
    assert_int_equal(snap.disk.writable, 1);
    /* No probe file: the directory is still empty ("." and ".."). */
    assert_int_equal(entries(dir), 2);
    assert_int_equal(rmdir(dir), 0);
}

static void test_read_only_directory(void **state)
{
    char dir[] = "/tmp/gov-disk-XXXXXX";

    assert_non_null(mkdtemp(dir));
    assert_int_equal(chmod(dir, 0555), 0);
    gov__disk_collect(dir, &snap.disk);
    /* Root passes permission checks on a writable filesystem. */
    assert_int_equal(snap.disk.writable, geteuid() == 0 ? 1 : 0);
    assert_true(snap.disk.capacity_bytes != GOV_UNKNOWN);
    assert_int_equal(rmdir(dir), 0);
}

static void test_missing_directory(void **state)
{
    memset(&snap, 0, sizeof snap);
    gov__disk_collect("/nonexistent/gov-disk", &snap.disk);
    assert_true(snap.disk.capacity_bytes == GOV_UNKNOWN);
    assert_true(snap.disk.free_bytes == GOV_UNKNOWN);
    assert_true(snap.disk.avail_bytes == GOV_UNKNOWN);
    assert_int_equal(snap.disk.writable, -1);
}

static void test_default_is_cwd(void **state)
{
    gov_snapshot other;

    gov__disk_collect(NULL, &snap.disk);
    gov__disk_collect(".", &other.disk);
    assert_int_equal(snap.disk.capacity_bytes, other.disk.capacity_bytes);
    assert_int_equal(snap.disk.writable, other.disk.writable);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_statvfs),
        cmocka_unit_test(test_read_only_directory),
        cmocka_unit_test(test_missing_directory),
        cmocka_unit_test(test_default_is_cwd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
