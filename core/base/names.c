/* names.c - the stable names of the public enums (JSON values, tool output,
 * the Python binding, the parsers of outside text), one table each, read
 * both ways (base.h). */
#include "base.h"



const char *gov__name_of(const char *const *table, size_t n, unsigned v)
{
    return v < n ? table[v] : NULL;
}

int gov__name_lookup(const char *const *table, size_t n, const char *text, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (table[i] && gov__token_eq(text, len, table[i]))
            return (int)i;
    return -1;
}

/* One table per public enum, indexed by value and sized by the enum's count,
 * filled from the enum's list (governor.h): a member cannot lack its name. */
#define NAME_ENTRY(id, name, ...) [id] = name,
#define ENUM_NAMES(type, LIST, COUNT)                                    \
    static const char *const type##_names[COUNT] = { LIST(NAME_ENTRY) }; \
    const char *gov_##type##_name(gov_##type v)                          \
    {                                                                    \
        return gov__name_of(type##_names, COUNT, (unsigned)v);            \
    }

/* Every public enum, once: its type without gov_, its list, its count. */
#define PUBLIC_ENUMS(X)                                                            \
    X(limit_status, GOV_LIMIT_STATUS_LIST, GOV_LIMIT_STATUS_COUNT)                 \
    X(enforcement, GOV_ENFORCEMENT_LIST, GOV_ENFORCEMENT_COUNT)                    \
    X(layer, GOV_LAYER_LIST, GOV_LAYER_COUNT)                                      \
    X(sched_source, GOV_SCHED_SOURCE_LIST, GOV_SCHED_SOURCE_COUNT)                 \
    X(descriptor_status, GOV_DESCRIPTOR_STATUS_LIST, GOV_DESCRIPTOR_STATUS_COUNT)  \
    X(descriptor_via, GOV_DESCRIPTOR_VIA_LIST, GOV_DESCRIPTOR_VIA_COUNT)           \
    X(namespace, GOV_NAMESPACE_LIST, GOV_NAMESPACE_COUNT)                          \
    X(binding, GOV_BINDING_LIST, GOV_BINDING_COUNT)                                \
    X(pressure_source, GOV_PRESSURE_SOURCE_LIST, GOV_PRESSURE_SOURCE_COUNT)        \
    X(step_kind, GOV_STEP_KIND_LIST, GOV_STEP_KIND_COUNT)                          \
    X(topology_source, GOV_TOPOLOGY_SOURCE_LIST, GOV_TOPOLOGY_SOURCE_COUNT)        \
    X(gpu_share_kind, GOV_GPU_SHARE_KIND_LIST, GOV_GPU_SHARE_KIND_COUNT)           \
    X(profile, GOV_PROFILE_LIST, GOV_PROFILE_COUNT)                                \
    X(runenv_action, GOV_RUNENV_ACTION_LIST, GOV_RUNENV_ACTION_COUNT)              \
    X(runenv_reason, GOV_RUNENV_REASON_LIST, GOV_RUNENV_REASON_COUNT)              \
    X(pressure_level, GOV_PRESSURE_LEVEL_LIST, GOV_PRESSURE_LEVEL_COUNT)           \
    X(ceiling_reason, GOV_CEILING_REASON_LIST, GOV_CEILING_REASON_COUNT)           \
    X(verdict, GOV_VERDICT_LIST, GOV_VERDICT_COUNT)                                \
    X(reason, GOV_REASON_LIST, GOV_REASON_COUNT)                                   \
    /* end */

PUBLIC_ENUMS(ENUM_NAMES)

#define TEXT_ENTRY(id, name, text) [id] = text,
static const char *const runenv_reason_texts[GOV_RUNENV_REASON_COUNT] = {
    GOV_RUNENV_REASON_LIST(TEXT_ENTRY)
};

const char *gov_runenv_reason_text(gov_runenv_reason r)
{
    return gov__name_of(GOV_NAMES(runenv_reason_texts), (unsigned)r);
}

#define TABLE(type, LIST, COUNT) { "gov_" #type, type##_names, COUNT },
const gov_enum_table gov__enum_tables[] = { PUBLIC_ENUMS(TABLE) };
const size_t gov__enum_tables_count = sizeof gov__enum_tables / sizeof gov__enum_tables[0];

int gov__profile_from_name(const char *text, size_t len, gov_profile *out)
{
    int v = gov__name_lookup(GOV_NAMES(profile_names), text, len);

    if (v < 0)
        return GOV_EPARSE;
    *out = (gov_profile)v;
    return 0;
}

int gov__step_kind_from_name(const char *text, size_t len, gov_step_kind *out)
{
    int v = gov__name_lookup(GOV_NAMES(step_kind_names), text, len);

    if (v < 0)
        return GOV_EPARSE;
    *out = (gov_step_kind)v;
    return 0;
}

const char *gov__bits_format(uint32_t bits, const char *(*name)(unsigned), unsigned count,
                             char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);

    gov__text_append(&o, "", 0);
    for (unsigned i = 0; i < count && i < 32; i++)
        if (bits & (1u << i))
            gov__text_put(&o, "%s%s", o.used ? "," : "", name(i));
    if (!o.used)
        gov__text_put(&o, "none");
    return buf;
}

const char *gov__namespace_bits_name(unsigned v)
{
    return gov_namespace_name((gov_namespace)v);
}

const char *gov__binding_bits_name(unsigned v)
{
    return gov_binding_name((gov_binding)v);
}

void gov__layers_format(unsigned bits, char *buf, size_t cap)
{
    static const gov_layer order[] = { GOV_LAYER_AFFINITY, GOV_LAYER_CPUSET, GOV_LAYER_QUOTA,
                                       GOV_LAYER_CGROUP, GOV_LAYER_DEVICES };
    gov_text_buf o = gov__text_fixed(buf, cap);

    gov__text_append(&o, "", 0);
    if (bits == 0)
        gov__text_put(&o, "none");
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (bits & (1u << order[i]))
            gov__text_put(&o, "%s%s", o.used ? "," : "", gov_layer_name(order[i]));
}
