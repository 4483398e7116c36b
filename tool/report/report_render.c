/* report_render.c - `governor report`'s table, JSON and Prometheus text
 * (docs/admin-guide.md, "The step report").  The table shows a step's
 * total row only when it ran on more than one node. */
#include "report.h"
#include "fmt.h"
#include "base.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void fmt_findings(uint32_t set, char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);

    for (unsigned f = 0; f < GOV_FINDING_COUNT; f++)
        if (set & (1u << f))
            gov__text_put(&o, "%s%s", o.used ? "," : "", gov__finding_name((gov_finding)f));
    if (!o.used)
        gov__text_put(&o, "-");
}

static void row(FILE *f, const gov_step_record *r, const char *node, bool names,
                gov_user_cache *users)
{
    char el[32], cpus[32], cpu[32], eff[16], wset[32], peak[32], budget[32], meff[16], oom[32],
        fin[200], user[64];

    gov__fmt_user_cached(users, r->uid, names, user, sizeof user);
    gov__fmt_seconds(r->elapsed_s, el, sizeof el);
    gov__fmt_count(r->budget_cpus, cpus, sizeof cpus);
    if (isnan(r->cpu_s))
        snprintf(cpu, sizeof cpu, "-");
    else
        snprintf(cpu, sizeof cpu, "%.2f", r->cpu_s);
    gov__fmt_percent(r->cpu_efficiency, eff, sizeof eff);
    gov__fmt_bytes(r->memory_working_set_bytes, wset, sizeof wset);
    gov__fmt_bytes(r->memory_peak_bytes, peak, sizeof peak);
    gov__fmt_bytes(r->budget_memory_bytes, budget, sizeof budget);
    gov__fmt_percent(r->memory_efficiency, meff, sizeof meff);
    gov__fmt_count(r->oom_kills, oom, sizeof oom);
    fmt_findings(r->findings, fin, sizeof fin);
    fprintf(f, "%-10llu %-12s %-10s %-12s %9s %5s %9s %7s %10s %10s / %-10s %7s %4s  %s\n",
            (unsigned long long)r->job, r->step, user, node, el, cpus, cpu, eff, wset, peak,
            budget, meff, oom, fin);
}

void gov__report_table(FILE *f, const gov_report_step *steps, size_t n, bool user_names)
{
    gov_user_cache users = { 0 };

    fprintf(f, "%-10s %-12s %-10s %-12s %9s %5s %9s %7s %10s %10s / %-10s %7s %4s  %s\n", "JOB",
            "STEP", "USER", "NODE", "ELAPSED", "CPUS", "CPU_S", "CPU_EFF", "MEM_WSET", "MEM_PEAK",
            "BUDGET", "MEM_EFF", "OOM", "FINDINGS");
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < steps[i].n; k++)
            row(f, &steps[i].nodes[k], steps[i].nodes[k].node, user_names, &users);
        if (steps[i].n > 1)
            row(f, &steps[i].total, "(total)", user_names, &users);
    }
    gov__fmt_users_free(&users);
}

/* A record as its line, without the newline. */
static int put_record(gov_jw *w, const char *key, const gov_step_record *r)
{
    char line[GOV_REPORT_LINE_MAX];
    int len = gov__step_record_encode(r, line, sizeof line);

    if (len < 0)
        return len;
    gov__jw_raw(w, key, line, (size_t)len - 1);
    return 0;
}

/* Print the document w holds, or its error. */
int gov__report_print_json(FILE *f, gov_jw *w, int rc)
{
    char *text = NULL;
    size_t len = 0;
    int done = gov__jw_finish(w, &text, &len);

    if (!rc && !done) {
        fwrite(text, 1, len, f);
        fputc('\n', f);
    }
    free(text);
    return rc ? rc : done;
}

int gov__report_json(FILE *f, const gov_report_step *steps, size_t n)
{
    gov_jw w;
    int rc = 0;

    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", "governor.report/1");
    gov__jw_array_begin(&w, "steps");
    for (size_t i = 0; i < n && !rc; i++) {
        gov__jw_object_begin(&w, NULL);
        gov__jw_u64(&w, "job", steps[i].total.job);
        gov__jw_string(&w, "step", steps[i].total.step);
        gov__jw_u64(&w, "uid", steps[i].total.uid);
        gov__jw_array_begin(&w, "nodes");
        for (size_t k = 0; k < steps[i].n && !rc; k++)
            rc = put_record(&w, NULL, &steps[i].nodes[k]);
        gov__jw_array_end(&w);
        if (!rc)
            rc = put_record(&w, "total", &steps[i].total);
        gov__jw_object_end(&w);
        /* A step at a time: a year's records need not fit in memory. */
        if (!rc)
            rc = gov__jw_flush(&w, f);
    }
    gov__jw_array_end(&w);
    gov__jw_object_end(&w);
    return gov__report_print_json(f, &w, rc);
}

/* ---- Prometheus' text format, as node_exporter's textfile collector
 * reads it: every metric a gauge of one sample per step and node. ------ */

typedef enum { M_U64, M_DOUBLE } mkind;

