/* report_advice.c - under `governor report`'s table, one suggestion per
 * finding of each step, in the terms a user asks Slurm for resources:
 * --mem and CPUs per node, with a margin over what the step used on its
 * busiest node (docs/admin-guide.md, "Suggestions"). */
#include "report.h"
#include "fmt.h"

#include <math.h>

/* Room over the largest use seen: a rerun's input rarely matches to the
 * byte, and a working set estimated from the peak is not exact. */
#define MARGIN 1.2
#define MIB (1024.0 * 1024.0)
/* No --mem below this is suggested: a rerun on a node whose page cache
 * lacks the program's files has them charged to its step. */
#define MEM_FLOOR_MIB 64

/* The step's busiest node: the largest working set (the peak where the
 * working set is unknown), peak, memory budget and CPUs kept busy. */
typedef struct busiest {
    uint64_t memory, peak_memory, budget_memory, budget_cpus;
    double cpus_busy;
    bool peak;      /* memory is a peak: a node's record has no working set */
} busiest;

static busiest busiest_node(const gov_report_step *s)
{
    busiest b = { GOV_UNKNOWN, GOV_UNKNOWN, GOV_UNKNOWN, GOV_UNKNOWN, NAN, false };

    for (size_t k = 0; k < s->n; k++) {
        const gov_step_record *r = &s->nodes[k];
        uint64_t used;
        b.peak = b.peak || r->memory_working_set_bytes == GOV_UNKNOWN;
        used = r->memory_working_set_bytes != GOV_UNKNOWN ? r->memory_working_set_bytes
                                                                   : r->memory_peak_bytes;
        b.memory = gov__report_larger(b.memory, used);
        b.peak_memory = gov__report_larger(b.peak_memory, r->memory_peak_bytes);
        b.budget_memory = gov__report_larger(b.budget_memory, r->budget_memory_bytes);
        b.budget_cpus = gov__report_larger(b.budget_cpus, r->budget_cpus);
        if (!isnan(r->cpu_s) && r->elapsed_s > 0)
            b.cpus_busy = isnan(b.cpus_busy) ? r->cpu_s / r->elapsed_s
                                             : fmax(b.cpus_busy, r->cpu_s / r->elapsed_s);
    }
    return b;
}

/* The --mem (MiB) that holds bytes with the margin. */
static unsigned long long mem_ask(uint64_t bytes)
{
    double mib = ceil((double)bytes * MARGIN / MIB);

    return mib < MEM_FLOOR_MIB ? MEM_FLOOR_MIB : (unsigned long long)mib;
}

static void advise(FILE *f, const gov_report_step *s, gov_finding fi, const busiest *b)
{
    char used[32], peak[32], budget[32];

    gov__fmt_bytes(b->memory, used, sizeof used);
    gov__fmt_bytes(b->peak_memory, peak, sizeof peak);
    gov__fmt_bytes(b->budget_memory, budget, sizeof budget);
    fprintf(f, "%-10llu %-12s %-18s ", (unsigned long long)s->total.job, s->total.step,
            gov__finding_name(fi));
    switch (fi) {
    case GOV_FINDING_OOM_KILLED:
        fprintf(f, "killed for memory with %s a node: ask more (--mem) or use less\n", budget);
        break;
    case GOV_FINDING_MEMORY_NEAR_LIMIT:
        fprintf(f, "%s %s of %s a node: ask --mem=%lluM\n", b->peak ? "peak" : "working set",
                used, budget, mem_ask(b->memory));
        break;
    case GOV_FINDING_MEMORY_UNDERUSED:   /* from the peak: it held everything */
        fprintf(f, "peak %s of %s a node: --mem=%lluM would do\n", peak, budget,
                mem_ask(b->peak_memory));
        break;
    case GOV_FINDING_CPU_UNDERUSED:
        if (isnan(b->cpus_busy) || b->budget_cpus == GOV_UNKNOWN)
            fprintf(f, "few of its CPUs were busy: ask fewer\n");
        else
            fprintf(f, "%.1f of %llu CPUs a node busy: %.0f would do\n", b->cpus_busy,
                    (unsigned long long)b->budget_cpus, fmax(1, ceil(b->cpus_busy * MARGIN)));
        break;
    case GOV_FINDING_THROTTLED:
        fprintf(f, "a CPU quota held it back: run fewer threads or ask more CPUs\n");
        break;
    case GOV_FINDING_STALLED:
        fprintf(f, "its tasks waited for memory: ask more (--mem) or use less at once\n");
        break;
    case GOV_FINDING_MEMORY_LOWERED:
        fprintf(f, "its memory was lowered below %s a node while it ran: runtimes sized at "
                "start aimed above the new limit; start such programs again after a change\n",
                budget);
        break;
    case GOV_FINDING_COUNT:
        break;
    }
}

void gov__report_advice(FILE *f, const gov_report_step *steps, size_t n)
{
    bool header = false;

    for (size_t i = 0; i < n; i++) {
        busiest b;
        if (!steps[i].total.findings)
            continue;
        if (!header) {
            fprintf(f, "\n%-10s %-12s %-18s %s\n", "JOB", "STEP", "FINDING", "SUGGESTION");
            header = true;
        }
        b = busiest_node(&steps[i]);
        for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++)
            if (steps[i].total.findings & (1u << fi))
                advise(f, &steps[i], (gov_finding)fi, &b);
    }
}
