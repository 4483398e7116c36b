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

#include "parse.h"
#include "step_report.h"

/* The step's note on this node. */
typedef struct gov_recovery {
    bool on;                 /* a note was written and stands */
    bool cgroups_noted;
    char node[64], step[16];
    uint64_t job;
    char file[64];           /* the descriptor file's name in run_dir/steps */
} gov_recovery;

/* init_post_opt, after the hand-off and the report's start: note the
 * step's descriptor file (its path, "" for none) and, where a record is
 * owed, rec as it stands at the start (its identity names the note either
 * way), where there is either. */
void gov__recovery_begin(gov_recovery *rc, const gov_spank_policy *site, const char *file,
                         const gov_step_record *rec, bool owed);

/* task_post_fork, once the step's cgroups are known (the record is owed):
 * note them too, with rec as it stands. */
void gov__recovery_cgroups(gov_recovery *rc, const gov_spank_policy *site,
                           const gov_step_record *rec, const gov_step_cgroups *cg);

/* exit: the step ended with its slurmstepd; the note goes. */
void gov__recovery_end(gov_recovery *rc, const gov_spank_policy *site);

/* The job's epilog (slurm_spank_job_epilog, root): finish every note the
 * job left on this node (SLURMD_NODENAME): remove its file, write its
 * record marked recovered.  Logged; never fails the epilog. */
void gov__recovery_job(const gov_spank_policy *site, uint64_t job);

/* slurm_spank_job_epilog: the site's arguments (which slurmd's own init
 * logged if they do not parse) and the job's id, then gov__recovery_job. */
void gov__recovery_job_epilog(spank_t sp, int ac, char **av);

#endif /* GOV_SPANK_STEP_RECOVERY_H */
