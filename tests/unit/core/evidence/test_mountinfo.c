/* /proc/self/mountinfo and /proc/self/cgroup parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "evidence.h"

/* Real lines: this machine (hybrid), a Debian 12 host (v2), and a
 * Kubernetes container on a v1 node (mount roots below the hierarchy). */
static const char hybrid[] =
    "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n"
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
    "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char v2host[] =
    "26 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro\n"
    "29 21 0:25 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

static const char k8s[] =
    "1278 1276 0:30 /kubepods/burstable/pod1/c1 /sys/fs/cgroup/cpu,cpuacct ro,nosuid,nodev,noexec,relatime master:15 - cgroup cgroup rw,cpu,cpuacct\n"
    "1279 1276 0:31 /kubepods/burstable/pod1/c1 /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:16 - cgroup cgroup rw,memory";

static size_t unescape(char *buf, const char *in)
{
    strcpy(buf, in);
    return gov__unescape_octal(buf, strlen(buf));
}

static void test_unescape(void **state)
{
    char b[64];

    assert_int_equal(unescape(b, "/sys/fs/cgroup\\040x"), 16);
    assert_string_equal(b, "/sys/fs/cgroup x");
    assert_int_equal(unescape(b, "a\\011b\\012c\\134d"), 7);
    assert_memory_equal(b, "a\tb\nc\\d", 7);
    assert_int_equal(unescape(b, "\\134040"), 4);  /* decoded once, not twice */
    assert_string_equal(b, "\\040");
    /* Not an escape: kept as is. */
    assert_int_equal(unescape(b, "a\\04"), 4);
    assert_string_equal(b, "a\\04");
    assert_int_equal(unescape(b, "a\\0409"), 3);
    assert_string_equal(b, "a 9");
    assert_int_equal(unescape(b, "\\400\\08x\\000"), 12);
    assert_string_equal(b, "\\400\\08x\\000");
    assert_int_equal(unescape(b, "\\377"), 1);
    assert_int_equal((unsigned char)b[0], 0377);
    assert_int_equal(unescape(b, ""), 0);
}

static void test_find_v1(void **state)
{
    gov_mount m;

    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 1, "cpu", &m), 0);
    assert_int_equal(m.version, 1);
    assert_string_equal(m.mount_point, "/sys/fs/cgroup/cpu");
    assert_string_equal(m.root, "/");
    assert_string_equal(m.options, "rw,cpu");
    /* Exact controller names: "cpu" never matches "cpuacct" or "cpuset". */
    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 1, "cpuacct", &m), 0);
    assert_string_equal(m.mount_point, "/sys/fs/cgroup/cpuacct");
    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 1, "name=systemd", &m), 0);
    assert_string_equal(m.mount_point, "/sys/fs/cgroup/systemd");
    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 1, "cpu,cpuacct", &m), GOV_ENOENT);
    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 1, "hugetlb", &m), GOV_ENOENT);
    assert_int_equal(gov__mountinfo_find(v2host, strlen(v2host), 1, "cpu", &m), GOV_ENOENT);

    assert_int_equal(gov__mountinfo_find(k8s, strlen(k8s), 1, "memory", &m), 0);
    assert_string_equal(m.root, "/kubepods/burstable/pod1/c1");
    assert_string_equal(m.mount_point, "/sys/fs/cgroup/memory");
    assert_int_equal(gov__mountinfo_find(k8s, strlen(k8s), 1, "cpuacct", &m), 0);
    assert_string_equal(m.mount_point, "/sys/fs/cgroup/cpu,cpuacct");
    assert_string_equal(m.options, "rw,cpu,cpuacct");
}

static void test_find_v2(void **state)
{
    gov_mount m;

    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 2, NULL, &m), 0);
    assert_int_equal(m.version, 2);
    assert_string_equal(m.mount_point, "/sys/fs/cgroup/unified");
    assert_int_equal(gov__mountinfo_find(v2host, strlen(v2host), 2, NULL, &m), 0);
    assert_string_equal(m.mount_point, "/sys/fs/cgroup");
    assert_string_equal(m.options, "rw,nsdelegate,memory_recursiveprot");
    assert_int_equal(gov__mountinfo_find(k8s, strlen(k8s), 2, NULL, &m), GOV_ENOENT);
    assert_int_equal(gov__mountinfo_find("", 0, 2, NULL, &m), GOV_ENOENT);
}

static void test_find_escaped(void **state)
{
    const char t[] =
        "29 21 0:25 /a\\040b /sys/fs/cgroup\\040x\\011y rw shared:9 master:2 - cgroup2 cgroup2 rw\n";
    gov_mount m;

    assert_int_equal(gov__mountinfo_find(t, strlen(t), 2, NULL, &m), 0);
    assert_string_equal(m.root, "/a b");
    assert_string_equal(m.mount_point, "/sys/fs/cgroup x\ty");
}

static void test_find_malformed(void **state)
{
    const char *bad[] = {
        "29 21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2\n",         /* no super options */
        "29 21 0:25 / /sys/fs/cgroup rw cgroup2 cgroup2 rw\n",         /* no separator */
        "29 21 0:25 / /sys/fs/cgroup - cgroup2 cgroup2 rw\n",          /* too few fields */
        "29 21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw extra\n", /* too many */
        "29 21 0:25 x /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",       /* root not a path */
        "29  21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",      /* empty field */
        "29 21 0:25 / /sys/fs/cgroup rw -\n",
        "-\n",
    };
    gov_mount m;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gov__mountinfo_find(bad[i], strlen(bad[i]), 2, NULL, &m), GOV_EPARSE);
        assert_string_equal(m.mount_point, "");
    }
    assert_int_equal(gov__mountinfo_find(v2host, 3, 2, NULL, &m), GOV_EPARSE);
    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 3, NULL, &m), GOV_EINVAL);
    assert_int_equal(gov__mountinfo_find(hybrid, strlen(hybrid), 1, NULL, &m), GOV_EINVAL);
}

