/* The enums' stable names (core/base/names.c): every member of every public enum,
 * one rule for "none" members and values outside an enum, and the docs'
 * table of them (docs/names.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "governor.h"
#include "base.h"

/* Every table: a name for each member but a "none" member of value 0, the
 * names distinct and lowercase, nothing outside the enum. */
static void test_every_table(void **state)
{
    (void)state;
    assert_int_equal(gov__enum_tables_count, 19);
    for (size_t t = 0; t < gov__enum_tables_count; t++) {
        const gov_enum_table *e = &gov__enum_tables[t];

        assert_true(e->count >= 1);
        assert_null(gov__name_of(e->names, e->count, (unsigned)e->count));
        for (size_t v = 0; v < e->count; v++) {
            const char *name = e->names[v];

            if (!name) {
                assert_int_equal(v, 0);
                continue;
            }
            assert_true(name[0] && strspn(name, "abcdefghijklmnopqrstuvwxyz_") == strlen(name));
            assert_int_equal(gov__name_lookup(e->names, e->count, name, strlen(name)), (int)v);
        }
    }
}

/* The public functions answer from the same tables, for every value. */
#define SAME(type, COUNT)                                                              \
    do {                                                                               \
        const gov_enum_table *e = table_of("gov_" #type);                              \
        assert_int_equal(e->count, COUNT);                                             \
        for (unsigned v = 0; v <= COUNT; v++)                                          \
            assert_ptr_equal(gov_##type##_name((gov_##type)v), v < COUNT ? e->names[v] : NULL); \
    } while (0)

static const gov_enum_table *table_of(const char *type)
{
    for (size_t t = 0; t < gov__enum_tables_count; t++)
        if (strcmp(gov__enum_tables[t].type, type) == 0)
            return &gov__enum_tables[t];
    fail_msg("no table for %s", type);
    return NULL;
}

static void test_functions(void **state)
{
    (void)state;
    SAME(limit_status, GOV_LIMIT_STATUS_COUNT);
    SAME(enforcement, GOV_ENFORCEMENT_COUNT);
    SAME(layer, GOV_LAYER_COUNT);
    SAME(sched_source, GOV_SCHED_SOURCE_COUNT);
    SAME(descriptor_status, GOV_DESCRIPTOR_STATUS_COUNT);
    SAME(descriptor_via, GOV_DESCRIPTOR_VIA_COUNT);
    SAME(namespace, GOV_NAMESPACE_COUNT);
    SAME(binding, GOV_BINDING_COUNT);
    SAME(pressure_source, GOV_PRESSURE_SOURCE_COUNT);
    SAME(step_kind, GOV_STEP_KIND_COUNT);
    SAME(topology_source, GOV_TOPOLOGY_SOURCE_COUNT);
    SAME(gpu_share_kind, GOV_GPU_SHARE_KIND_COUNT);
    SAME(profile, GOV_PROFILE_COUNT);
    SAME(runenv_action, GOV_RUNENV_ACTION_COUNT);
    SAME(runenv_reason, GOV_RUNENV_REASON_COUNT);
    SAME(pressure_level, GOV_PRESSURE_LEVEL_COUNT);
    SAME(ceiling_reason, GOV_CEILING_REASON_COUNT);
    SAME(verdict, GOV_VERDICT_COUNT);
    SAME(reason, GOV_REASON_COUNT);
    for (unsigned v = 0; v < GOV_RUNENV_REASON_COUNT; v++)
        assert_non_null(gov_runenv_reason_text((gov_runenv_reason)v));
    assert_null(gov_runenv_reason_text((gov_runenv_reason)GOV_RUNENV_REASON_COUNT));
    /* A few by hand, against a list that generated the wrong names. */
    assert_string_equal(gov_enforcement_name(GOV_NOT_ENFORCED), "not_enforced");
    assert_string_equal(gov_layer_name(GOV_LAYER_DEVICES), "devices");
    assert_string_equal(gov_namespace_name(GOV_NAMESPACE_CGROUP), "cgroup");
    assert_string_equal(gov_reason_name(GOV_REASON_BATCH_CEILING), "batch_ceiling");
    assert_null(gov_layer_name(GOV_LAYER_NONE));
    assert_null(gov_reason_name((gov_reason)999));
}

/* docs/names.md has a table per enum, a row per member in value order:
 * "| VALUE | `name` | ..." (null for a nameless member), and no more. */
static void test_docs(void **state)
{
    static char doc[65536];
    FILE *f = fopen(GOV_FIXTURES "/../../docs/names.md", "r");
    size_t n;

    (void)state;
    assert_non_null(f);
    n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    assert_true(n < sizeof doc - 1);
    doc[n] = '\0';
    for (size_t t = 0; t < gov__enum_tables_count; t++) {
        const gov_enum_table *e = &gov__enum_tables[t];
        char head[64], want[96];
        const char *p;
        size_t v = 0;

        snprintf(head, sizeof head, "\n## %s\n", e->type);
        p = strstr(doc, head);
        if (!p)
            fail_msg("docs/names.md has no section %s", e->type);
        p = strstr(p, "| --- |");
        assert_non_null(p);
        for (p = strchr(p, '\n') + 1; p[0] == '|'; p = strchr(p, '\n') + 1, v++) {
            if (v < e->count && e->names[v])
                snprintf(want, sizeof want, "| %zu | `%s` |", v, e->names[v]);
            else
                snprintf(want, sizeof want, "| %zu | null |", v);
            if (strncmp(p, want, strlen(want)) != 0 || v >= e->count)
                fail_msg("docs/names.md, %s: row %zu should start \"%s\"", e->type, v, want);
        }
        if (v != e->count)
            fail_msg("docs/names.md, %s: %zu rows for %zu members", e->type, v, e->count);
    }
}

/* The parsers of outside text read names from the same tables. */
static void test_reverse(void **state)
{
    gov_profile p = GOV_PROFILE_BATCH;
    gov_step_kind k = GOV_STEP_UNKNOWN;

    (void)state;
    assert_int_equal(gov__profile_from_name("interactive", 11, &p), 0);
    assert_int_equal(p, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(gov__profile_from_name("batch", 5, &p), 0);
    assert_int_equal(p, GOV_PROFILE_BATCH);
    assert_int_equal(gov__profile_from_name("batches", 7, &p), GOV_EPARSE);
    assert_int_equal(gov__profile_from_name("Batch", 5, &p), GOV_EPARSE);
    assert_int_equal(gov__step_kind_from_name("extern", 6, &k), 0);
    assert_int_equal(k, GOV_STEP_EXTERN);
    /* A member without a name cannot be named. */
    assert_int_equal(gov__step_kind_from_name("", 0, &k), GOV_EPARSE);
    for (unsigned v = 0; v <= GOV_STEP_INTERACTIVE; v++) {
        const char *name = gov_step_kind_name((gov_step_kind)v);
        if (name) {
            assert_int_equal(gov__step_kind_from_name(name, strlen(name), &k), 0);
            assert_int_equal(k, v);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_table),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_docs),
        cmocka_unit_test(test_reverse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
