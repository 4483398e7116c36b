/* report_groups.c - `governor report --by user` and `--by job`: the steps
 * summed per user, to answer who over-asks, or one line per job with its
 * suggestions (docs/admin-guide.md, "Per user and per job").  CPU efficiency is CPU
 * time over CPU time asked (elapsed x CPUs, each node); memory efficiency
 * is the working sets over the budgets, each weighted by its node's elapsed
 * time (memory held for an hour counts more than for a second).  A node
 * record lacking a figure leaves that sum.  A job's batch step holds the
 * job's allocation on its node while its steps run inside it: there the
 * steps' CPU time and working sets count against the batch step's budget
 * (theirs is not asked twice), and the batch step's own underuse findings
 * are not the job's (a script that waits on srun is idle by design).  A
 * user's sums are their jobs' sums, counted the same way. */
#define _GNU_SOURCE /* qsort_r */
#include "report.h"
#include "fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct group_sum {
    uint64_t key;                       /* the uid, or the job */
    uint64_t uid, steps, oom_kills;
    double elapsed_s;                   /* jobs: the batch step's, else the longest */
    double cpu_s, cpu_asked_s;          /* over the records that know both */
    double mem_used_s, mem_asked_s;     /* byte-seconds, the same way */
    double cpu_eff, mem_eff;
    uint64_t findings[GOV_FINDING_COUNT];
    char name[64];
    gov_job_advice advice;              /* jobs: what to ask next time */
} group_sum;

static void add_used(group_sum *g, const gov_step_record *r)
{
    if (!isnan(r->cpu_s) && r->elapsed_s > 0 && r->budget_cpus != GOV_UNKNOWN)
        g->cpu_s += r->cpu_s;
    if (r->memory_working_set_bytes != GOV_UNKNOWN && r->budget_memory_bytes != GOV_UNKNOWN &&
        r->elapsed_s > 0)
        g->mem_used_s += (double)r->memory_working_set_bytes * r->elapsed_s;
    if (r->oom_kills != GOV_UNKNOWN)
        g->oom_kills += r->oom_kills;
}

static void add_asked(group_sum *g, const gov_step_record *r)
{
    if (!isnan(r->cpu_s) && r->elapsed_s > 0 && r->budget_cpus != GOV_UNKNOWN)
        g->cpu_asked_s += r->elapsed_s * (double)r->budget_cpus;
    if (r->memory_working_set_bytes != GOV_UNKNOWN && r->budget_memory_bytes != GOV_UNKNOWN &&
        r->elapsed_s > 0)
        g->mem_asked_s += (double)r->budget_memory_bytes * r->elapsed_s;
}

static bool is_batch(const gov_report_step *s)
{
    return !strcmp(s->total.step, "batch");
}

/* Whether the batch step b has a record on node. */
static bool batch_on(const gov_report_step *b, const char *node)
{
    for (size_t k = 0; b && k < b->n; k++)
        if (!strcmp(b->nodes[k].node, node))
            return true;
    return false;
}

/* Add step s (of the job whose batch step is batch, or NULL, and which has
 * other steps than it when more) to g. */
static void add_step(group_sum *g, const gov_report_step *s, const gov_report_step *batch,
                     bool more)
{
    uint32_t findings = s->total.findings;

    g->steps++;
    for (size_t k = 0; k < s->n; k++) {
        add_used(g, &s->nodes[k]);
        if (s == batch || !batch_on(batch, s->nodes[k].node))
            add_asked(g, &s->nodes[k]);
    }
    if (s == batch && more)
        findings &= ~((1u << GOV_FINDING_CPU_UNDERUSED) | (1u << GOV_FINDING_MEMORY_UNDERUSED));
    /* A job's, counted once per job (sum_groups). */
    findings &= ~(1u << GOV_FINDING_TIME_OVERREQUESTED);
    for (unsigned f = 0; f < GOV_FINDING_COUNT; f++)
        g->findings[f] += (findings >> f) & 1u;
    if (!isnan(s->total.elapsed_s) && (s == batch || !batch) &&
        (isnan(g->elapsed_s) || s == batch || s->total.elapsed_s > g->elapsed_s))
        g->elapsed_s = s->total.elapsed_s;
}

