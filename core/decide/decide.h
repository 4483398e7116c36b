/*
 * decide.h - what follows from a snapshot: the runtimes' variables (knobs),
 * the host reserve and the plan.
 * One header for the room (core/decide/); each section names its file.
 */
#ifndef GOV_DECIDE_H
#define GOV_DECIDE_H

#include "governor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A mebibyte, the unit the memory knobs are figured in. */
#define GOV_MIB (UINT64_C(1) << 20)
/* A GPU share's unit: thousandths of one GPU. */
#define GOV_GPU_MILLI 1000

/* ==== knobs.c ===========================================================
 * the one list of environment variables through which runtimes learn
 * their CPU, memory and GPU memory budget (docs/runtimes.md): one row per
 * knob, with everything about it.  `governor run` and the plugin's --governor=threads
 * and runtimes (spank/environment.c) decide them through runenv.c; the man
 * pages' lists are made from it at build time (docs/man/knob_lists.c).
 */

/* What a knob's figure stands for. */
typedef enum gov_knob_kind {
    GOV_KNOB_CPU,          /* a count of CPUs: the plan's threads */
    GOV_KNOB_MEMORY,       /* a memory figure: the share per worker */
    GOV_KNOB_GPU,          /* GPU memory: the task's share of a shared GPU */
} gov_knob_kind;

/* How a knob's figure is written. */
typedef enum gov_knob_format {
    GOV_KNOB_DECIMAL,
    GOV_KNOB_HEX,          /* .NET's settings: hexadecimal, no prefix */
    GOV_KNOB_MILLI,        /* thousandths as a fraction: 187 is "0.187" */
    GOV_KNOB_TRUE,         /* the word "true" */
} gov_knob_format;

/* What every figure derives from: the plan's, and the GPU grant's. */
typedef struct gov_knob_basis {
    uint64_t threads;      /* the plan's threads per worker */
    uint64_t share;        /* memory per worker, bytes */
    uint64_t gpu_milli;    /* a shard's or an MPS client's share of its GPU,
                              thousandths (1-999); 0: no shared GPU */
    gov_gpu_share_kind gpu_kind;
    uint64_t gpu_memory;   /* the GPU memory of that share, bytes; GOV_UNKNOWN */
} gov_knob_basis;

/* Spellings of one option a user may give, ours among them. */
#define GOV_SPELLINGS_MAX 4
/* Other variables a runtime reads for one setting, and the end; a user's
 * value of also[i] reaches the knob's user() as which GOV_ALSO_WHICH + i. */
#define GOV_ALSO_MAX 4
#define GOV_ALSO_WHICH GOV_SPELLINGS_MAX

typedef struct gov_knob {
    const char *name;      /* the environment variable */
    const char *option;    /* the option inside it, NULL for a plain value */
    const char *runtime;   /* who reads it, from which version */
    gov_knob_kind kind;
    /* The figure for the basis, written in format with prefix before it
     * and unit after it, into *value; *planned gets the threads, bytes or
     * thousandths of a GPU it stands for (GOV_UNKNOWN: none).  Returns
     * GOV_RUNENV_PLANNED, or why there is nothing useful to set. */
    gov_runenv_reason (*figure)(const gov_knob_basis *b, uint64_t *value, uint64_t *planned);
    const char *prefix;    /* NULL: none */
    const char *unit;      /* NULL: none */
    gov_knob_format format;
    bool planned_bytes;    /* GPU knobs: planned counts bytes of GPU memory,
                              not thousandths of a GPU */
    bool same_word;        /* the value only as OPTION=VALUE (the JVM's) */
    /* The other spellings of the option a user may give (NULL ended), and
     * from which of them on (0: none) a spelling sizes the JVM's heap
     * itself. */
    const char *spellings[GOV_SPELLINGS_MAX];
    size_t heap_from;
    /* Other variables the runtime reads for the same setting (NULL
     * ended): one set by the user is theirs, and ours is never added
     * beside it. */
    const char *also[GOV_ALSO_MAX];
    /* A user's figure in the knob's setting (which: the spelling found, 0
     * ours), in the unit of planned; GOV_UNKNOWN when it is not a number. */
    uint64_t (*user)(size_t which, const char *v, size_t n, const gov_knob_basis *b);
    /* What the runtime reads for itself where that is what we would set
     * (then nothing needs setting), GOV_UNKNOWN otherwise; NULL: it reads
     * nothing of its own. */
    uint64_t (*sees)(const gov_snapshot *s, const gov_knob_basis *b);
} gov_knob;

/* Record the thread count, the memory share (bytes) and the GPU share
 * (a fraction, and its memory in bytes) last exported, so that a later
 * step or run tells its own inherited values (a batch script's, say) from
 * the user's. */
#define GOV_THREADS_ENV "GOVERNOR_THREADS"
#define GOV_MEMORY_ENV "GOVERNOR_MEMORY_SHARE"
#define GOV_GPU_SHARE_ENV "GOVERNOR_GPU_SHARE"
#define GOV_GPU_MEMORY_ENV "GOVERNOR_GPU_MEMORY"
/* Where a narrowed mask starts: the one input that differs between the
 * tasks of a step. */
#define GOV_LOCALID_ENV "SLURM_LOCALID"

extern const gov_knob gov__knobs[];
extern const size_t gov__knob_count;

/* Every variable gov_runenv_compute() reads, each once (the knobs', their
 * other names, the markers' and SLURM_LOCALID), into names; returns how many (at most cap are written).  The
 * plugin reads exactly these from a task's environment. */
size_t gov__runenv_inputs(const char **names, size_t cap);

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
