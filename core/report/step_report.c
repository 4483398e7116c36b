/* step_report.c - the step report's record: its findings by their rules,
 * and the one line it is written as, both ways.  The fields are a table
 * (where each figure sits in the record, and its kind), so the encoder and
 * the decoder cannot disagree on a name. */
#include "step_report.h"

#include "base.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FINDING_NAME_(id, name, text) [id] = name,
#define FINDING_TEXT_(id, name, text) [id] = text,
static const char *const finding_names[GOV_FINDING_COUNT] = { GOV_FINDING_LIST(FINDING_NAME_) };
static const char *const finding_texts[GOV_FINDING_COUNT] = { GOV_FINDING_LIST(FINDING_TEXT_) };

const char *gov__finding_name(gov_finding f)
{
    return gov__name_of(GOV_NAMES(finding_names), (unsigned)f);
}

const char *gov__finding_text(gov_finding f)
{
    return gov__name_of(GOV_NAMES(finding_texts), (unsigned)f);
}

gov_finding gov__finding_from_name(const char *name, size_t len)
{
    int f = gov__name_lookup(GOV_NAMES(finding_names), name, len);

    return f < 0 ? GOV_FINDING_COUNT : (gov_finding)f;
}

void gov__step_record_init(gov_step_record *r)
{
    memset(r, 0, sizeof *r);
    r->job = r->uid = r->start = r->tasks = GOV_UNKNOWN;
    r->time_limit_s = r->job_end = GOV_UNKNOWN;
    r->budget_cpus = r->budget_memory_bytes = r->budget_gpus = GOV_UNKNOWN;
    r->budget_gpu_share = NAN;
    r->budget_gpu_memory_bytes = GOV_UNKNOWN;
    r->told_threads = r->told_memory_bytes = GOV_UNKNOWN;
    r->memory_peak_bytes = r->memory_cache_bytes = r->memory_working_set_bytes = GOV_UNKNOWN;
    r->memory_limit_bytes = GOV_UNKNOWN;
    r->oom_kills = GOV_UNKNOWN;
    r->elapsed_s = r->cpu_s = r->cpu_efficiency = r->memory_efficiency = NAN;
    r->cpu_throttled_s = r->cpu_some_s = r->memory_some_s = r->memory_full_s = NAN;
}

/* Thresholds: docs/admin-guide.md, "Findings". */
#define NEAR_LIMIT 0.90
#define UNDERUSED 0.25
#define HELD_BACK 0.10

/* The working set: the peak less the reclaimable page cache the step
 * still holds at its end.  The kernel keeps no peak of memory it cannot
 * reclaim; a step's cache (files it wrote or read) counts against its limit
 * but never forced it there.  An estimate: cache freed before the end
 * (a file deleted, pages reclaimed) is not subtracted, which only raises
 * it; cache charged after the peak is subtracted, which can lower it below
 * what the step held at its peak.  So it judges memory_near_limit (raised,
 * it errs towards "ask more"), never memory_underused, which the peak
 * itself judges (docs/admin-guide.md, "Findings"). */
static void judge_memory(gov_step_record *r)
{
    uint64_t budget = r->budget_memory_bytes;

    r->memory_working_set_bytes = GOV_UNKNOWN;
    r->memory_efficiency = NAN;
    if (r->memory_peak_bytes != GOV_UNKNOWN && r->memory_cache_bytes != GOV_UNKNOWN)
        r->memory_working_set_bytes =
            r->memory_peak_bytes -
            (r->memory_cache_bytes < r->memory_peak_bytes ? r->memory_cache_bytes
                                                          : r->memory_peak_bytes);
    if (r->memory_working_set_bytes != GOV_UNKNOWN && budget != GOV_UNKNOWN && budget)
        r->memory_efficiency = (double)r->memory_working_set_bytes / (double)budget;
}

static bool below(uint64_t v, double fraction, uint64_t of)
{
    return v != GOV_UNKNOWN && of != GOV_UNKNOWN && of && (double)v < fraction * (double)of;
}