static int by_key(const void *a, const void *b, void *arg)
{
    const group_sum *x = a, *y = b;
    gov_report_sort sort_key = *(const gov_report_sort *)arg;
    double p = sort_key == GOV_REPORT_SORT_CPU_EFF ? x->cpu_eff : x->mem_eff;
    double q = sort_key == GOV_REPORT_SORT_CPU_EFF ? y->cpu_eff : y->mem_eff;

    if (sort_key == GOV_REPORT_SORT_CPU_EFF || sort_key == GOV_REPORT_SORT_MEM_EFF) {
        /* Least efficient first; unknown last. */
        if (isnan(p) != isnan(q))
            return isnan(p) ? 1 : -1;
        if (!isnan(p) && p != q)
            return p < q ? -1 : 1;
    } else if (sort_key == GOV_REPORT_SORT_ELAPSED && x->elapsed_s != y->elapsed_s) {
        if (isnan(x->elapsed_s) != isnan(y->elapsed_s))
            return isnan(x->elapsed_s) ? 1 : -1;
        return x->elapsed_s > y->elapsed_s ? -1 : 1;
    }
    if (sort_key == GOV_REPORT_SORT_USER || x->key == y->key) {
        int c = strcmp(x->name, y->name);
        if (c)
            return c;
    }
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The groups of steps[0..n), summed, sorted; *count of them (malloc'd;
 * NULL with *count 0 when memory ran out).  A job's steps are found
 * together as gov__report_sort's job order leaves them. */
static group_sum *sum_groups(const gov_report_step *steps, size_t n, gov_report_by by,
                             bool names, gov_report_sort key, size_t *count)
{
    group_sum *v = calloc(n ? n : 1, sizeof *v);
    gov_user_cache users = { 0 };
    size_t m = 0;

    *count = 0;
    if (!v)
        return NULL;
    for (size_t i = 0, end; i < n; i = end) {
        const gov_report_step *batch = NULL;
        gov_job_advice advice;
        /* One job's steps: contiguous, as sorted. */
        for (end = i; end < n && steps[end].total.job == steps[i].total.job; end++)
            if (is_batch(&steps[end]))
                batch = &steps[end];
        gov__report_job_advice(&steps[i], end - i, &advice);
        for (size_t s = i; s < end; s++) {
            uint64_t k = by == GOV_REPORT_BY_JOB ? steps[s].total.job : steps[s].total.uid;
            size_t j = m;
            if (by == GOV_REPORT_BY_JOB)
                j = m && v[m - 1].key == k ? m - 1 : m;
            else
                for (j = 0; j < m && v[j].key != k; j++)
                    ;
            if (j == m) {
                v[m].key = k;
                v[m].uid = steps[s].total.uid;
                v[m++].elapsed_s = NAN;
            }
            add_step(&v[j], &steps[s], batch, end - i > 1);
            /* The job's own finding, with its last step. */
            if (s == end - 1) {
                v[j].findings[GOV_FINDING_TIME_OVERREQUESTED] +=
                    (advice.findings >> GOV_FINDING_TIME_OVERREQUESTED) & 1u;
                v[j].advice = advice;
            }
        }
    }
    for (size_t j = 0; j < m; j++) {
        v[j].cpu_eff = v[j].cpu_asked_s > 0 ? v[j].cpu_s / v[j].cpu_asked_s : NAN;
        v[j].mem_eff = v[j].mem_asked_s > 0 ? v[j].mem_used_s / v[j].mem_asked_s : NAN;
        gov__fmt_user_cached(&users, v[j].uid, names, v[j].name, sizeof v[j].name);
    }
    gov__fmt_users_free(&users);
    qsort_r(v, m, sizeof *v, by_key, &key);
    *count = m;
    return v;
}

static void put_head(FILE *f, gov_report_by by)
{
    if (by == GOV_REPORT_BY_JOB)
        fprintf(f, "%-10s %-12s %6s %9s %11s %8s %8s %5s  %s\n", "JOB", "USER", "STEPS",
                "ELAPSED", "CPU_H_ASKED", "CPU_EFF", "MEM_EFF", "OOM", "FINDINGS");
    else
        fprintf(f, "%-12s %6s %11s %8s %8s %5s  %s\n", "USER", "STEPS", "CPU_H_ASKED", "CPU_EFF",
                "MEM_EFF", "OOM", "FINDINGS");
}

static void put_group(FILE *f, const group_sum *g, gov_report_by by)
{
    char ce[16], me[16], el[32];
    bool any = false;

    gov__fmt_percent(g->cpu_eff, ce, sizeof ce);
    gov__fmt_percent(g->mem_eff, me, sizeof me);
    if (by == GOV_REPORT_BY_JOB) {
        gov__fmt_seconds(g->elapsed_s, el, sizeof el);
        fprintf(f, "%-10llu %-12s %6llu %9s ", (unsigned long long)g->key, g->name,
                (unsigned long long)g->steps, el);
    } else {
        fprintf(f, "%-12s %6llu ", g->name, (unsigned long long)g->steps);
    }
    fprintf(f, "%11.2f %8s %8s %5llu  ", g->cpu_asked_s / 3600, ce, me,
            (unsigned long long)g->oom_kills);
    for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++) {
        if (!g->findings[fi])
            continue;
        fprintf(f, "%s%s:%llu", any ? "," : "", gov__finding_name((gov_finding)fi),
                (unsigned long long)g->findings[fi]);
        any = true;
    }
    fprintf(f, any ? "\n" : "-\n");
}

