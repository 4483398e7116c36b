/* report_users.c - `governor report --by user`: the steps summed per user,
 * to answer who over-asks (docs/admin-guide.md, "Per user").  CPU
 * efficiency is CPU time over CPU time asked (elapsed x CPUs, each node);
 * memory efficiency is the working sets over the budgets, each weighted by
 * its node's elapsed time (memory held for an hour counts more than for a
 * second).  A node record lacking a figure leaves that sum. */
#define _GNU_SOURCE /* qsort_r */
#include "report.h"
#include "fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct user_sum {
    uint64_t uid, steps, oom_kills;
    double cpu_s, cpu_asked_s;          /* over the records that know both */
    double mem_used_s, mem_asked_s;     /* byte-seconds, the same way */
    double cpu_eff, mem_eff;
    uint64_t findings[GOV_FINDING_COUNT];
    char name[64];
} user_sum;

static void add_record(user_sum *u, const gov_step_record *r)
{
    if (!isnan(r->cpu_s) && r->elapsed_s > 0 && r->budget_cpus != GOV_UNKNOWN) {
        u->cpu_s += r->cpu_s;
        u->cpu_asked_s += r->elapsed_s * (double)r->budget_cpus;
    }
    if (r->memory_working_set_bytes != GOV_UNKNOWN && r->budget_memory_bytes != GOV_UNKNOWN &&
        r->elapsed_s > 0) {
        u->mem_used_s += (double)r->memory_working_set_bytes * r->elapsed_s;
        u->mem_asked_s += (double)r->budget_memory_bytes * r->elapsed_s;
    }
    if (r->oom_kills != GOV_UNKNOWN)
        u->oom_kills += r->oom_kills;
}

static int by_key(const void *a, const void *b, void *arg)
{
    const user_sum *x = a, *y = b;
    gov_report_sort sort_key = *(const gov_report_sort *)arg;
    double p = sort_key == GOV_REPORT_SORT_CPU_EFF ? x->cpu_eff : x->mem_eff;
    double q = sort_key == GOV_REPORT_SORT_CPU_EFF ? y->cpu_eff : y->mem_eff;

    if (sort_key == GOV_REPORT_SORT_CPU_EFF || sort_key == GOV_REPORT_SORT_MEM_EFF) {
        /* Least efficient first; unknown last. */
        if (isnan(p) != isnan(q))
            return isnan(p) ? 1 : -1;
        if (!isnan(p) && p != q)
            return p < q ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

/* The users of steps[0..n), summed, sorted; *count of them (malloc'd; NULL
 * with *count 0 when there are none or memory ran out). */
static user_sum *sum_users(const gov_report_step *steps, size_t n, bool names,
                           gov_report_sort key, size_t *count)
{
    user_sum *v = calloc(n ? n : 1, sizeof *v);
    size_t m = 0;

    *count = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        size_t j;
        for (j = 0; j < m && v[j].uid != steps[i].total.uid; j++)
            ;
        if (j == m)
            v[m++].uid = steps[i].total.uid;
        v[j].steps++;
        for (size_t k = 0; k < steps[i].n; k++)
            add_record(&v[j], &steps[i].nodes[k]);
        for (unsigned f = 0; f < GOV_FINDING_COUNT; f++)
            v[j].findings[f] += (steps[i].total.findings >> f) & 1u;
    }
    for (size_t j = 0; j < m; j++) {
        v[j].cpu_eff = v[j].cpu_asked_s > 0 ? v[j].cpu_s / v[j].cpu_asked_s : NAN;
        v[j].mem_eff = v[j].mem_asked_s > 0 ? v[j].mem_used_s / v[j].mem_asked_s : NAN;
        gov__fmt_user(v[j].uid, names, v[j].name, sizeof v[j].name);
    }
    qsort_r(v, m, sizeof *v, by_key, &key);
    *count = m;
    return v;
}

/* "NAME":value, with places decimals; null where the value is not a
 * number JSON can hold (a record's figures at their extremes: seconds
 * near 0 under much CPU time). */
static void put_number(FILE *f, const char *name, double v, int places)
{
    if (isfinite(v))
        fprintf(f, "\"%s\":%.*f,", name, places, v);
    else
        fprintf(f, "\"%s\":null,", name);
}

int gov__report_users(FILE *f, const gov_report_step *steps, size_t n, bool names,
                      gov_report_sort key, bool json)
{
    size_t m;
    user_sum *v = sum_users(steps, n, names, key, &m);

    if (!v)
        return GOV_ENOMEM;
    if (json)
        fprintf(f, "{\"schema\":\"governor.report-users/1\",\"users\":[");
    else
        fprintf(f, "%-12s %6s %11s %8s %8s %5s  %s\n", "USER", "STEPS", "CPU_H_ASKED", "CPU_EFF",
                "MEM_EFF", "OOM", "FINDINGS");
    for (size_t j = 0; j < m; j++) {
        const user_sum *u = &v[j];
        char ce[16], me[16];
        bool any = false;
        if (json) {
            fprintf(f, "%s{\"uid\":%llu,\"user\":\"%s\",\"steps\":%llu,", j ? "," : "",
                    (unsigned long long)u->uid, u->name, (unsigned long long)u->steps);
            put_number(f, "cpu_s", u->cpu_s, 3);
            put_number(f, "cpu_asked_s", u->cpu_asked_s, 3);
            put_number(f, "cpu_efficiency", u->cpu_eff, 4);
            put_number(f, "memory_efficiency", u->mem_eff, 4);
            fprintf(f, "\"oom_kills\":%llu,\"findings\":{", (unsigned long long)u->oom_kills);
        } else {
            gov__fmt_percent(u->cpu_eff, ce, sizeof ce);
            gov__fmt_percent(u->mem_eff, me, sizeof me);
            fprintf(f, "%-12s %6llu %11.2f %8s %8s %5llu  ", u->name,
                    (unsigned long long)u->steps, u->cpu_asked_s / 3600, ce, me,
                    (unsigned long long)u->oom_kills);
        }
        for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++) {
            if (!u->findings[fi])
                continue;
            fprintf(f, json ? "%s\"%s\":%llu" : "%s%s:%llu", any ? "," : "",
                    gov__finding_name((gov_finding)fi), (unsigned long long)u->findings[fi]);
            any = true;
        }
        fprintf(f, json ? "}}" : any ? "\n" : "-\n");
    }
    if (json)
        fprintf(f, "]}\n");
    free(v);
    return 0;
}
