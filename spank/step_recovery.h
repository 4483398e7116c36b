/*
 * step_recovery.h - what root still owes a step whose slurmstepd ends
 * before the step does: its descriptor file removed, its record written
 * (step_recovery.c), noted at the step's start, finished by the job's
 * epilog.
 */
#ifndef GOV_SPANK_STEP_RECOVERY_H
#define GOV_SPANK_STEP_RECOVERY_H

#include <stdint.h>
#include <slurm/spank.h>

#include "handoff.h"
#include "parse.h"
#include "report_gather.h"

/* The step's note on this node. */
typedef struct gov_recovery {
    bool on;                 /* a note was written and stands */
    bool cgroups_noted;
    char node[64], step[16];
    uint64_t job;
    char file[64];           /* the descriptor file's name in run_dir/steps */
} gov_recovery;

/* init_post_opt, after the hand-off and the report's start: note the
 * step's file and the record as it stands, where it has either. */
void gov__recovery_begin(gov_recovery *rc, const gov_spank_policy *site,
                         const gov_handoff *h, const gov_report *report,
                         const gov_descriptor *step);

/* task_post_fork, once the step's cgroups are known: note them too. */
void gov__recovery_cgroups(gov_recovery *rc, const gov_spank_policy *site,
                           const gov_report *report, const gov_descriptor *step);

/* exit: the step ended with its slurmstepd; the note goes. */
void gov__recovery_end(gov_recovery *rc, const gov_spank_policy *site);

/* The job's epilog (slurm_spank_job_epilog, root): finish every note the
 * job left on this node (SLURMD_NODENAME): remove its file, write its
 * record marked recovered.  Logged; never fails the epilog. */
void gov__recovery_job(const gov_spank_policy *site, uint64_t job);

#endif /* GOV_SPANK_STEP_RECOVERY_H */
