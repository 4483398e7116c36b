/*
 * pressure_delegate.h - pressure triggers for a step's tasks (pressure=allow or on):
 * the PSI files of the cgroup v2 directory holding the step's tasks (the
 * one above task_N) made writable by the job's user, as
 * systemd delegates them to a service, and systemd's variables naming
 * them (core/evidence/evidence.h) in each task (pressure_delegate.c).
 */
#ifndef GOV_SPANK_PRESSURE_DELEGATE_H
#define GOV_SPANK_PRESSURE_DELEGATE_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"

/* Whether the step's tasks get triggers, and whether the first task's
 * fork gave the files away yet. */
typedef struct gov_pressure_handout {
    bool on;
    bool delegated;
} gov_pressure_handout;

/* In task_post_fork (slurmstepd, root), at the node's first task: give the
 * step's memory.pressure, cpu.pressure and io.pressure to the job's user.
 * Only on cgroup v2 and on Linux 6.5 or later, where the kernel holds an
 * unprivileged writer to windows of whole 2 s.  Failures are logged. */
void gov__pressure_delegate(spank_t sp, const gov_descriptor *step, gov_pressure_handout *p);

/* In task_init (as the user): set each PSI file's WATCH and WRITE pair
 * where the task may open the file read-write, unset the pair where it
 * may not (a value inherited from the batch step names another cgroup). */
void gov__pressure_task(spank_t sp, const gov_spank_policy *site, const gov_pressure_handout *p);

#endif /* GOV_SPANK_PRESSURE_DELEGATE_H */
