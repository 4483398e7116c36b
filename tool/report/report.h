/* report.h - `governor report`: the steps read from the record files
 * (cmd_report.c), grouped (report_steps.c), and their three renderings
 * (report_render.c). */
#ifndef GOV_TOOL_REPORT_H
#define GOV_TOOL_REPORT_H

#include "base.h"
#include "step_report.h"

#include <stdio.h>

/* One step of one job: a record per node, and their total (node "all"):
 * elapsed the longest, start the earliest, counts and CPU time summed (a
 * sum with an unknown part is unknown), memory peak the sum of the nodes'
 * peaks, told the largest, findings the union, CPU efficiency over the sum
 * of each node's elapsed time its CPUs, memory efficiency the working sets'
 * sum over the budgets' sum (unknown when a node's is). */
typedef struct gov_report_step {
    gov_step_record total;
    gov_step_record *nodes;
    size_t n;
} gov_report_step;

/* The larger of two counts, either GOV_UNKNOWN (the other then). */
uint64_t gov__report_larger(uint64_t a, uint64_t b);

/* Reads one file's records: 0, or an error code (it said why). */
typedef int (*gov_report_reader)(FILE *in, const char *name, void *arg);
/* The records of one FILE argument (report_files.c): the file, "-" for
 * standard input, or a directory: its steps.jsonl, and with since (Unix
 * seconds; 0: none) the rotated copies beside it last written at or after
 * then, compressed or not.  Each file through fn.  Returns 0 or an error
 * code (said on stderr, with the path: the admin's own argument). */
int gov__report_read_arg(const char *arg, uint64_t since, gov_report_reader fn, void *fn_arg);

/* The report directory of this machine's Slurm setup (report_config.c):
 * report=DIR on the plugstack line that loads governor.so, the plugstack
 * file named by slurm.conf ($SLURM_CONF, else /etc/slurm/slurm.conf), its
 * includes followed.  The plugstack file read goes into plugstack.
 * Returns 0, GOV_ENOENT (no such key, or no file) or GOV_ENOSPC. */
int gov__report_configured_dir(char *dir, size_t cap, char *plugstack, size_t pcap);

/* Sort the *nv records v by job, step, node and start, drop exact repeats
 * (a file given twice, a rotated copy beside its original; counted into
 * *duplicates, *nv lowered), and cut them into steps (room for *nv), each
 * pointing into v.  Returns the number of steps. */
size_t gov__report_group(gov_step_record *v, size_t *nv, gov_report_step *steps,
                         size_t *duplicates);

/* The order of the steps (--sort): job (and step), start, elapsed (the
 * longest first), cpu_eff and mem_eff (the least efficient first, unknown
 * last), user (by uid, then job). */
typedef enum gov_report_sort {
    GOV_REPORT_SORT_JOB,
    GOV_REPORT_SORT_START,
    GOV_REPORT_SORT_ELAPSED,
    GOV_REPORT_SORT_CPU_EFF,
    GOV_REPORT_SORT_MEM_EFF,
    GOV_REPORT_SORT_USER,
    GOV_REPORT_SORT_COUNT
} gov_report_sort;

/* The key named name; GOV_REPORT_SORT_COUNT when none is. */
gov_report_sort gov__report_sort_from_name(const char *name);
/* Sort steps[0..n) by key, each step by its total. */
void gov__report_sort(gov_report_step *steps, size_t n, gov_report_sort key);

/* user_names: the user's name where this machine knows the uid (false:
 * the uid, as the fuzz target renders). */
void gov__report_table(FILE *f, const gov_report_step *steps, size_t n, bool user_names);
/* What one job should ask Slurm for next time, per node (report_advice.c,
 * docs/admin-guide.md "Suggestions"): at most one suggestion per kind of
 * resource, never one equal to the request.  Figures GOV_UNKNOWN (NAN)
 * where unknown or where no suggestion is made. */
typedef struct gov_job_advice {
    uint64_t job;
    uint32_t findings;          /* each finding with a line (bit 1u << f) */
    uint32_t seen;              /* the steps' findings it rests on */
    char step[GOV_FINDING_COUNT][16];  /* the step each finding is from */
    uint64_t mem_asked, cpus_asked, time_limit_s;  /* the job's, a node */
    uint64_t peak;              /* the largest peak of any step's node */
    uint64_t killed_at;         /* an OOM-killed step's limit (or peak) */
    uint64_t near;              /* the largest working set near its limit */
    bool near_is_peak;          /* near is a peak: no working set recorded */
    bool has_batch;
    size_t steps;               /* the job's steps with a record */
    double cpus_busy, elapsed_s;   /* the busiest step's; the job's run */
    /* The suggestions: --mem=M (MiB), "more than --mem=M", CPUs a node,
     * --time=MIN. */
    uint64_t mem_mib, mem_more_than_mib, cpus, time_min;
} gov_job_advice;

/* steps[0..n): one job's steps, job order. */
void gov__report_job_advice(const gov_report_step *steps, size_t n, gov_job_advice *out);
/* The suggestions of every job under the table, in job order whatever
 * order steps are in.  Returns 0 or GOV_ENOMEM. */
int gov__report_advice(FILE *f, const gov_report_step *steps, size_t n);
/* One job's lines, "JOB FINDING SUGGESTION", after a blank line and that
 * header the first time (*header false). */
void gov__report_advice_lines(FILE *f, const gov_job_advice *a, bool *header);
/* --by (report_groups.c): the table or JSON of the steps summed per user,
 * or one line per job with its batch step folded in, sorted by key
 * (cpu_eff and mem_eff the least efficient first, elapsed the longest
 * first, user by name; any other key by uid or job).  steps in
 * gov__report_sort's job order, so that a job's steps are together.
 * Returns 0 or GOV_ENOMEM. */
typedef enum gov_report_by { GOV_REPORT_BY_USER, GOV_REPORT_BY_JOB } gov_report_by;
int gov__report_groups(FILE *f, const gov_report_step *steps, size_t n, gov_report_by by,
                       bool user_names, gov_report_sort key, bool json);
/* Returns 0 or GOV_ENOSPC (a record does not encode). */
int gov__report_json(FILE *f, const gov_report_step *steps, size_t n);
/* Print w's document and a newline unless rc (returned) or w failed. */
int gov__report_print_json(FILE *f, gov_jw *w, int rc);
void gov__report_prometheus(FILE *f, const gov_report_step *steps, size_t n);

#endif
