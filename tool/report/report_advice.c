/* report_advice.c - what each job should ask Slurm for next time, from
 * its steps' records, in the terms a user asks: --mem and CPUs per node,
 * --time (docs/admin-guide.md, "Suggestions").  One suggestion per kind of
 * resource and job, so that a job's steps never contradict each other: the
 * memory a job needs is its hungriest step's, the CPUs its busiest step's.
 * A job's batch step waits on the job's steps by design: where the job has
 * other steps, its underuse is not the job's.  A suggestion equal to what
 * was asked is no suggestion and is left out. */
#include "report.h"
#include "fmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Room over the largest use seen: a rerun's input rarely matches to the
 * byte, and a working set estimated from the peak is not exact. */
#define MARGIN 1.2
/* Run times vary more from run to run than memory, and running out of time
 * loses the whole run. */
#define TIME_MARGIN 1.5
#define MIB (1024.0 * 1024.0)
/* No --mem below this is suggested: a rerun on a node whose page cache
 * lacks the program's files has them charged to its step. */
#define MEM_FLOOR_MIB 64

static const uint32_t underuse =
    (1u << GOV_FINDING_CPU_UNDERUSED) | (1u << GOV_FINDING_MEMORY_UNDERUSED);

static uint64_t ceil_mib(double bytes)
{
    return (uint64_t)ceil(bytes / MIB);
}

/* The --mem (MiB) that holds bytes with the margin. */
static uint64_t mem_ask(uint64_t bytes)
{
    uint64_t mib = ceil_mib((double)bytes * MARGIN);

    return mib < MEM_FLOOR_MIB ? MEM_FLOOR_MIB : mib;
}

static bool is_batch(const gov_report_step *s)
{
    return !strcmp(s->total.step, "batch");
}

/* The largest memory a node of the step shows: its working set (the peak
 * where a record has none, which *peak then says). */
static uint64_t step_memory(const gov_report_step *s, bool *peak)
{
    uint64_t m = GOV_UNKNOWN;

    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        bool ws = r->memory_working_set_bytes != GOV_UNKNOWN;
        *peak = *peak || !ws;
        m = gov__report_larger(m, ws ? r->memory_working_set_bytes : r->memory_peak_bytes);
    }
    return m;
}

/* What the kernel held an OOM-killed step to: its limit (the budget where
 * the record has none), or the peak where that is higher. */
static uint64_t step_killed_at(const gov_report_step *s)
{
    uint64_t m = GOV_UNKNOWN;

    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        m = gov__report_larger(m, r->memory_limit_bytes != GOV_UNKNOWN ? r->memory_limit_bytes
                                                                        : r->budget_memory_bytes);
        m = gov__report_larger(m, r->memory_peak_bytes);
    }
    return m;
}

/* The CPUs its busiest node kept busy. */
static double step_busy(const gov_report_step *s)
{
    double busy = NAN;

    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        if (!isnan(r->cpu_s) && r->elapsed_s > 0)
            busy = isnan(busy) ? r->cpu_s / r->elapsed_s : fmax(busy, r->cpu_s / r->elapsed_s);
    }
    return busy;
}

/* The figures of one step into the job's. */
static void gather(gov_job_advice *a, const gov_report_step *s, bool whole_job)
{
    uint32_t f = s->total.findings & (whole_job ? ~0u : ~underuse);
    bool peak = false;
    uint64_t mem = step_memory(s, &peak);

    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        a->mem_asked = gov__report_larger(a->mem_asked, r->budget_memory_bytes);
        a->cpus_asked = gov__report_larger(a->cpus_asked, r->budget_cpus);
        a->time_limit_s = gov__report_larger(a->time_limit_s, r->time_limit_s);
        a->peak = gov__report_larger(a->peak, r->memory_peak_bytes);
    }
    if ((f & (1u << GOV_FINDING_OOM_KILLED)) && step_killed_at(s) != GOV_UNKNOWN &&
        (a->killed_at == GOV_UNKNOWN || step_killed_at(s) > a->killed_at)) {
        a->killed_at = step_killed_at(s);
        strcpy(a->step[GOV_FINDING_OOM_KILLED], s->total.step);
    }
    if ((f & (1u << GOV_FINDING_MEMORY_NEAR_LIMIT)) && mem != GOV_UNKNOWN &&
        (a->near == GOV_UNKNOWN || mem > a->near)) {
        a->near = mem;
        a->near_is_peak = peak;
        strcpy(a->step[GOV_FINDING_MEMORY_NEAR_LIMIT], s->total.step);
    }
    /* A batch step's own CPU use says nothing where it waits on steps. */
    if (whole_job && !isnan(step_busy(s)))
        a->cpus_busy = isnan(a->cpus_busy) ? step_busy(s) : fmax(a->cpus_busy, step_busy(s));
    if (is_batch(s) || isnan(a->elapsed_s) || (!a->has_batch && s->total.elapsed_s > a->elapsed_s))
        a->elapsed_s = s->total.elapsed_s;
    a->has_batch = a->has_batch || is_batch(s);
    for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++)
        if ((f & (1u << fi)) && !a->step[fi][0])
            strcpy(a->step[fi], s->total.step);
    a->seen |= f;
}

