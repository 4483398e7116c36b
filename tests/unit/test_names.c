/* The enums' stable names (core/names.c): every member, and one rule for
 * "none" members and values outside an enum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "governor.h"
#include "names.h"

static void test_members(void **state)
{
    assert_string_equal(gov_limit_status_name(GOV_LIMIT_UNKNOWN), "unknown");
    assert_string_equal(gov_limit_status_name(GOV_LIMIT_UNLIMITED), "unlimited");
    assert_string_equal(gov_enforcement_name(GOV_NOT_ENFORCED), "not_enforced");
    assert_string_equal(gov_layer_name(GOV_LAYER_QUOTA), "quota");
    assert_string_equal(gov_layer_name(GOV_LAYER_DEVICES), "devices");
    assert_string_equal(gov_sched_source_name(GOV_SCHED_ENVIRONMENT), "environment");
    assert_string_equal(gov_descriptor_status_name(GOV_DESCRIPTOR_ABSENT), "absent");
    assert_string_equal(gov_pressure_source_name(GOV_PRESSURE_SOURCE_SYSTEM), "system");
    assert_string_equal(gov_profile_name(GOV_PROFILE_INTERACTIVE), "interactive");
    assert_string_equal(gov_step_kind_name(GOV_STEP_EXTERN), "extern");
    assert_string_equal(gov_pressure_level_name(GOV_RED), "red");
    assert_string_equal(gov_verdict_name(GOV_WAIT), "wait");
    assert_string_equal(gov_reason_name(GOV_REASON_BATCH_CEILING), "batch_ceiling");
    assert_string_equal(gov_ceiling_reason_name(GOV_CEILING_GROWING), "growing");
}

/* The JSON prints these as null. */
static void test_none_members(void **state)
{
    assert_null(gov_layer_name(GOV_LAYER_NONE));
    assert_null(gov_sched_source_name(GOV_SCHED_NONE));
    assert_null(gov_pressure_source_name(GOV_PRESSURE_SOURCE_NONE));
    assert_null(gov_step_kind_name(GOV_STEP_UNKNOWN));
}

static void test_outside(void **state)
{
    assert_null(gov_limit_status_name((gov_limit_status)7));
    assert_null(gov_enforcement_name((gov_enforcement)-1));
    assert_null(gov_layer_name((gov_layer)99));
    assert_null(gov_sched_source_name((gov_sched_source)3));
    assert_null(gov_descriptor_status_name((gov_descriptor_status)3));
    assert_null(gov_pressure_source_name((gov_pressure_source)3));
    assert_null(gov_profile_name((gov_profile)2));
    assert_null(gov_step_kind_name((gov_step_kind)5));
    assert_null(gov_pressure_level_name((gov_pressure_level)3));
    assert_null(gov_verdict_name((gov_verdict)3));
    assert_null(gov_reason_name((gov_reason)999));
    assert_null(gov_ceiling_reason_name((gov_ceiling_reason)5));
}

/* The parsers of outside text read names from the same tables. */
static void test_reverse(void **state)
{
    gov_profile p = GOV_PROFILE_BATCH;
    gov_step_kind k = GOV_STEP_UNKNOWN;

    (void)state;
    assert_int_equal(gov_profile_from_name("interactive", 11, &p), 0);
    assert_int_equal(p, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(gov_profile_from_name("batch", 5, &p), 0);
    assert_int_equal(p, GOV_PROFILE_BATCH);
    assert_int_equal(gov_profile_from_name("batches", 7, &p), GOV_EPARSE);
    assert_int_equal(gov_profile_from_name("Batch", 5, &p), GOV_EPARSE);
    assert_int_equal(gov_step_kind_from_name("extern", 6, &k), 0);
    assert_int_equal(k, GOV_STEP_EXTERN);
    /* A member without a name cannot be named. */
    assert_int_equal(gov_step_kind_from_name("", 0, &k), GOV_EPARSE);
    for (unsigned v = 0; v <= GOV_STEP_INTERACTIVE; v++) {
        const char *name = gov_step_kind_name((gov_step_kind)v);
        if (name) {
            assert_int_equal(gov_step_kind_from_name(name, strlen(name), &k), 0);
            assert_int_equal(k, v);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_none_members),
        cmocka_unit_test(test_outside),
        cmocka_unit_test(test_reverse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
