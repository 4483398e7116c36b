/* names.c - the stable names of the public enums (JSON values, tool output,
 * the Python binding, the parsers of outside text), one table each, read
 * both ways (names.h). */
#include "names.h"

#include "text.h"


const char *gov_name_of(const char *const *table, size_t n, unsigned v)
{
    return v < n ? table[v] : NULL;
}

int gov_name_lookup(const char *const *table, size_t n, const char *text, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (table[i] && gov_token_eq(text, len, table[i]))
            return (int)i;
    return -1;
}

#define NAME_OF(table, v) gov_name_of(GOV_NAMES(table), (unsigned)(v))

const char *gov_limit_status_name(gov_limit_status s)
{
    static const char *const names[] = {
        [GOV_LIMIT_UNKNOWN] = "unknown",
        [GOV_LIMIT_LIMITED] = "limited",
        [GOV_LIMIT_UNLIMITED] = "unlimited",
    };
    return NAME_OF(names, s);
}

const char *gov_enforcement_name(gov_enforcement e)
{
    static const char *const names[] = {
        [GOV_ENFORCEMENT_UNKNOWN] = "unknown",
        [GOV_ENFORCED] = "enforced",
        [GOV_NOT_ENFORCED] = "not_enforced",
    };
    return NAME_OF(names, e);
}

const char *gov_layer_name(gov_layer l)
{
    static const char *const names[] = {
        [GOV_LAYER_NONE] = NULL,
        [GOV_LAYER_HOST] = "host",
        [GOV_LAYER_AFFINITY] = "affinity",
        [GOV_LAYER_CPUSET] = "cpuset",
        [GOV_LAYER_QUOTA] = "quota",
        [GOV_LAYER_CGROUP] = "cgroup",
        [GOV_LAYER_SCHEDULER] = "scheduler",
        [GOV_LAYER_DEVICES] = "devices",
    };
    return NAME_OF(names, l);
}

const char *gov_sched_source_name(gov_sched_source s)
{
    static const char *const names[] = {
        [GOV_SCHED_NONE] = NULL,
        [GOV_SCHED_DESCRIPTOR] = "descriptor",
        [GOV_SCHED_ENVIRONMENT] = "environment",
    };
    return NAME_OF(names, s);
}

const char *gov_descriptor_status_name(gov_descriptor_status s)
{
    static const char *const names[] = {
        [GOV_DESCRIPTOR_ABSENT] = "absent",
        [GOV_DESCRIPTOR_VERIFIED] = "verified",
        [GOV_DESCRIPTOR_INVALID] = "invalid",
    };
    return NAME_OF(names, s);
}

const char *gov_pressure_source_name(gov_pressure_source s)
{
    static const char *const names[] = {
        [GOV_PRESSURE_SOURCE_NONE] = NULL,
        [GOV_PRESSURE_SOURCE_CGROUP] = "cgroup",
        [GOV_PRESSURE_SOURCE_SYSTEM] = "system",
    };
    return NAME_OF(names, s);
}

static const char *const profile_names[] = {
    [GOV_PROFILE_BATCH] = "batch",
    [GOV_PROFILE_INTERACTIVE] = "interactive",
};

const char *gov_profile_name(gov_profile p)
{
    return NAME_OF(profile_names, p);
}

int gov_profile_from_name(const char *text, size_t len, gov_profile *out)
{
    int v = gov_name_lookup(GOV_NAMES(profile_names), text, len);

    if (v < 0)
        return GOV_EPARSE;
    *out = (gov_profile)v;
    return 0;
}

static const char *const step_kind_names[] = {
    [GOV_STEP_UNKNOWN] = NULL,
    [GOV_STEP_NORMAL] = "normal",
    [GOV_STEP_BATCH] = "batch",
    [GOV_STEP_EXTERN] = "extern",
    [GOV_STEP_INTERACTIVE] = "interactive",
};

const char *gov_step_kind_name(gov_step_kind k)
{
    return NAME_OF(step_kind_names, k);
}

const char *gov_topology_source_name(gov_topology_source s)
{
    static const char *const names[] = {
        [GOV_TOPOLOGY_SOURCE_NONE] = NULL,
        [GOV_TOPOLOGY_SOURCE_DESCRIPTOR] = "descriptor",
        [GOV_TOPOLOGY_SOURCE_LIVE] = "live",
    };
    return NAME_OF(names, s);
}

int gov_step_kind_from_name(const char *text, size_t len, gov_step_kind *out)
{
    int v = gov_name_lookup(GOV_NAMES(step_kind_names), text, len);

    if (v < 0)
        return GOV_EPARSE;
    *out = (gov_step_kind)v;
    return 0;
}

const char *gov_pressure_level_name(gov_pressure_level l)
{
    static const char *const names[] = {
        [GOV_GREEN] = "green",
        [GOV_YELLOW] = "yellow",
        [GOV_RED] = "red",
    };
    return NAME_OF(names, l);
}

const char *gov_verdict_name(gov_verdict v)
{
    static const char *const names[] = {
        [GOV_ADMIT] = "admit",
        [GOV_WAIT] = "wait",
        [GOV_REJECT] = "reject",
    };
    return NAME_OF(names, v);
}

const char *gov_reason_name(gov_reason r)
{
    static const char *const names[] = {
        [GOV_REASON_NONE] = "none",
        [GOV_REASON_STALE_SNAPSHOT] = "stale_snapshot",
        [GOV_REASON_FUTURE_SNAPSHOT] = "future_snapshot",
        [GOV_REASON_CPU_PRESSURE] = "cpu_pressure",
        [GOV_REASON_MEMORY_PRESSURE] = "memory_pressure",
        [GOV_REASON_RAM] = "ram",
        [GOV_REASON_RAM_UNKNOWN] = "ram_unknown",
        [GOV_REASON_CPU] = "cpu",
        [GOV_REASON_IO] = "io",
        [GOV_REASON_GPU] = "gpu",
        [GOV_REASON_GPU_MEMORY] = "gpu_memory",
        [GOV_REASON_BATCH_CEILING] = "batch_ceiling",
    };
    return NAME_OF(names, r);
}

const char *gov_ceiling_reason_name(gov_ceiling_reason c)
{
    static const char *const names[] = {
        [GOV_CEILING_NO_OBSERVATION] = "no_observation",
        [GOV_CEILING_GROWING] = "growing",
        [GOV_CEILING_LARGEST] = "largest",
        [GOV_CEILING_PRESSURE] = "pressure",
        [GOV_CEILING_RAM_UNKNOWN] = "ram_unknown",
    };
    return NAME_OF(names, c);
}

void gov_layers_format(unsigned bits, char *buf, size_t cap)
{
    static const gov_layer order[] = { GOV_LAYER_AFFINITY, GOV_LAYER_CPUSET, GOV_LAYER_QUOTA,
                                       GOV_LAYER_CGROUP, GOV_LAYER_DEVICES };
    gov_text_buf o = gov_text_fixed(buf, cap);

    gov_text_append(&o, "", 0);
    if (bits == 0)
        gov_text_put(&o, "none");
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (bits & (1u << order[i]))
            gov_text_put(&o, "%s%s", o.used ? "," : "", gov_layer_name(order[i]));
}
