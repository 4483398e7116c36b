/* report_steps.c - `governor report`'s records grouped into steps, each
 * with its total over its nodes (report.h). */
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

static uint64_t max_u64(uint64_t a, uint64_t b)
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

    *t = s->nodes[0];
    strcpy(t->node, "all");
    t->findings = 0;
    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        t->findings |= r->findings;
        cpu_time += r->budget_cpus == GOV_UNKNOWN ? NAN : r->elapsed_s * (double)r->budget_cpus;
        if (!k)
            continue;
        t->start = r->start < t->start ? r->start : t->start;
        t->elapsed_s = fmax(t->elapsed_s, r->elapsed_s);
        t->tasks = sum_u64(t->tasks, r->tasks);
        t->budget_cpus = sum_u64(t->budget_cpus, r->budget_cpus);
        t->budget_memory_bytes = sum_u64(t->budget_memory_bytes, r->budget_memory_bytes);
        t->budget_gpus = sum_u64(t->budget_gpus, r->budget_gpus);
        t->told_tasks += r->told_tasks;
        t->told_threads = max_u64(t->told_threads, r->told_threads);
        t->told_memory_bytes = max_u64(t->told_memory_bytes, r->told_memory_bytes);
        t->cpu_s += r->cpu_s;
        t->cpu_from_cgroup = t->cpu_from_cgroup && r->cpu_from_cgroup;
        t->memory_peak_bytes = sum_u64(t->memory_peak_bytes, r->memory_peak_bytes);
        t->oom_kills = sum_u64(t->oom_kills, r->oom_kills);
        t->cpu_throttled_s += r->cpu_throttled_s;
        t->cpu_some_s += r->cpu_some_s;
        t->memory_some_s += r->memory_some_s;
        t->memory_full_s += r->memory_full_s;
    }
    t->cpu_efficiency = cpu_time > 0 ? t->cpu_s / cpu_time : NAN;
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
