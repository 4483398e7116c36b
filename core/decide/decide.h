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

/* ==== knobs.c ===========================================================
 * the one list of environment variables through which runtimes learn
 * their CPU and memory budget (docs/runtimes.md): one row per knob, with
 * everything about it.  `governor run` and the plugin's --governor=threads
 * and runtimes (spank/environment.c) decide them through runenv.c; the man
 * pages' lists are made from it at build time (docs/man/knob_lists.c).
 */

/* How a knob's figure is written. */
typedef enum gov_knob_format {
    GOV_KNOB_DECIMAL,
    GOV_KNOB_HEX,          /* .NET's settings: hexadecimal, no prefix */
} gov_knob_format;

/* Spellings of one option a user may give, ours among them. */
#define GOV_SPELLINGS_MAX 4

typedef struct gov_knob {
    const char *name;      /* the environment variable */
    const char *option;    /* the option inside it, NULL for a plain value */
    const char *runtime;   /* who reads it, from which version */
    bool cpu;              /* a count of CPUs (the plan's threads), else a
                              memory figure (the share per worker) */
    /* The figure for threads and share (0: nothing useful to set), written
     * in format with unit after it; *planned gets the threads or bytes it
     * stands for. */
    uint64_t (*figure)(uint64_t threads, uint64_t share, uint64_t *planned);
    const char *unit;      /* NULL: none */
    gov_knob_format format;
    bool same_word;        /* the value only as OPTION=VALUE (the JVM's) */
    /* The other spellings of the option a user may give (NULL ended), and
     * from which of them on (0: none) a spelling sizes the JVM's heap
     * itself. */
    const char *spellings[GOV_SPELLINGS_MAX];
    size_t heap_from;
    bool own_default;      /* figure 0: the runtime's own default is as large */
    /* A user's figure in the knob's setting (which: the spelling found, 0
     * ours), in threads or bytes; GOV_UNKNOWN when it is not a number. */
    uint64_t (*user)(size_t which, const char *v, size_t n, uint64_t share);
    /* What the runtime reads for itself where that is what we would set
     * (then nothing needs setting), GOV_UNKNOWN otherwise; NULL: it reads
     * nothing of its own. */
    uint64_t (*sees)(const gov_snapshot *s, uint64_t threads, uint64_t share);
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

/* Every variable gov_runenv_compute() reads, each once (the knobs', the
 * markers' and SLURM_LOCALID), into names; returns how many (at most cap are written).  The
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