static const struct metric {
    const char *name, *help;
    mkind kind;
    size_t off;
} metrics[] = {
#define U(name, member, help) { name, help, M_U64, offsetof(gov_step_record, member) }
#define D(name, member, help) { name, help, M_DOUBLE, offsetof(gov_step_record, member) }
    D("governor_step_elapsed_seconds", elapsed_s, "Time from the step's start to its end on the node."),
    U("governor_step_time_limit_seconds", time_limit_s, "The job's time limit (Slurm 24.11 on)."),
    U("governor_step_tasks", tasks, "The step's tasks on the node."),
    U("governor_step_budget_cpus", budget_cpus, "CPUs sealed for the step on the node."),
    U("governor_step_budget_memory_bytes", budget_memory_bytes, "Memory sealed for the step on the node."),
    U("governor_step_budget_gpus", budget_gpus, "GPUs sealed for the step on the node."),
    D("governor_step_budget_gpu_share_ratio", budget_gpu_share, "The GPU grant's share of one GPU (1: whole GPUs)."),
    U("governor_step_budget_gpu_memory_bytes", budget_gpu_memory_bytes, "GPU memory the grant gives (a MIG profile's)."),
    D("governor_step_cpu_seconds", cpu_s, "CPU time the step used on the node."),
    D("governor_step_cpu_efficiency_ratio", cpu_efficiency, "CPU time over elapsed time times sealed CPUs."),
    U("governor_step_memory_peak_bytes", memory_peak_bytes, "The step's memory peak on the node, page cache included."),
    U("governor_step_memory_cache_bytes", memory_cache_bytes, "Reclaimable page cache the step held at its end."),
    U("governor_step_memory_working_set_bytes", memory_working_set_bytes, "The peak less the page cache held at the end."),
    D("governor_step_memory_efficiency_ratio", memory_efficiency, "Working set over sealed memory."),
    U("governor_step_memory_limit_bytes", memory_limit_bytes, "The step's hard memory limit at its end."),
    U("governor_step_oom_kills", oom_kills, "Processes of the step the kernel killed for memory."),
    D("governor_step_cpu_throttled_seconds", cpu_throttled_s, "Time a CPU quota held the step back."),
    D("governor_step_pressure_cpu_some_seconds", cpu_some_s, "PSI cpu some total."),
    D("governor_step_pressure_memory_some_seconds", memory_some_s, "PSI memory some total."),
    D("governor_step_pressure_memory_full_seconds", memory_full_s, "PSI memory full total."),
    U("governor_step_told_threads", told_threads, "Threads each task was told to use (the largest)."),
    U("governor_step_told_memory_bytes", told_memory_bytes, "Memory each task was told it may use (the largest)."),
#undef U
#undef D
};

/* slurm_job, not job: Prometheus sets job to the scrape job's name and
 * renames a target's own job label exported_job.  job itself stays for
 * one release (NEWS), with the same value.  Without the brace that closes
 * it: the finding's label follows. */
#define LABELS_MAX 160
static void labels_of(const gov_step_record *r, char *buf)
{
    snprintf(buf, LABELS_MAX, "{slurm_job=\"%llu\",step=\"%s\",node=\"%s\",uid=\"%llu\",job=\"%llu\"",
             (unsigned long long)r->job, r->step, r->node, (unsigned long long)r->uid,
             (unsigned long long)r->job);
}

/* Each record's labels, made once: every metric names them again. */
typedef struct label_set {
    char (*v)[LABELS_MAX];   /* one per record, in the steps' order; NULL: make each anew */
    char scratch[LABELS_MAX];
} label_set;

static const char *labels(label_set *ls, const gov_step_record *r, size_t index)
{
    if (ls->v)
        return ls->v[index];
    labels_of(r, ls->scratch);
    return ls->scratch;
}

void gov__report_prometheus(FILE *f, const gov_report_step *steps, size_t n)
{
    label_set ls = { NULL, "" };
    size_t records = 0, idx;

    for (size_t i = 0; i < n; i++)
        records += steps[i].n;
    if (records && (ls.v = malloc(records * sizeof *ls.v)))
        for (size_t i = 0, k = 0; i < n; i++)
            for (size_t j = 0; j < steps[i].n; j++)
                labels_of(&steps[i].nodes[j], ls.v[k++]);
    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
        fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", metrics[m].name, metrics[m].help,
                metrics[m].name);
        idx = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < steps[i].n; k++, idx++) {
                const gov_step_record *r = &steps[i].nodes[k];
                const void *at = (const char *)r + metrics[m].off;
                if (metrics[m].kind == M_U64 && *(const uint64_t *)at != GOV_UNKNOWN)
                    fprintf(f, "%s%s} %llu\n", metrics[m].name, labels(&ls, r, idx),
                            (unsigned long long)*(const uint64_t *)at);
                else if (metrics[m].kind == M_DOUBLE && !isnan(*(const double *)at))
                    fprintf(f, "%s%s} %.6g\n", metrics[m].name, labels(&ls, r, idx),
                            *(const double *)at);
            }
    }
    fprintf(f, "# HELP governor_step_finding A finding of the step on the node (docs: admin guide).\n"
               "# TYPE governor_step_finding gauge\n");
    idx = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < steps[i].n; k++, idx++)
            for (unsigned fi = 0; fi < GOV_FINDING_COUNT; fi++)
                if (steps[i].nodes[k].findings & (1u << fi))
                    fprintf(f, "governor_step_finding%s,finding=\"%s\"} 1\n",
                            labels(&ls, &steps[i].nodes[k], idx), gov__finding_name((gov_finding)fi));
    free(ls.v);
}
