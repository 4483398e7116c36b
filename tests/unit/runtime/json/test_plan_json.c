/* The governor.plan/1 rendering: the GPU grant it works within is the
 * snapshot's, told once, null without one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "json/render.h"

static char *render(const gov_snapshot *s)
{
    gov_plan p;
    char *text = NULL;
    size_t len = 0;

    assert_int_equal(gov_plan_compute(s, 0, 0, &p), 0);
    assert_int_equal(gov__plan_json(s, &p, &text, &len), 0);
    assert_int_equal(strlen(text), len);
    return text;
}

static void two_cpus(gov_snapshot *s)
{
    gov_snapshot_init(s);
    s->cpu.host.logical = 2;
    s->cpu.affinity.count = 2;
    assert_int_equal(gov_cpuset_parse("0-1", 3, &s->cpu.affinity.set), 0);
}

static void test_no_grant_is_null(void **state)
{
    gov_snapshot s;
    char *j;

    (void)state;
    two_cpus(&s);
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"schema\":\"governor.plan/1\""));
    assert_non_null(strstr(j, "\"gpu\":null"));
    free(j);
}

static void test_shard(void **state)
{
    gov_snapshot s;
    char *j;

    (void)state;
    two_cpus(&s);
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_SHARD;
    s.scheduler.gpu_share = 0.25;
    s.scheduler.gpu_memory_bytes = 4294967296ULL;
    s.enforcement.gpu_share = GOV_NOT_ENFORCED;
    j = render(&s);
    assert_non_null(strstr(j, "\"gpu\":{\"kind\":\"shard\",\"share\":0.25,"
                              "\"memory_bytes\":4294967296,\"enforcement\":\"not_enforced\"}"));
    free(j);
}

/* An unknown memory is null, never zero. */
static void test_unknown_memory(void **state)
{
    gov_snapshot s;
    char *j;

    (void)state;
    two_cpus(&s);
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_MPS;
    s.scheduler.gpu_share = 0.5;
    j = render(&s);
    assert_non_null(strstr(j, "\"kind\":\"mps\",\"share\":0.5,\"memory_bytes\":null"));
    free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_grant_is_null),
        cmocka_unit_test(test_shard),
        cmocka_unit_test(test_unknown_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