/* From the figures gathered, the suggestions that differ from the request. */
static void decide(gov_job_advice *a)
{
    uint32_t seen = a->seen;
    uint64_t asked_mib = a->mem_asked == GOV_UNKNOWN ? GOV_UNKNOWN : ceil_mib((double)a->mem_asked);

    a->findings = seen & ~(underuse | (1u << GOV_FINDING_OOM_KILLED) |
                           (1u << GOV_FINDING_MEMORY_NEAR_LIMIT) |
                           (1u << GOV_FINDING_TIME_OVERREQUESTED));
    if (a->killed_at != GOV_UNKNOWN) {
        a->mem_more_than_mib = ceil_mib((double)a->killed_at);
        a->findings |= 1u << GOV_FINDING_OOM_KILLED;
    } else if (a->near != GOV_UNKNOWN) {
        a->mem_mib = mem_ask(a->near);
        if (asked_mib == GOV_UNKNOWN || a->mem_mib > asked_mib)
            a->findings |= 1u << GOV_FINDING_MEMORY_NEAR_LIMIT;
        else
            a->mem_mib = GOV_UNKNOWN;
    } else if ((seen & (1u << GOV_FINDING_MEMORY_UNDERUSED)) && a->peak != GOV_UNKNOWN &&
               asked_mib != GOV_UNKNOWN && mem_ask(a->peak) < asked_mib) {
        a->mem_mib = mem_ask(a->peak);
        a->findings |= 1u << GOV_FINDING_MEMORY_UNDERUSED;
    }
    if ((seen & (1u << GOV_FINDING_CPU_UNDERUSED)) && !isnan(a->cpus_busy) &&
        a->cpus_asked != GOV_UNKNOWN) {
        double want = fmax(1, ceil(a->cpus_busy * MARGIN));
        if (want < (double)a->cpus_asked) {
            a->cpus = (uint64_t)want;
            a->findings |= 1u << GOV_FINDING_CPU_UNDERUSED;
        }
    }
    /* Every job is judged here, not only one whose batch step was
     * governed: a job of one srun lasts as long as its step.  A job cut
     * short by its time limit or the OOM killer ran no full course. */
    if (!(seen & ((1u << GOV_FINDING_TIMEOUT) | (1u << GOV_FINDING_OOM_KILLED))) &&
        gov__time_overrequested(a->elapsed_s, a->time_limit_s)) {
        double want = fmax(1, ceil(a->elapsed_s * TIME_MARGIN / 60));
        if (want * 60 < (double)a->time_limit_s) {
            a->time_min = (uint64_t)want;
            a->findings |= 1u << GOV_FINDING_TIME_OVERREQUESTED;
        }
    }
}

void gov__report_job_advice(const gov_report_step *steps, size_t n, gov_job_advice *a)
{
    bool more = false;

    memset(a, 0, sizeof *a);
    a->job = n ? steps[0].total.job : GOV_UNKNOWN;
    a->mem_asked = a->cpus_asked = a->time_limit_s = a->peak = GOV_UNKNOWN;
    a->killed_at = a->near = a->mem_mib = a->mem_more_than_mib = GOV_UNKNOWN;
    a->cpus = a->time_min = GOV_UNKNOWN;
    a->cpus_busy = a->elapsed_s = NAN;
    a->steps = n;
    for (size_t i = 0; i < n; i++)
        more = more || !is_batch(&steps[i]);
    for (size_t i = 0; i < n; i++)
        gather(a, &steps[i], !(is_batch(&steps[i]) && more));
    decide(a);
}

