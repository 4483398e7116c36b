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

typedef enum kind { K_U64, K_SECONDS, K_RATIO, K_NAME, K_SOURCE, K_FLAG } kind;

/* Every field but schema, told and findings, in the line's order.  A path
 * with a '.' opens its object on the first member (the table keeps the
 * members of one object together). */
static const struct field {
    const char *path;
    kind kind;
    size_t off;
} fields[] = {
#define U(path, member) { path, K_U64, offsetof(gov_step_record, member) }
#define S(path, member) { path, K_SECONDS, offsetof(gov_step_record, member) }
    U("job", job),
    { "step", K_NAME, offsetof(gov_step_record, step) },
    { "node", K_NAME, offsetof(gov_step_record, node) },
    U("uid", uid),
    U("start", start),
    S("elapsed_s", elapsed_s),
    U("time_limit_s", time_limit_s),
    U("job_end", job_end),
    U("tasks", tasks),
    U("budget.cpus", budget_cpus),
    U("budget.memory_bytes", budget_memory_bytes),
    U("budget.gpus", budget_gpus),
    S("used.cpu_s", cpu_s),
    { "used.cpu_efficiency", K_RATIO, offsetof(gov_step_record, cpu_efficiency) },
    { "used.cpu_source", K_SOURCE, offsetof(gov_step_record, cpu_from_cgroup) },
    U("used.memory_peak_bytes", memory_peak_bytes),
    U("used.memory_cache_bytes", memory_cache_bytes),
    U("used.memory_working_set_bytes", memory_working_set_bytes),
    { "used.memory_efficiency", K_RATIO, offsetof(gov_step_record, memory_efficiency) },
    U("used.memory_limit_bytes", memory_limit_bytes),
    U("used.oom_kills", oom_kills),
    S("used.cpu_throttled_s", cpu_throttled_s),
    S("used.pressure.cpu_some_s", cpu_some_s),
    S("used.pressure.memory_some_s", memory_some_s),
    S("used.pressure.memory_full_s", memory_full_s),
    { "recovered", K_FLAG, offsetof(gov_step_record, recovered) },
#undef U
#undef S
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

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

/* Close the objects of prev's path that path leaves and open path's new
 * ones ("used.pressure."); returns path's member name, its last part. */
static const char *member(gov_jw *w, const char *prev, const char *path)
{
    size_t common = 0, i;

    for (i = 0; prev && prev[i] && prev[i] == path[i]; i++)
        if (prev[i] == '.')
            common = i + 1;
    for (i = prev ? common : 0; prev && prev[i]; i++)
        if (prev[i] == '.')
            gov__jw_object_end(w);
    for (const char *p = path + common, *dot; (dot = strchr(p, '.')); p = dot + 1) {
        char key[32];

        snprintf(key, sizeof key, "%.*s", (int)(dot - p), p);
        gov__jw_object_begin(w, key);
    }
    return strrchr(path, '.') ? strrchr(path, '.') + 1 : path;
}

int gov__step_record_encode(const gov_step_record *r, char *buf, size_t cap)
{
    gov_jw w;
    const char *prev = NULL;
    int len;

    if (!name_ok(r->step) || !name_ok(r->node))
        return GOV_EINVAL;
    gov__jw_init_fixed(&w, buf, cap);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_REPORT_SCHEMA);
    for (size_t i = 0; i < N_FIELDS; i++) {
        const void *at = (const char *)r + fields[i].off;
        const char *key = member(&w, prev, fields[i].path);

        prev = fields[i].path;
        switch (fields[i].kind) {
        case K_U64:
            gov__jw_u64(&w, key, *(const uint64_t *)at);
            break;
        case K_SECONDS: /* to the millisecond */
            gov__jw_fixed(&w, key, *(const double *)at, 3);
            break;
        case K_RATIO:
            gov__jw_fixed(&w, key, *(const double *)at, 4);
            break;
        case K_NAME:
            gov__jw_string(&w, key, (const char *)at);
            break;
        case K_SOURCE:
            gov__jw_string(&w, key, isnan(r->cpu_s) ? NULL : *(const bool *)at ? "cgroup" : "rusage");
            break;
        case K_FLAG:
            gov__jw_bool(&w, key, *(const bool *)at);
            break;
        }
    }
    for (const char *p = prev; p && *p; p++)
        if (*p == '.')
            gov__jw_object_end(&w);
    if (r->told_tasks) {
        gov__jw_object_begin(&w, "told");
        gov__jw_u64(&w, "tasks", r->told_tasks);
        gov__jw_u64(&w, "threads", r->told_threads);
        gov__jw_u64(&w, "memory_bytes", r->told_memory_bytes);
        gov__jw_object_end(&w);
    } else {
        gov__jw_null(&w, "told");
    }
    gov__jw_array_begin(&w, "findings");
    for (unsigned f = 0; f < GOV_FINDING_COUNT; f++)
        if (r->findings & (1u << f))
            gov__jw_string(&w, NULL, finding_names[f]);
    gov__jw_array_end(&w);
    gov__jw_object_end(&w);
    gov__text_append(&w.out, "\n", 1);
    len = gov__jw_length(&w);
    if (len < 0 || (size_t)len >= GOV_REPORT_LINE_MAX)
        return GOV_ENOSPC;
    return len;
}