bool gov__time_overrequested(double elapsed_s, uint64_t limit_s)
{
    return !isnan(elapsed_s) && limit_s != GOV_UNKNOWN && limit_s &&
           elapsed_s < UNDERUSED * (double)limit_s;
}

/* The step lasted until the job's end: Slurm ends every step there.  start
 * is whole seconds, so a second of slack. */
static bool timed_out(const gov_step_record *r)
{
    return r->job_end != GOV_UNKNOWN && r->start != GOV_UNKNOWN && !isnan(r->elapsed_s) &&
           (double)r->start + r->elapsed_s + 1 >= (double)r->job_end;
}

void gov__step_record_judge(gov_step_record *r, uint64_t min_s)
{
    bool long_enough = r->elapsed_s >= (double)min_s;
    uint64_t near;

    r->cpu_efficiency = NAN;
    if (!isnan(r->cpu_s) && r->elapsed_s > 0 && r->budget_cpus != GOV_UNKNOWN && r->budget_cpus)
        r->cpu_efficiency = r->cpu_s / (r->elapsed_s * (double)r->budget_cpus);
    judge_memory(r);
    /* Without the cache's figure the peak stands for the working set. */
    near = r->memory_working_set_bytes != GOV_UNKNOWN ? r->memory_working_set_bytes
                                                      : r->memory_peak_bytes;
    r->findings = 0;
    if (r->oom_kills != GOV_UNKNOWN && r->oom_kills > 0)
        r->findings |= 1u << GOV_FINDING_OOM_KILLED;
    if (r->memory_limit_bytes != GOV_UNKNOWN && r->budget_memory_bytes != GOV_UNKNOWN &&
        r->memory_limit_bytes < r->budget_memory_bytes)
        r->findings |= 1u << GOV_FINDING_MEMORY_LOWERED;
    if (near != GOV_UNKNOWN && r->budget_memory_bytes != GOV_UNKNOWN && r->budget_memory_bytes &&
        !below(near, NEAR_LIMIT, r->budget_memory_bytes))
        r->findings |= 1u << GOV_FINDING_MEMORY_NEAR_LIMIT;
    if (timed_out(r))
        r->findings |= 1u << GOV_FINDING_TIMEOUT;
    if (r->recovered)
        r->findings |= 1u << GOV_FINDING_STEPD_LOST;
    /* However short: a 5 s job that asked an hour is the case to see. */
    if ((!strcmp(r->step, "batch") || !strcmp(r->step, "interactive")) &&
        !(r->findings & (1u << GOV_FINDING_TIMEOUT)) &&
        gov__time_overrequested(r->elapsed_s, r->time_limit_s))
        r->findings |= 1u << GOV_FINDING_TIME_OVERREQUESTED;
    if (!long_enough)
        return;
    if (!isnan(r->cpu_efficiency) && r->cpu_efficiency < UNDERUSED)
        r->findings |= 1u << GOV_FINDING_CPU_UNDERUSED;
    /* Even the peak, page cache and all, under a quarter; a step the
     * kernel killed for memory did not ask too much. */
    if (below(r->memory_peak_bytes, UNDERUSED, r->budget_memory_bytes) &&
        !(r->findings & (1u << GOV_FINDING_OOM_KILLED)))
        r->findings |= 1u << GOV_FINDING_MEMORY_UNDERUSED;
    if (!isnan(r->cpu_throttled_s) && r->cpu_throttled_s >= HELD_BACK * r->elapsed_s)
        r->findings |= 1u << GOV_FINDING_THROTTLED;
    if (!isnan(r->memory_some_s) && r->memory_some_s >= HELD_BACK * r->elapsed_s)
        r->findings |= 1u << GOV_FINDING_STALLED;
}

/* ---- the fields ---------------------------------------------------------- */

static bool name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
            return false;
    return true;
}

/* Where the CPU time came from: null while it is unknown. */
static const char *cpu_source(const void *obj, char *buf, size_t cap)
{
    const gov_step_record *r = obj;

    (void)buf, (void)cap;
    return isnan(r->cpu_s) ? NULL : r->cpu_from_cgroup ? "cgroup" : "rusage";
}

