/*
 * step_report.h - the step report (docs/admin-guide.md, "The step report"):
 * one record per governed step and node, written by the plugin at the
 * step's end and read by `governor report`.  The record (encode, decode),
 * the findings and their rules (step_report.c), the figures of a step's
 * cgroups (step_usage.c) and the JSON reader the tool uses (json_read.c).
 */
#ifndef GOV_STEP_REPORT_H
#define GOV_STEP_REPORT_H

#include "governor.h"
#include "evidence.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GOV_REPORT_SCHEMA "governor.step-report/1"
#define GOV_REPORT_FILE "steps.jsonl"
/* A record is one line of at most this many bytes, newline included. */
#define GOV_REPORT_LINE_MAX 2048
/* Steps shorter than this get no rate finding (cpu_underused, throttled,
 * stalled): too short to judge.  The plugstack key report_min_s. */
#define GOV_REPORT_MIN_S_DEFAULT 60

/* Every finding: enumerator, name in the record, what it means, in the
 * names idiom (base.h): the enum, the names both ways and the texts come
 * from this one list. */
#define GOV_FINDING_LIST(X)                                                                   \
    X(GOV_FINDING_OOM_KILLED, "oom_killed",                                                   \
      "the kernel killed a process of the step for memory")                                   \
    X(GOV_FINDING_MEMORY_NEAR_LIMIT, "memory_near_limit",                                     \
      "the working set peaked at 90 % or more of the step's sealed memory")                   \
    X(GOV_FINDING_MEMORY_UNDERUSED, "memory_underused",                                       \
      "memory, page cache included, peaked below a quarter of the step's sealed memory")      \
    X(GOV_FINDING_CPU_UNDERUSED, "cpu_underused",                                             \
      "the step used less than a quarter of its sealed CPUs over its run")                    \
    X(GOV_FINDING_THROTTLED, "throttled",                                                     \
      "a CPU quota held the step back for 10 % or more of its run")                           \
    X(GOV_FINDING_STALLED, "stalled",                                                         \
      "tasks waited for memory (PSI some) for 10 % or more of the run")                       \
    X(GOV_FINDING_MEMORY_LOWERED, "memory_lowered",                                           \
      "the kernel's memory limit at the step's end was below its sealed memory")              \
    X(GOV_FINDING_TIMEOUT, "timeout",                                                         \
      "the step ran until the job's time limit ended it")                                     \
    X(GOV_FINDING_TIME_OVERREQUESTED, "time_overrequested",                                   \
      "the job ran less than a quarter of its time limit")                                    \
    X(GOV_FINDING_STEPD_LOST, "stepd_lost",                                                   \
      "the step's slurmstepd ended before the step did; the job's epilog wrote the record")

typedef enum gov_finding {
    GOV_FINDING_LIST(GOV_ENUM_MEMBER_)
    GOV_FINDING_COUNT
} gov_finding;

/* The finding's name in records, its text; NULL out of range. */
const char *gov__finding_name(gov_finding f);
const char *gov__finding_text(gov_finding f);
/* The finding named name[0..len); GOV_FINDING_COUNT when none is. */
gov_finding gov__finding_from_name(const char *name, size_t len);

