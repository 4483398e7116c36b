/*
 * resolve.h - what follows from a snapshot alone (resolve.c;
 * gov_snapshot_resolve is public): the profile without a site policy and
 * the CPU layers that hold the process.
 */
#ifndef GOV_RESOLVE_H
#define GOV_RESOLVE_H

#include "governor.h"

/* The profile without a site policy (docs/governor.md "Profiles"): batch
 * inside a scheduler allocation, which is the job's own; the seed's
 * interactive outside any scheduler, where the host is shared. */
gov_profile gov__default_profile(const gov_snapshot *s);

/* The CPU layers that hold the process within its per-process bound
 * (.cpu.scheduler.cpus): bits (1u << GOV_LAYER_AFFINITY, _CPUSET, _QUOTA),
 * doctor.h's GOV_DOCTOR_HELD; 0 when none does or the bound is unknown. */
unsigned gov__cpu_held(const gov_snapshot *s);

#endif /* GOV_RESOLVE_H */