static void put(FILE *f, const gov_job_advice *a, gov_finding fi, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* One line: the job, the finding, the step it comes from where it is one
 * step's of several, and the suggestion. */
static void put(FILE *f, const gov_job_advice *a, gov_finding fi, const char *fmt, ...)
{
    va_list ap;

    fprintf(f, "%-10llu %-18s ", (unsigned long long)a->job, gov__finding_name(fi));
    if (a->steps > 1 && fi != GOV_FINDING_MEMORY_UNDERUSED && fi != GOV_FINDING_CPU_UNDERUSED &&
        fi != GOV_FINDING_TIME_OVERREQUESTED)
        fprintf(f, "step %s: ", a->step[fi]);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

static void advise(FILE *f, const gov_job_advice *a, gov_finding fi)
{
    char used[32], asked[32], limit[32], elapsed[32];

    gov__fmt_bytes(a->mem_asked, asked, sizeof asked);
    switch (fi) {
    case GOV_FINDING_OOM_KILLED:
        gov__fmt_bytes(a->killed_at, used, sizeof used);
        put(f, a, fi, "killed for memory at %s a node: it needs more than --mem=%lluM (twice that: "
                      "--mem=%lluM)", used, (unsigned long long)a->mem_more_than_mib,
            (unsigned long long)a->mem_more_than_mib * 2);
        break;
    case GOV_FINDING_MEMORY_NEAR_LIMIT:
        gov__fmt_bytes(a->near, used, sizeof used);
        put(f, a, fi, "%s %s of %s a node: ask --mem=%lluM", a->near_is_peak ? "peak" : "working set",
            used, asked, (unsigned long long)a->mem_mib);
        break;
    case GOV_FINDING_MEMORY_UNDERUSED:   /* from the peak: it held everything */
        gov__fmt_bytes(a->peak, used, sizeof used);
        put(f, a, fi, "peak %s of %s a node: --mem=%lluM would do", used, asked,
            (unsigned long long)a->mem_mib);
        break;
    case GOV_FINDING_CPU_UNDERUSED:
        put(f, a, fi, "%.1f of %llu CPUs a node busy: %llu would do", a->cpus_busy,
            (unsigned long long)a->cpus_asked, (unsigned long long)a->cpus);
        break;
    case GOV_FINDING_TIME_OVERREQUESTED:
        gov__fmt_seconds(a->elapsed_s, elapsed, sizeof elapsed);
        gov__fmt_seconds((double)a->time_limit_s, limit, sizeof limit);
        put(f, a, fi, "ran %s of its %s limit: --time=%llu would do", elapsed, limit,
            (unsigned long long)a->time_min);
        break;
    case GOV_FINDING_TIMEOUT:
        gov__fmt_seconds((double)a->time_limit_s, limit, sizeof limit);
        put(f, a, fi, "its time limit%s%s ended it: ask more (--time), or checkpoint and resume",
            a->time_limit_s == GOV_UNKNOWN ? "" : " of ", a->time_limit_s == GOV_UNKNOWN ? "" : limit);
        break;
    case GOV_FINDING_THROTTLED:
        put(f, a, fi, "a CPU quota held it back: run fewer threads or ask more CPUs");
        break;
    case GOV_FINDING_STALLED:
        put(f, a, fi, "its tasks waited for memory: ask more (--mem) or use less at once");
        break;
    case GOV_FINDING_MEMORY_LOWERED:
        put(f, a, fi, "its memory was lowered below %s a node while it ran: runtimes sized at "
                      "start aimed above the new limit; start such programs again after a change",
            asked);
        break;
    case GOV_FINDING_STEPD_LOST:
        put(f, a, fi, "its slurmstepd ended before it did (on cgroup v1 it shares the step's "
                      "memory, so a step that fills %s a node, /dev/shm files included, kills "
                      "it): ask more (--mem), or keep tmpfs files small", asked);
        break;
    case GOV_FINDING_COUNT:
        break;
    }
}

int gov__report_advice(FILE *f, const gov_report_step *steps, size_t n)
{
    /* A job's steps together, whatever order the table took. */
    gov_report_step *v = malloc((n ? n : 1) * sizeof *v);
    bool header = false;

    if (!v)
        return GOV_ENOMEM;
    if (n)
        memcpy(v, steps, n * sizeof *v);
    gov__report_sort(v, n, GOV_REPORT_SORT_JOB);
    for (size_t i = 0, end; i < n; i = end) {
        gov_job_advice a;
        for (end = i; end < n && v[end].total.job == v[i].total.job; end++)
            ;
        gov__report_job_advice(&v[i], end - i, &a);
        gov__report_advice_lines(f, &a, &header);
    }
    free(v);
    return 0;
}

void gov__report_advice_lines(FILE *f, const gov_job_advice *a, bool *header)
{
    if (a->findings && !*header) {
        fprintf(f, "\n%-10s %-18s %s\n", "JOB", "FINDING", "SUGGESTION");
        *header = true;
    }
    for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++)
        if (a->findings & (1u << fi))
            advise(f, a, (gov_finding)fi);
}
