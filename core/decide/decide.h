/*
 * decide.h - what follows from a snapshot: the runtimes' variables (knobs),
 * the host reserve and the plan.
 * One header for the room (core/decide/); each section names its file.
 */
#ifndef GOV_DECIDE_H
#define GOV_DECIDE_H

#include "governor.h"

#include <stddef.h>
#include <stdint.h>

/* ==== knobs.c ===========================================================
 * the one list of environment variables through which runtimes
 * learn their CPU and memory budget (docs/runtimes.md).  `governor run`
 * (runenv.c) and the plugin's --governor=threads (spank/handoff.c) both use
 * it.  knobs.c depends on nothing, so the hwloc-free plugin links it.
 */
typedef enum gov_knob_kind {
    GOV_KNOB_THREADS,     /* a CPU or thread count: the plan's threads */
    GOV_KNOB_IO_THREADS,  /* libuv's pool: the threads, never below its default */
    GOV_KNOB_GO_MEMLIMIT, /* GOMEMLIMIT */
    GOV_KNOB_NODE_HEAP,   /* --max-old-space-size in NODE_OPTIONS */
    GOV_KNOB_NODE_YOUNG,  /* --max-semi-space-size in NODE_OPTIONS */
    GOV_KNOB_JAVA_CPUS,   /* -XX:ActiveProcessorCount in JAVA_TOOL_OPTIONS */
    GOV_KNOB_JAVA_RAM,    /* -XX:MaxRAM in JAVA_TOOL_OPTIONS */
    GOV_KNOB_JAVA_HEAP,   /* -XX:MaxRAMPercentage in JAVA_TOOL_OPTIONS */
} gov_knob_kind;

typedef struct gov_knob {
    const char *name;     /* the environment variable */
    const char *option;   /* the option inside it, NULL for a plain value */
    gov_knob_kind kind;
    const char *runtime;  /* who reads it, from which version */
} gov_knob;

/* Record the thread count and the memory share (bytes) last exported, so
 * that a later step or run tells its own inherited values (a batch
 * script's, say) from the user's. */
#define GOV_THREADS_ENV "GOVERNOR_THREADS"
#define GOV_MEMORY_ENV "GOVERNOR_MEMORY_SHARE"
/* Where a narrowed mask starts: the one input that differs between the
 * tasks of a step. */
#define GOV_LOCALID_ENV "SLURM_LOCALID"

extern const gov_knob gov__knobs[];
extern const size_t gov__knob_count;

/* True for the knobs that carry a count of threads (not JAVA_TOOL_OPTIONS's
 * option, which also counts CPUs). */
int gov__knob_is_cpu(const gov_knob *k);

/* Every variable gov_runenv_compute() reads, each once (the knobs', the
 * markers' and SLURM_LOCALID), into names; returns how many (at most cap are written).  The
 * plugin reads exactly these from a task's environment. */
size_t gov__runenv_inputs(const char **names, size_t cap);

/* The value a CPU-count knob gets for n threads of one process. */
uint64_t gov__knob_threads(const gov_knob *k, uint64_t n);

/* ==== reserve.c =========================================================
 * what the profile in force and the reserves keep back from
 * a step's budget (docs/governor.md, "Budget" and "Profiles").  The planner
 * and the governor both start from it, so that `governor plan`, `governor
 * run` and `governor watch` keep the same back.
 */
typedef struct gov_reserve {
    gov_profile profile;       /* the profile in force */
    uint64_t detected_ram;     /* min(physical, effective limit); GOV_UNKNOWN */
    uint64_t detected_threads; /* effective workers, else host PUs; GOV_UNKNOWN */
    uint64_t ram;              /* bytes kept back (0 when detected is unknown) */
    uint64_t threads;          /* threads kept back */
} gov_reserve;

/* The smaller of two bounds where both are known, else the known one;
 * GOV_UNKNOWN when neither is. */
uint64_t gov__min_known(uint64_t a, uint64_t b);

/* The site's profile and reserves from snap->policy, tightened by the
 * caller's (NULL: none).  Never fails. */
void gov__reserve_compute(const gov_snapshot *snap, const gov_policy *caller,
                          gov_reserve *out);

/* ==== plan.c ============================================================
 * the planner's internals (plan.c; gov_plan is public) that other
 * verbs share.
 */
/* This process's share of a memory figure v: a step's memory on a node (and
 * the cgroup Slurm puts around it) is shared by the step's local tasks,
 * unless it was allocated per task (per-CPU memory) and that figure binds.
 * v itself where it is not shared or not known to be. */
uint64_t gov__memory_task_share(const gov_snapshot *s, uint64_t v);

#endif /* GOV_DECIDE_H */