static int get_cpu_source(const gov_json_leaf *l, void *obj)
{
    gov_step_record *r = obj;

    if (l->type == GOV_JSON_NULL)
        return 0;
    if (l->type == GOV_JSON_STRING && gov__token_eq(l->text, l->len, "cgroup"))
        r->cpu_from_cgroup = true;
    else if (!(l->type == GOV_JSON_STRING && gov__token_eq(l->text, l->len, "rusage")))
        return GOV_EPARSE;
    return 0;
}

/* What the plugin told the tasks: an object, null when it told nothing. */
static void put_told(gov_jw *w, const char *key, const void *obj)
{
    const gov_step_record *r = obj;

    if (!r->told_tasks) {
        gov__jw_null(w, key);
        return;
    }
    gov__jw_object_begin(w, key);
    gov__jw_u64(w, "tasks", r->told_tasks);
    gov__jw_u64(w, "threads", r->told_threads);
    gov__jw_u64(w, "memory_bytes", r->told_memory_bytes);
    gov__jw_object_end(w);
}

static int get_u64(const gov_json_leaf *l, uint64_t *v)
{
    if (l->type == GOV_JSON_NULL) {
        *v = GOV_UNKNOWN;
        return 0;
    }
    return l->type == GOV_JSON_NUMBER && !gov__parse_dec(l->text, l->len, 0, GOV_UNKNOWN - 1, v)
               ? 0
               : GOV_EPARSE;
}

static int get_told(const gov_json_leaf *l, void *obj)
{
    gov_step_record *r = obj;

    if (!strcmp(l->path, "told"))
        return l->type == GOV_JSON_NULL ? 0 : GOV_EPARSE;
    if (!strcmp(l->path, "told.tasks"))
        return get_u64(l, &r->told_tasks) || r->told_tasks == GOV_UNKNOWN ? GOV_EPARSE : 0;
    if (!strcmp(l->path, "told.threads"))
        return get_u64(l, &r->told_threads);
    if (!strcmp(l->path, "told.memory_bytes"))
        return get_u64(l, &r->told_memory_bytes);
    return 0;   /* a later version's member */
}

static void put_findings(gov_jw *w, const char *key, const void *obj)
{
    const gov_step_record *r = obj;

    gov__jw_array_begin(w, key);
    for (unsigned f = 0; f < GOV_FINDING_COUNT; f++)
        if (r->findings & (1u << f))
            gov__jw_string(w, NULL, finding_names[f]);
    gov__jw_array_end(w);
}

static int get_finding(const gov_json_leaf *l, void *obj)
{
    gov_step_record *r = obj;
    gov_finding f;

    if (strcmp(l->path, "findings[]") || l->type != GOV_JSON_STRING)
        return GOV_EPARSE;
    /* A later version's finding is kept out, not refused. */
    if ((f = gov__finding_from_name(l->text, l->len)) != GOV_FINDING_COUNT)
        r->findings |= 1u << f;
    return 0;
}

/* Every member but schema, in the line's order: the record's contract
 * (docs/admin-guide.md, "The step report"). */
#define AT(member) offsetof(gov_step_record, member)
#define U(path_, member) { .path = (path_), .kind = GOV_FIELD_COUNT, .offset = AT(member) }
#define S(path_, member) \
    { .path = (path_), .kind = GOV_FIELD_FRACTION, .offset = AT(member), .decimals = 3 }
#define RATIO(path_, member) \
    { .path = (path_), .kind = GOV_FIELD_FRACTION, .offset = AT(member), .decimals = 4 }
#define NAME(path_, member) \
    { .path = (path_), .kind = GOV_FIELD_TEXT, .offset = AT(member), \
      .aux = sizeof(((gov_step_record *)0)->member) }
