/*
 * slurmenv.h - Slurm's facts as slurmstepd states them in the task's
 * environment, and the parsers of their values (slurmenv.c); a verified
 * descriptor fills the same struct (runtime/collect/descriptor_collect.c).
 */
#ifndef GOV_SLURMENV_H
#define GOV_SLURMENV_H

#include "governor.h"

#include <stdbool.h>
#include <stddef.h>


/* Slurm's step ids (slurm.h, part of its protocol and the same in 22.05 and
 * 24.11), kept here so that the runtime and the plugin's parsers need no
 * Slurm header. */
#define GOV_STEP_MAX_NORMAL_ID UINT64_C(0xfffffff0)
#define GOV_STEP_INTERACTIVE_ID UINT64_C(0xfffffffa)
#define GOV_STEP_BATCH_ID UINT64_C(0xfffffffb)
#define GOV_STEP_EXTERN_ID UINT64_C(0xfffffffc)

/* A step id as slurmstepd exports it (SLURM_STEP_ID): a decimal up to
 * 0xffffffff, or the same 32-bit id printed as a signed int.  Slurm 26.05
 * prints it with %d, so the pseudo ids arrive negative ("-6": the
 * interactive step); 22.05 and 24.11 print them unsigned or not at all.
 * Returns 0 or GOV_EPARSE. */
int gov__slurm_step_id_parse(const char *text, uint64_t *out);

/* The kind of a step id: normal up to GOV_STEP_MAX_NORMAL_ID, the batch,
 * extern and interactive pseudo ids, GOV_STEP_UNKNOWN for any other. */
gov_step_kind gov__step_kind_of(uint64_t step_id);

/* The source of a value the job's environment gave: ENVIRONMENT when it
 * is known, else NONE. */
gov_sched_source gov__sched_from_env(uint64_t value);

/* The scheduler part from the allowlisted SLURM_* names of envp
 * (NULL-terminated); source NONE without SLURM_JOB_ID. */
void gov__slurmenv_collect(const char *const *envp, gov_snapshot_scheduler *out);

/* Resolve a compressed Slurm count list ("1(x2),4") at index; index
 * GOV_UNKNOWN accepts only a uniform list.  Returns 0, GOV_EPARSE,
 * GOV_ERANGE (index past the list), GOV_ENOENT (not uniform, no index). */
int gov__slurm_list_resolve(const char *text, size_t len, uint64_t index,
                            uint64_t *out);

/* GPUs of the step on this node from slurmstepd's variables: the entries of
 * SLURM_STEP_GPUS ("0,1"; "" or "none": 0), else SLURM_GPUS_ON_NODE; at most
 * 1024, else GOV_UNKNOWN (any user can export either). */
uint64_t gov__slurm_gpus_on_node(const char *step_gpus, const char *gpus_on_node);

/* SLURM_GPUS_PER_TASK, "[type:]count" or a comma list of them ("a100:1,
 * v100:1"): the sum, at most 1024; GOV_UNKNOWN when malformed or NULL. */
uint64_t gov__slurm_gpus_per_task(const char *value);

/* Slurm memory quantity in MiB with an optional K/M/G/T suffix -> bytes. */
int gov__slurm_parse_mem(const char *text, size_t len, uint64_t *bytes);

#endif /* GOV_SLURMENV_H */