/* ---- decoding -------------------------------------------------------------- */

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

/* The largest seconds or ratio a record may carry: about 31 million years,
 * far past any step, and small enough that every accepted figure writes
 * back (%.3f) in a few digits that read again the same. */
#define FIGURE_MAX 1e15

static int get_double(const gov_json_leaf *l, double *v)
{
    char tmp[64], *end;

    if (l->type == GOV_JSON_NULL) {
        *v = NAN;
        return 0;
    }
    if (l->type != GOV_JSON_NUMBER || l->len >= sizeof tmp)
        return GOV_EPARSE;
    memcpy(tmp, l->text, l->len);
    tmp[l->len] = '\0';
    *v = strtod(tmp, &end);
    return *end || !(*v >= 0 && *v <= FIGURE_MAX) ? GOV_EPARSE : 0;
}

static int get_name(const gov_json_leaf *l, char *dst, size_t cap)
{
    if (l->type != GOV_JSON_STRING || !l->plain || l->len == 0 || l->len >= cap)
        return GOV_EPARSE;
    memcpy(dst, l->text, l->len);
    dst[l->len] = '\0';
    return name_ok(dst) ? 0 : GOV_EPARSE;
}

static int get_field(const struct field *f, const gov_json_leaf *l, gov_step_record *r)
{
    void *at = (char *)r + f->off;

    switch (f->kind) {
    case K_U64:
        return get_u64(l, at);
    case K_SECONDS:
    case K_RATIO:
        return get_double(l, at);
    case K_NAME:
        return get_name(l, at, f->off == offsetof(gov_step_record, step) ? sizeof r->step
                                                                        : sizeof r->node);
    case K_FLAG:
        if (l->type != GOV_JSON_BOOL)
            return GOV_EPARSE;
        *(bool *)at = gov__token_eq(l->text, l->len, "true");
        return 0;
    case K_SOURCE:
        if (l->type == GOV_JSON_NULL)
            return 0;
        if (l->type == GOV_JSON_STRING && gov__token_eq(l->text, l->len, "cgroup"))
            *(bool *)at = true;
        else if (!(l->type == GOV_JSON_STRING && gov__token_eq(l->text, l->len, "rusage")))
            return GOV_EPARSE;
        return 0;
    }
    return GOV_EPARSE;
}

static int get_told(const gov_json_leaf *l, gov_step_record *r)
{
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
        if (!strncmp(l->path, "told", 4)) {
            if (get_told(l, r))
                return GOV_EPARSE;
            continue;
        }
        if (!strcmp(l->path, "findings[]")) {
            gov_finding f;
            if (l->type != GOV_JSON_STRING)
                return GOV_EPARSE;
            /* A later version's finding is kept out, not refused. */
            if ((f = gov__finding_from_name(l->text, l->len)) != GOV_FINDING_COUNT)
                r->findings |= 1u << f;
            continue;
        }
        if (next < N_FIELDS && !strcmp(fields[next].path, l->path))
            k = next;
        else
            for (k = 0; k < N_FIELDS && strcmp(fields[k].path, l->path); k++)
                ;
        if (k == N_FIELDS)
            continue;
        next = k + 1;
        if (seen[k] || get_field(&fields[k], l, r))
            return GOV_EPARSE;
        seen[k] = true;
    }
    if (!schema)
        return GOV_EPARSE;
    /* The record's identity must be there; the figures may be unknown. */
    if (!seen[0] || !seen[1] || !seen[2] || r->job == GOV_UNKNOWN)
        return GOV_EPARSE;
    return 0;
}