static void test_find_too_long(void **state)
{
    char t[3000];
    gov_mount m;

    strcpy(t, "29 21 0:25 / /");
    memset(t + strlen(t), 'a', 1100);
    strcpy(t + 14 + 1100, " rw - cgroup2 cgroup2 rw\n");
    assert_int_equal(gov__mountinfo_find(t, strlen(t), 2, NULL, &m), GOV_ENOSPC);
    /* A mount of another kind is skipped before its fields are copied. */
    assert_int_equal(gov__mountinfo_find(t, strlen(t), 1, "cpu", &m), GOV_ENOENT);
}

static const char proc_hybrid[] =
    "9:name=systemd:/\n"
    "4:memory:/process_api/32a977ba0e38e46436fbc8366faf03d5\n"
    "3:cpuset:/\n"
    "2:cpuacct:/\n"
    "1:cpu:/\n"
    "0::/\n";

static void test_proc_cgroup(void **state)
{
    char p[256];
    const char slurm[] = "4:cpu,cpuacct:/slurm/uid_1000/job_5/step_0/task_0\n"
                         "1:name=systemd:/system.slice/slurmd.service\n";
    const char v2[] = "0::/user.slice/user-1000.slice/session-3.scope\n";
    const char colon[] = "0::/odd:name/x";

    assert_int_equal(
        gov__proc_cgroup_find(proc_hybrid, strlen(proc_hybrid), "memory", p, sizeof p), 0);
    assert_string_equal(p, "/process_api/32a977ba0e38e46436fbc8366faf03d5");
    assert_int_equal(gov__proc_cgroup_find(proc_hybrid, strlen(proc_hybrid), "cpu", p, sizeof p), 0);
    assert_string_equal(p, "/");
    assert_int_equal(gov__proc_cgroup_find(proc_hybrid, strlen(proc_hybrid), NULL, p, sizeof p), 0);
    assert_string_equal(p, "/");
    assert_int_equal(gov__proc_cgroup_find(proc_hybrid, strlen(proc_hybrid), "pids", p, sizeof p), GOV_ENOENT);
    assert_string_equal(p, "");

    assert_int_equal(gov__proc_cgroup_find(slurm, strlen(slurm), "cpu", p, sizeof p), 0);
    assert_string_equal(p, "/slurm/uid_1000/job_5/step_0/task_0");
    assert_int_equal(gov__proc_cgroup_find(slurm, strlen(slurm), "cpuacct", p, sizeof p), 0);
    assert_int_equal(gov__proc_cgroup_find(slurm, strlen(slurm), "name=systemd", p, sizeof p), 0);
    assert_string_equal(p, "/system.slice/slurmd.service");
    assert_int_equal(gov__proc_cgroup_find(slurm, strlen(slurm), NULL, p, sizeof p), GOV_ENOENT);

    assert_int_equal(gov__proc_cgroup_find(v2, strlen(v2), NULL, p, sizeof p), 0);
    assert_string_equal(p, "/user.slice/user-1000.slice/session-3.scope");
    assert_int_equal(gov__proc_cgroup_find(v2, strlen(v2), "memory", p, sizeof p), GOV_ENOENT);
    assert_int_equal(gov__proc_cgroup_find(colon, strlen(colon), NULL, p, sizeof p), 0);
    assert_string_equal(p, "/odd:name/x");
    /* The namespace-relative "/.." form is returned as is; the collector
     * decides it is outside view. */
    assert_int_equal(gov__proc_cgroup_find("0::/../../a\n", 12, NULL, p, sizeof p), 0);
    assert_string_equal(p, "/../../a");
}

static void test_proc_cgroup_bad(void **state)
{
    const char *bad[] = { "0:/\n", "x::/\n", ":cpu:/\n", "0::\n", "0::rel\n", "1:cpu\n", "garbage" };
    char p[8];

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(gov__proc_cgroup_find(bad[i], strlen(bad[i]), NULL, p, sizeof p), GOV_EPARSE);
    /* A v2 entry needs hierarchy id 0 and no controllers. */
    assert_int_equal(gov__proc_cgroup_find("1::/a\n", 6, NULL, p, sizeof p), GOV_ENOENT);
    assert_int_equal(gov__proc_cgroup_find("0::/0123456789\n", 15, NULL, p, sizeof p), GOV_ENOSPC);
    assert_int_equal(gov__proc_cgroup_find("", 0, NULL, p, sizeof p), GOV_ENOENT);
    assert_int_equal(gov__proc_cgroup_find("\n\n", 2, NULL, p, sizeof p), GOV_ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unescape),
        cmocka_unit_test(test_find_v1),
        cmocka_unit_test(test_find_v2),
        cmocka_unit_test(test_find_escaped),
        cmocka_unit_test(test_find_malformed),
        cmocka_unit_test(test_find_too_long),
        cmocka_unit_test(test_proc_cgroup),
        cmocka_unit_test(test_proc_cgroup_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