/* Unknown figures: GOV_UNKNOWN for counts, NAN for seconds and ratios. */
typedef struct gov_step_record {
    uint64_t job, uid;
    char step[16];           /* "0", "batch", "interactive" */
    char node[64];           /* Slurm's node name: [A-Za-z0-9._-] only */
    uint64_t start;          /* Unix seconds at the step's start here */
    double elapsed_s;
    /* The job's time limit and the Unix time it ends, as slurmstepd has
     * them from the job's credential (Slurm 24.11 on: SLURM_JOB_START_TIME
     * and SLURM_JOB_END_TIME in each task); unknown on 22.05 and for a job
     * without a limit. */
    uint64_t time_limit_s, job_end;
    uint64_t tasks;          /* the step's tasks on this node */
    uint64_t budget_cpus, budget_memory_bytes, budget_gpus;
    /* The GPU grant's share of one GPU (a shard's, an MPS client's: 0.25;
     * whole GPUs and MIG instances 1), and the GPU memory it gives where
     * the grant says it (a MIG profile's), as sealed; NAN and GOV_UNKNOWN
     * where unknown. */
    double budget_gpu_share;
    uint64_t budget_gpu_memory_bytes;
    /* What the plugin told the tasks (--governor=runtimes, threads):
     * told_tasks of them; threads and memory_bytes the largest any was
     * told.  told_tasks 0: the plugin told nothing. */
    uint64_t told_tasks, told_threads, told_memory_bytes;
    double cpu_s, cpu_efficiency;
    bool cpu_from_cgroup;    /* else from the tasks' rusage */
    /* The kernel's peak (page cache included, as the limit counts it), the
     * reclaimable page cache the step still held at its end, and what the
     * judge derives: the working set, the peak less that cache (docs/
     * admin-guide.md, "Memory: peak and working set"), over the budget. */
    uint64_t memory_peak_bytes, memory_cache_bytes, memory_working_set_bytes;
    double memory_efficiency;
    /* The step cgroup's hard limit at its end (v2 memory.max, v1
     * memory.limit_in_bytes): below the budget when the job's memory was
     * lowered while it ran (Slurm 26.05) or AllowedRAMSpace is under 100. */
    uint64_t memory_limit_bytes;
    uint64_t oom_kills;
    double cpu_throttled_s, cpu_some_s, memory_some_s, memory_full_s;
    /* Written by the job's epilog for a step whose slurmstepd ended first:
     * its end and what its tasks were told are not known. */
    bool recovered;
    uint32_t findings;       /* bit (1u << gov_finding) */
} gov_step_record;

/* Every figure unknown, no finding. */
void gov__step_record_init(gov_step_record *r);

/* Set cpu_efficiency, the memory working set and efficiency, and findings
 * from the figures, by the rules of docs/admin-guide.md; min_s is
 * report_min_s.  time_overrequested is judged here only for the batch and
 * interactive steps, which last as long as their job; governor report
 * judges every job by gov__time_overrequested. */
void gov__step_record_judge(gov_step_record *r, uint64_t min_s);

/* A job that ran elapsed_s of its limit_s used less than a quarter of it. */
bool gov__time_overrequested(double elapsed_s, uint64_t limit_s);

/* One line (newline included, NUL-terminated) into buf.  Returns its
 * length, or GOV_ENOSPC, GOV_EINVAL (a name with another character). */
int gov__step_record_encode(const gov_step_record *r, char *buf, size_t cap);

/* Parse one line (without its newline).  Returns 0, GOV_EVERSION (another
 * schema) or GOV_EPARSE (not JSON, or not a record). */
int gov__step_record_decode(const char *text, size_t len, gov_step_record *r);

/* ---- a step's cgroups (step_usage.c) ----------------------------------- */

/* A step's cgroup directories (absolute, under the root), from one of its
 * tasks: the parent of the task's own cgroup ("task_N") in each hierarchy.
 * "" where there is none. */
typedef struct gov_step_cgroups {
    int version;             /* 2, 1, or 0: none found */
    char dir[1024];          /* v2: the step's directory; v1: memory */
    char cpuacct[1024];      /* v1 cpuacct ("cpu,cpuacct"), "" if none */
} gov_step_cgroups;

/* From a task's /proc/PID/cgroup and the mount table, as
 * gov__cg_read_texts_of() reads them (evidence.h).  Returns 0 or
 * GOV_ENOENT (the task is not in a task_N cgroup of a mounted hierarchy
 * that carries memory). */
struct gov_cg_text;
int gov__step_cgroups_find(const gov_root *root, const struct gov_cg_text *t,
                           gov_step_cgroups *out);

/* The same for a live process, from its cgroup file ("/proc/PID/cgroup",
 * "/proc/self/cgroup") and the live mount table: what slurmstepd reads of
 * its tasks (the step report, pressure triggers). */
int gov__step_cgroups_of(const char *proc_cgroup, gov_step_cgroups *out);

/* Read the step's CPU time, memory peak and the page cache it still holds,
 * OOM kills, throttling and PSI totals into r (unknown where a file is missing); the tasks must have
 * exited for the figures to be final. */
void gov__step_usage_read(const gov_root *root, const gov_step_cgroups *cg, gov_step_record *r);


#endif /* GOV_STEP_REPORT_H */
