/* The plugin's hwloc summary, restricted to the step's cores, through the
 * per-boot XML cache: a trusted cache file is loaded as it is (here a
 * two-package fixture with one GPU), an untrusted one is replaced by a
 * fresh discovery of this machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin.h"

#define FIXTURE GOV_FIXTURES "/topology/two-package-gpu.xml"

struct cache {
    char dir[64];
    char file[256];
};

static int cache_setup(void **state)
{
    static struct cache c;
    char boot[64], xml[65536];
    size_t len, j = 0;
    FILE *f;

    snprintf(c.dir, sizeof c.dir, "/tmp/gov-topo-XXXXXX");
    if (!mkdtemp(c.dir) || gov_read_file(NULL, "/proc/sys/kernel/random/boot_id", boot,
                                         sizeof boot, &len))
        return -1;
    for (size_t i = 0; i < len; i++)
        if (boot[i] != '\n')
            boot[j++] = boot[i];
    boot[j] = '\0';
    snprintf(c.file, sizeof c.file, "%s/topology-%s.xml", c.dir, boot);
    if (gov_read_file(NULL, FIXTURE, xml, sizeof xml, &len) || !(f = fopen(c.file, "w")))
        return -1;
    fwrite(xml, 1, len, f);
    fclose(f);
    chmod(c.file, 0644);
    *state = &c;
    return 0;
}

static int cache_teardown(void **state)
{
    struct cache *c = *state;

    unlink(c->file);
    rmdir(c->dir);
    return 0;
}

static void summarise(const char *dir, const char *cores, gov_desc_topology *t)
{
    gov_cpuset set;

    assert_int_equal(gov_cpuset_parse(cores, strlen(cores), &set), 0);
    gov_topology_summarise(dir, &set, t);
}

static void test_fixture_restricted(void **state)
{
    struct cache *c = *state;
    gov_desc_topology t;

    /* Only a root-owned cache file is trusted. */
    if (geteuid() != 0) {
        skip();
        return;
    }
    summarise(c->dir, "0", &t);
    assert_true(t.present);
    assert_int_equal(t.packages, 1);
    assert_int_equal(t.cores, 1);
    assert_int_equal(t.pus, 2);
    assert_int_equal(t.numa_nodes, 1);
    assert_int_equal(t.numa_count, 1);
    assert_int_equal(t.numa_mem_bytes[0], UINT64_C(64) << 30);
    /* One PCI GPU (two DRM OS devices), on NUMA node 1, far from core 0. */
    assert_int_equal(t.gpu_count, 1);
    assert_int_equal(t.gpu_numa[0], 1);
    assert_false(t.gpu_local[0]);

    summarise(c->dir, "4-7", &t);
    assert_int_equal(t.packages, 1);
    assert_int_equal(t.cores, 4);
    assert_int_equal(t.pus, 8);
    assert_int_equal(t.numa_nodes, 1);
    assert_true(t.gpu_local[0]);

    summarise(c->dir, "3-4", &t);
    assert_int_equal(t.packages, 2);
    assert_int_equal(t.cores, 2);
    assert_int_equal(t.numa_nodes, 2);
    assert_int_equal(t.numa_count, 2);

    /* Cores the node does not have count for nothing. */
    summarise(c->dir, "7,100", &t);
    assert_int_equal(t.cores, 1);
    summarise(c->dir, "100", &t);
    assert_false(t.present);
}

static void test_untrusted_cache_replaced(void **state)
{
    struct cache *c = *state;
    gov_desc_topology t;
    struct stat st;
    char xml[65536];
    size_t len;

    /* Writable by others: ignored, rediscovered, rewritten. */
    assert_int_equal(chmod(c->file, 0666), 0);
    summarise(c->dir, "0", &t);
    assert_true(t.present);
    assert_int_equal(t.cores, 1);
    assert_int_equal(stat(c->file, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(gov_read_file(NULL, c->file, xml, sizeof xml, &len), 0);
    assert_null(strstr(xml, "SyntheticDescription"));
}

static void test_no_cache(void **state)
{
    gov_desc_topology t;

    /* This machine, discovered directly: core 0 always exists. */
    summarise(NULL, "0", &t);
    assert_true(t.present);
    assert_int_equal(t.cores, 1);
    assert_true(t.pus >= 1);
    assert_int_equal(t.packages, 1);
    assert_true(t.numa_nodes >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fixture_restricted, cache_setup, cache_teardown),
        cmocka_unit_test_setup_teardown(test_untrusted_cache_replaced, cache_setup, cache_teardown),
        cmocka_unit_test(test_no_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
