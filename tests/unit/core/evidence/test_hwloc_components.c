/* The one list of hwloc components the project keeps out, as the plugin
 * applies it (per topology) and as the tool renders it (plugin names). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <hwloc.h>
#include <string.h>

#include "governor.h"
#include "evidence.h"

static void test_plugins_blacklist(void **state)
{
    char buf[256];
    int n = gov__hwloc_plugins_blacklist(buf, sizeof buf);

    assert_true(n > 0);
    assert_int_equal((size_t)n, strlen(buf));
    /* The plugins whose loading dominated a short-lived tool's start-up. */
    for (const char *p = "hwloc_gl,hwloc_opencl,hwloc_xml_libxml,hwloc_pci"; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[32];

        memcpy(name, p, len);
        name[len] = '\0';
        assert_non_null(strstr(buf, name));
        p += len + (comma ? 1 : 0);
    }
    assert_null(strchr(buf, ' '));
    assert_int_not_equal(buf[n - 1], ',');
}

static void test_plugins_blacklist_too_small(void **state)
{
    char full[256], buf[256];
    int n = gov__hwloc_plugins_blacklist(full, sizeof full);

    /* Every buffer short of the whole value fails cleanly. */
    for (size_t cap = 0; cap <= (size_t)n; cap++) {
        memset(buf, 'x', sizeof buf);
        assert_int_equal(gov__hwloc_plugins_blacklist(cap ? buf : NULL, cap), GOV_ENOSPC);
        if (cap)
            assert_int_equal(buf[0], '\0');
    }
    assert_int_equal(gov__hwloc_plugins_blacklist(buf, (size_t)n + 1), n);
}

/* Excluding the list leaves the CPUs a topology counts. */
static void test_topology_without_them(void **state)
{
    hwloc_topology_t t;

    assert_int_equal(hwloc_topology_init(&t), 0);
    for (const char *const *c = gov__hwloc_excluded; *c; c++)
        hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, *c);
    assert_int_equal(hwloc_topology_load(t), 0);
    assert_true(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU) >= 1);
    hwloc_topology_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugins_blacklist),
        cmocka_unit_test(test_plugins_blacklist_too_small),
        cmocka_unit_test(test_topology_without_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