/* One group as a JSON object; a figure JSON cannot hold (a record's at its
 * extremes: seconds near 0 under much CPU time) is null. */
static void put_group_json(gov_jw *w, const group_sum *g, gov_report_by by)
{
    gov__jw_object_begin(w, NULL);
    if (by == GOV_REPORT_BY_JOB)
        gov__jw_u64(w, "job", g->key);
    gov__jw_u64(w, "uid", g->uid);
    gov__jw_string(w, "user", g->name);
    gov__jw_u64(w, "steps", g->steps);
    if (by == GOV_REPORT_BY_JOB)
        gov__jw_fixed(w, "elapsed_s", g->elapsed_s, 3);
    gov__jw_fixed(w, "cpu_s", g->cpu_s, 3);
    gov__jw_fixed(w, "cpu_asked_s", g->cpu_asked_s, 3);
    gov__jw_fixed(w, "cpu_efficiency", g->cpu_eff, 4);
    gov__jw_fixed(w, "memory_efficiency", g->mem_eff, 4);
    gov__jw_u64(w, "oom_kills", g->oom_kills);
    gov__jw_object_begin(w, "findings");
    for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++)
        if (g->findings[fi])
            gov__jw_u64(w, gov__finding_name((gov_finding)fi), g->findings[fi]);
    gov__jw_object_end(w);
    if (by == GOV_REPORT_BY_JOB) {
        /* Per node, as a user asks: null where nothing differs. */
        gov__jw_object_begin(w, "suggest");
        gov__jw_u64(w, "memory_mib", g->advice.mem_mib);
        gov__jw_u64(w, "memory_more_than_mib", g->advice.mem_more_than_mib);
        gov__jw_u64(w, "cpus", g->advice.cpus);
        gov__jw_u64(w, "time_min", g->advice.time_min);
        gov__jw_object_end(w);
    }
    gov__jw_object_end(w);
}

int gov__report_groups(FILE *f, const gov_report_step *steps, size_t n, gov_report_by by,
                       bool names, gov_report_sort key, bool json)
{
    size_t m;
    group_sum *v = sum_groups(steps, n, by, names, key, &m);
    gov_jw w;
    int rc = 0;

    if (!v)
        return GOV_ENOMEM;
    if (!json) {
        bool header = false;
        put_head(f, by);
        for (size_t j = 0; j < m; j++)
            put_group(f, &v[j], by);
        for (size_t j = 0; by == GOV_REPORT_BY_JOB && j < m; j++)
            gov__report_advice_lines(f, &v[j].advice, &header);
        free(v);
        return 0;
    }
    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema",
                   by == GOV_REPORT_BY_JOB ? "governor.report-jobs/1" : "governor.report-users/1");
    gov__jw_array_begin(&w, by == GOV_REPORT_BY_JOB ? "jobs" : "users");
    for (size_t j = 0; j < m && !rc; j++) {
        put_group_json(&w, &v[j], by);
        rc = gov__jw_flush(&w, f);
    }
    gov__jw_array_end(&w);
    gov__jw_object_end(&w);
    free(v);
    return gov__report_print_json(f, &w, rc);
}
