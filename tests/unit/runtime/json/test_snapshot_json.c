/* The governor.snapshot/1 rendering: contract paths present, unknown is
 * null, no identifying text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

static char *render(const gov_snapshot *s)
{
    char *text = NULL;
    size_t len = 0;

    assert_int_equal(gov_snapshot_json(s, &text, &len), 0);
    assert_int_equal(strlen(text), len);
    return text;
}

static void test_unknown_is_null(void **state)
{
    gov_snapshot s;
    char *j;

    gov_snapshot_init(&s);
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"schema\":\"governor.snapshot/1\""));
    assert_non_null(strstr(j, "\"descriptor\":{\"status\":\"absent\""));
    assert_non_null(strstr(j, "\"scheduler\":{\"source\":null"));
    assert_non_null(strstr(j, "\"host\":{\"logical\":null,\"physical\":null"));
    assert_non_null(strstr(j, "\"cgroup\":{\"version\":null"));
    assert_non_null(strstr(j, "\"quota_cores\":null,\"quota_status\":\"unknown\""));
    assert_non_null(strstr(j, "\"effective\":{\"capacity_cores\":null,\"workers\":null,\"binding\":null}"));
    assert_non_null(strstr(j, "\"enforcement\":{\"cpu\":\"unknown\",\"cpu_held_by\":null,\"memory\":\"unknown\",\"gpu\":\"unknown\",\"gpu_share\":\"unknown\"}"));
    assert_non_null(strstr(j, "\"pressure\":{\"source\":null,\"cpu\":{\"some_avg10\":null}"));
    /* No grant known: every GPU share field null. */
    assert_non_null(strstr(j, "\"gpu_share_kind\":null,\"gpu_share\":null,\"gpu_share_source\":null,"
                              "\"gpu_memory_bytes\":null"));
    free(j);
}

static void test_contract_values(void **state)
{
    gov_snapshot s;
    char *j;

    gov_snapshot_init(&s);
    s.cpu.host.logical = 8;
    s.cpu.host.physical = 4;
    s.cpu.affinity.count = 5;
    assert_int_equal(gov_cpuset_parse("0-3,8", 5, &s.cpu.affinity.set), 0);
    s.cpu.cgroup.version = 2;
    s.cpu.cgroup.quota_cores = 1.5;
    s.cpu.cgroup.quota_status = GOV_LIMIT_LIMITED;
    s.memory.cgroup.version = 2;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    s.memory.cgroup.limit_bytes = 1073741824;
    s.memory.host.total_bytes = 8589934592;
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.tasks_on_node = 3;
    s.scheduler.cpus_per_task = 2;
    s.pressure.source = GOV_PRESSURE_SOURCE_CGROUP;
    s.pressure.memory_some_avg10 = 0.25;
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"affinity\":{\"count\":5,\"list\":\"0-3,8\"}"));
    assert_non_null(strstr(j, "\"quota_cores\":1.5,\"quota_status\":\"limited\""));
    assert_non_null(strstr(j, "\"effective\":{\"capacity_cores\":1.5,\"workers\":1,\"binding\":\"quota\"}"));
    assert_non_null(strstr(j, "\"scheduler\":{\"source\":\"descriptor\""));
    assert_non_null(strstr(j, "\"tasks_on_node\":3"));
    assert_non_null(strstr(j, "\"scheduler\":{\"cpus\":2}"));
    assert_non_null(strstr(j, "\"limit_bytes\":1073741824"));
    assert_non_null(strstr(j, "\"source\":\"cgroup\""));
    assert_non_null(strstr(j, "\"some_avg10\":0.25"));
    /* The quota (1.5 cores) holds the 2 CPUs; the affinity (5) does not. */
    assert_non_null(strstr(j, "\"enforcement\":{\"cpu\":\"enforced\",\"cpu_held_by\":\"quota\""));
    assert_null(strchr(j, '\n'));
    free(j);

    /* A task of a cgroup v2 step: its cpuset is the step's 4 CPUs, and
     * only its affinity holds it to its 2. */
    s.cpu.cgroup.quota_cores = NAN;
    s.cpu.cgroup.quota_status = GOV_LIMIT_UNLIMITED;
    s.cpu.cgroup.cpuset_count = 4;
    s.cpu.affinity.count = 2;
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"enforcement\":{\"cpu\":\"enforced\",\"cpu_held_by\":\"affinity\""));
    free(j);
    s.cpu.affinity.count = 4;
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"cpu\":\"not_enforced\",\"cpu_held_by\":\"none\""));
    free(j);
}

/* The cgroup's hard limit against the step's memory: equal as Slurm sets
 * it, below once a running job's memory is lowered (Slurm 26.05), and the
 * effective limit the lower; unknown on either side is null. */
static void test_memory_against_allocation(void **state)
{
    gov_snapshot s;
    char *j;

    (void)state;
    gov_snapshot_init(&s);
    s.memory.host.total_bytes = 8589934592;
    s.memory.cgroup.version = 2;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    s.memory.cgroup.limit_bytes = 419430400;
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"against_allocation\":null"));
    free(j);
    s.scheduler.source = GOV_SCHED_DESCRIPTOR;
    s.scheduler.mem_per_node_bytes = 419430400;
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"against_allocation\":\"equal\""));
    free(j);
    s.memory.cgroup.limit_bytes = 157286400;
    gov_snapshot_resolve(&s);
    j = render(&s);
    assert_non_null(strstr(j, "\"against_allocation\":\"below\""));
    assert_non_null(strstr(j, "\"effective\":{\"limit_bytes\":157286400"));
    free(j);
}

static void test_invalid_descriptor_reason(void **state)
{
    gov_snapshot s;
    char *j;

    gov_snapshot_init(&s);
    s.descriptor.status = GOV_DESCRIPTOR_INVALID;
    s.descriptor.reason = GOV_EBINDING;
    j = render(&s);
    assert_non_null(strstr(j, "\"status\":\"invalid\",\"reason\":\"the descriptor belongs"));
    free(j);
    assert_int_equal(gov_snapshot_json(NULL, &j, NULL), GOV_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_is_null),
        cmocka_unit_test(test_contract_values),
        cmocka_unit_test(test_memory_against_allocation),
        cmocka_unit_test(test_invalid_descriptor_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
