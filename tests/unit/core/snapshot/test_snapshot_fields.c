/* The snapshot's field table (core/snapshot/snapshot_fields.c) holds what
 * its three readers need of every row: the JSON writer a path, a kind and
 * its function; `governor snapshot`'s text view a section to sit in and a
 * label that fits its column; docs/snapshot.md (test_snapshot_fields.sh)
 * the paths.  A new row without one of them fails here, not in a view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <ctype.h>
#include <string.h>

#include "snapshot_base.h"

static void test_rows(void **state)
{
    size_t n;
    const gov_field *f = gov__snapshot_fields(&n);

    (void)state;
    assert_true(n > 0);
    assert_int_equal(f[0].kind, GOV_FIELD_SECTION);
    for (size_t i = 0; i < n; i++) {
        if (f[i].kind == GOV_FIELD_SECTION) {
            assert_non_null(f[i].label);
            for (const char *c = f[i].label; *c; c++)
                assert_true(isupper((unsigned char)*c) || *c == ' ');
            continue;
        }
        assert_non_null(f[i].path);
        if (f[i].hidden)
            continue;
        if (!f[i].label || strlen(f[i].label) > GOV_FIELD_LABEL_MAX)
            fail_msg("%s: no label, or one past %d characters", f[i].path,
                     GOV_FIELD_LABEL_MAX);
        if (f[i].kind == GOV_FIELD_NAME)
            assert_non_null(f[i].name);
        if (f[i].kind == GOV_FIELD_DERIVED)
            assert_non_null(f[i].derive);
        if (f[i].kind == GOV_FIELD_CUSTOM) {
            assert_non_null(f[i].put);
            assert_non_null(f[i].text);
        }
        for (size_t j = 0; j < i; j++)
            if (f[j].kind != GOV_FIELD_SECTION && !strcmp(f[i].path, f[j].path))
                fail_msg("%s: two rows", f[i].path);
    }
}

/* A part set unknown from the table: a count GOV_UNKNOWN, a fraction NaN,
 * a tristate -1, whatever else zero; a derived row touches nothing. */
static void test_unknown(void **state)
{
    static gov_snapshot s;

    (void)state;
    memset(&s, 0x5a, sizeof s);
    gov_snapshot_init(&s);
    assert_true(s.memory.cgroup.limit_bytes == GOV_UNKNOWN);
    assert_true(s.cpu.cgroup.quota_cores != s.cpu.cgroup.quota_cores);
    assert_int_equal(s.accel.devices_confined, -1);
    assert_int_equal(s.cpu.cgroup.version, 0);
    assert_int_equal(s.policy.mem_reserve_pct, 0);
    assert_int_equal(s.topology.numa_count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_unknown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
