/*
 * report_gather.h - the step report in slurmstepd (report_gather.c): with the plugstack
 * key report=DIR, one record per governed step on this node, appended to
 * DIR/steps.jsonl when its last task exits (docs/admin-guide.md).
 */
#ifndef GOV_SPANK_REPORT_GATHER_H
#define GOV_SPANK_REPORT_GATHER_H

#include <stdint.h>
#include <slurm/spank.h>
#include <sys/resource.h>
#include <time.h>

#include "descriptor.h"
#include "parse.h"
#include "step_report.h"

/* What one task's process tells the step's slurmstepd: a page shared
 * before the fork, written by the task before exec. */
typedef struct gov_report_slot {
    uint32_t sealed, told;
    uint64_t gpus, threads, memory_bytes;
    uint64_t job_start, job_end;   /* 0: not known in the task */
} gov_report_slot;

typedef struct gov_report {
    bool on;               /* a record is due for this step */
    bool have_cgroups;
    gov_step_cgroups cg;   /* from the first task, at its fork */
    struct timespec start; /* CLOCK_MONOTONIC */
    uint64_t start_wall;
    struct rusage base;    /* slurmstepd's reaped children before the step */
    uint64_t exited;
    gov_report_slot *slots;  /* one per local task, MAP_SHARED */
    size_t nslots;
} gov_report;

/* init_post_opt, for a governed step when report=DIR is set. */
void gov__report_begin(gov_report *r, const gov_descriptor *step);

/* task_post_fork: find the step's cgroups from the new task's; true when
 * they were found now (once a step). */
bool gov__report_task_forked(gov_report *r, spank_t sp);

/* In the task's process (task_init_privileged, task_init): that it holds
 * the step's descriptor, with the GPU grant sealed (counted where the
 * kernel confirms it), and what it was told, into its slot. */
void gov__report_sealed(const gov_report *r, spank_t sp, uint64_t grant);
void gov__report_told(const gov_report *r, spank_t sp, uint64_t threads, uint64_t memory_bytes);
/* task_init: the job's start and end time as slurmstepd put them into the
 * task's environment from the job's credential (Slurm 24.11 on; 22.05 has
 * none), into its slot. */
void gov__report_task_times(const gov_report *r, spank_t sp);

/* The record as it stands at the step's start (identity, start, tasks,
 * budget): what the pending note keeps (step_recovery.c). */
void gov__report_record_start(const gov_report *r, const gov_descriptor *step,
                              gov_step_record *rec);

/* task_exit: the last of the node's tasks writes the record. */
void gov__report_task_exited(gov_report *r, const gov_spank_policy *site,
                             const gov_descriptor *step);

/* exit: write the record if no last task did (a launch that failed), and
 * let go of the slots. */
void gov__report_end(gov_report *r, const gov_spank_policy *site, const gov_descriptor *step);

#endif /* GOV_SPANK_REPORT_GATHER_H */
