/* report_steps.c - `governor report`'s records grouped into steps, each
 * with its total over its nodes (report.h). */
#define _GNU_SOURCE /* qsort_r */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_step_node(const void *a, const void *b)
{
    const gov_step_record *x = a, *y = b;
    int c;

    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    if ((c = strcmp(x->step, y->step)))
        return c;
    if ((c = strcmp(x->node, y->node)))
        return c;
    return x->start < y->start ? -1 : x->start > y->start;
}

static uint64_t sum_u64(uint64_t a, uint64_t b)
{
    return a == GOV_UNKNOWN || b == GOV_UNKNOWN ? GOV_UNKNOWN : a + b;
}

uint64_t gov__report_larger(uint64_t a, uint64_t b)
{
    if (a == GOV_UNKNOWN)
        return b;
    return b == GOV_UNKNOWN || a > b ? a : b;
}

/* The step's total over its nodes (report.h). */
static void total(gov_report_step *s)
{
    gov_step_record *t = &s->total;
    double cpu_time = 0;   /* the sum of elapsed x CPUs */
    uint64_t mem_budget = 0, wset = 0;  /* over the nodes that know both */

    *t = s->nodes[0];
    strcpy(t->node, "all");
    t->findings = 0;
    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        t->findings |= r->findings;
        cpu_time += r->budget_cpus == GOV_UNKNOWN ? NAN : r->elapsed_s * (double)r->budget_cpus;
        if (isnan(r->memory_efficiency))
            mem_budget = GOV_UNKNOWN;
        else if (mem_budget != GOV_UNKNOWN) {
            mem_budget += r->budget_memory_bytes;
            wset += r->memory_working_set_bytes;
        }
        if (!k)
            continue;
        t->start = r->start < t->start ? r->start : t->start;
        t->elapsed_s = fmax(t->elapsed_s, r->elapsed_s);
        t->tasks = sum_u64(t->tasks, r->tasks);
        t->budget_cpus = sum_u64(t->budget_cpus, r->budget_cpus);
        t->budget_memory_bytes = sum_u64(t->budget_memory_bytes, r->budget_memory_bytes);
        t->budget_gpus = sum_u64(t->budget_gpus, r->budget_gpus);
        t->told_tasks += r->told_tasks;
        t->told_threads = gov__report_larger(t->told_threads, r->told_threads);
        t->told_memory_bytes = gov__report_larger(t->told_memory_bytes, r->told_memory_bytes);
        t->cpu_s += r->cpu_s;
        t->cpu_from_cgroup = t->cpu_from_cgroup && r->cpu_from_cgroup;
        t->memory_peak_bytes = sum_u64(t->memory_peak_bytes, r->memory_peak_bytes);
        t->memory_cache_bytes = sum_u64(t->memory_cache_bytes, r->memory_cache_bytes);
        t->memory_working_set_bytes =
            sum_u64(t->memory_working_set_bytes, r->memory_working_set_bytes);
        t->oom_kills = sum_u64(t->oom_kills, r->oom_kills);
        t->cpu_throttled_s += r->cpu_throttled_s;
        t->cpu_some_s += r->cpu_some_s;
        t->memory_some_s += r->memory_some_s;
        t->memory_full_s += r->memory_full_s;
    }
    t->cpu_efficiency = cpu_time > 0 ? t->cpu_s / cpu_time : NAN;
    t->memory_efficiency = mem_budget != GOV_UNKNOWN && mem_budget ? (double)wset / (double)mem_budget
                                                                   : NAN;
}

size_t gov__report_group(gov_step_record *v, size_t *nv, gov_report_step *steps,
                         size_t *duplicates)
{
    size_t n = 0, w = 0;

    if (*nv)   /* qsort's array must not be NULL, even empty */
        qsort(v, *nv, sizeof *v, by_step_node);
    for (size_t i = 0; i < *nv; i++) {
        if (w && !by_step_node(&v[w - 1], &v[i])) {
            (*duplicates)++;
            continue;
        }
        v[w++] = v[i];
    }
    *nv = w;
    for (size_t i = 0; i < w; i++) {
        if (n && steps[n - 1].total.job == v[i].job && !strcmp(steps[n - 1].nodes[0].step, v[i].step)) {
            steps[n - 1].n++;
            continue;
        }
        steps[n].nodes = &v[i];
        steps[n].n = 1;
        steps[n].total.job = v[i].job;
        n++;
    }
    for (size_t i = 0; i < n; i++)
        total(&steps[i]);
    return n;
}

static const char *const sort_names[GOV_REPORT_SORT_COUNT] = {
    "job", "start", "elapsed", "cpu_eff", "mem_eff", "user",
};

gov_report_sort gov__report_sort_from_name(const char *name)
{
    for (unsigned k = 0; k < GOV_REPORT_SORT_COUNT; k++)
        if (!strcmp(sort_names[k], name))
            return (gov_report_sort)k;
    return GOV_REPORT_SORT_COUNT;
}

/* Least first, unknown (NaN) last. */
static int by_ratio(double p, double q)
{
    if (isnan(p) != isnan(q))
        return isnan(p) ? 1 : -1;
    return isnan(p) || p == q ? 0 : p < q ? -1 : 1;
}

static int by_key(const void *a, const void *b, void *arg)
{
    const gov_step_record *x = &((const gov_report_step *)a)->total;
    const gov_step_record *y = &((const gov_report_step *)b)->total;
    int c = 0;

    switch (*(const gov_report_sort *)arg) {
    case GOV_REPORT_SORT_START:
        c = x->start < y->start ? -1 : x->start > y->start;
        break;
    case GOV_REPORT_SORT_ELAPSED:   /* the longest first, unknown last */
        c = isnan(x->elapsed_s) != isnan(y->elapsed_s) ? (isnan(x->elapsed_s) ? 1 : -1)
                                                        : -by_ratio(x->elapsed_s, y->elapsed_s);
        break;
    case GOV_REPORT_SORT_CPU_EFF:
        c = by_ratio(x->cpu_efficiency, y->cpu_efficiency);
        break;
    case GOV_REPORT_SORT_MEM_EFF:
        c = by_ratio(x->memory_efficiency, y->memory_efficiency);
        break;
    case GOV_REPORT_SORT_USER:
        c = x->uid < y->uid ? -1 : x->uid > y->uid;
        break;
    case GOV_REPORT_SORT_JOB:
    case GOV_REPORT_SORT_COUNT:
        break;
    }
    if (c)
        return c;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    return strcmp(x->step, y->step);
}

void gov__report_sort(gov_report_step *steps, size_t n, gov_report_sort key)
{
    if (n)
        qsort_r(steps, n, sizeof *steps, by_key, &key);
}