static const gov_field fields[] = {
    U("job", job),
    NAME("step", step),
    NAME("node", node),
    U("uid", uid),
    U("start", start),
    S("elapsed_s", elapsed_s),
    U("time_limit_s", time_limit_s),
    U("job_end", job_end),
    U("tasks", tasks),
    U("budget.cpus", budget_cpus),
    U("budget.memory_bytes", budget_memory_bytes),
    U("budget.gpus", budget_gpus),
    S("budget.gpu_share", budget_gpu_share),
    U("budget.gpu_memory_bytes", budget_gpu_memory_bytes),
    S("used.cpu_s", cpu_s),
    RATIO("used.cpu_efficiency", cpu_efficiency),
    { .path = "used.cpu_source", .kind = GOV_FIELD_DERIVED, .derive = cpu_source,
      .get = get_cpu_source },
    U("used.memory_peak_bytes", memory_peak_bytes),
    U("used.memory_cache_bytes", memory_cache_bytes),
    U("used.memory_working_set_bytes", memory_working_set_bytes),
    RATIO("used.memory_efficiency", memory_efficiency),
    U("used.memory_limit_bytes", memory_limit_bytes),
    U("used.oom_kills", oom_kills),
    S("used.cpu_throttled_s", cpu_throttled_s),
    S("used.pressure.cpu_some_s", cpu_some_s),
    S("used.pressure.memory_some_s", memory_some_s),
    S("used.pressure.memory_full_s", memory_full_s),
    { .path = "recovered", .kind = GOV_FIELD_BOOL, .offset = AT(recovered) },
    { .path = "told", .kind = GOV_FIELD_CUSTOM, .put = put_told, .get = get_told },
    { .path = "findings", .kind = GOV_FIELD_CUSTOM, .put = put_findings, .get = get_finding },
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

int gov__step_record_encode(const gov_step_record *r, char *buf, size_t cap)
{
    gov_jw w;
    int len;

    if (!name_ok(r->step) || !name_ok(r->node))
        return GOV_EINVAL;
    gov__jw_init_fixed(&w, buf, cap);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_REPORT_SCHEMA);
    gov__fields_json(&w, fields, N_FIELDS, r);
    gov__jw_object_end(&w);
    gov__text_append(&w.out, "\n", 1);
    len = gov__jw_length(&w);
    if (len < 0 || (size_t)len >= GOV_REPORT_LINE_MAX)
        return GOV_ENOSPC;
    return len;
}

/* ---- decoding -------------------------------------------------------------- */

#define LEAVES_MAX 64

int gov__step_record_decode(const char *text, size_t len, gov_step_record *r)
{
    gov_json_leaf leaves[LEAVES_MAX];
    bool seen[N_FIELDS] = { false }, schema = false;
    int n = gov__json_leaves(text, len, leaves, LEAVES_MAX);
    size_t next = 0;   /* the encoder's order: the field after the last one */

    gov__step_record_init(r);
    if (n < 0 || len == 0 || text[strspn(text, " \t")] != '{')
        return GOV_EPARSE;
    for (int i = 0; i < n; i++) {
        const gov_json_leaf *l = &leaves[i];
        size_t k;

        if (!strcmp(l->path, "schema")) {
            if (l->type != GOV_JSON_STRING)
                return GOV_EPARSE;
            if (!gov__token_eq(l->text, l->len, GOV_REPORT_SCHEMA))
                return GOV_EVERSION;
            schema = true;
            continue;
        }
        k = gov__fields_find(fields, N_FIELDS, l->path, next);
        if (k == N_FIELDS)
            continue;   /* a later version's member */
        /* A custom row takes several leaves; any other, one. */
        if ((seen[k] && fields[k].kind != GOV_FIELD_CUSTOM) || gov__field_get(&fields[k], l, r))
            return GOV_EPARSE;
        next = fields[k].kind == GOV_FIELD_CUSTOM ? k : k + 1;
        seen[k] = true;
    }
    if (!schema)
        return GOV_EPARSE;
    /* The record's identity must be there and plain; the figures may be
     * unknown. */
    if (!seen[0] || !seen[1] || !seen[2] || r->job == GOV_UNKNOWN || !name_ok(r->step) ||
        !name_ok(r->node))
        return GOV_EPARSE;
    return 0;
}
