/*
 * plan.h - the planner's internals (plan.c; gov_plan is public) that other
 * verbs share.
 */
#ifndef GOV_PLAN_H
#define GOV_PLAN_H

#include "governor.h"

/* This process's share of a memory figure v: a step's memory on a node (and
 * the cgroup Slurm puts around it) is shared by the step's local tasks,
 * unless it was allocated per task (per-CPU memory) and that figure binds.
 * v itself where it is not shared or not known to be. */
uint64_t gov__memory_task_share(const gov_snapshot *s, uint64_t v);

#endif /* GOV_PLAN_H */
