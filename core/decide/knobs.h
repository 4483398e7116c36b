/* knobs.h - the one list of environment variables through which runtimes
 * learn their CPU and memory budget (docs/runtimes.md).  `governor run`
 * (runenv.c) and the plugin's --governor=threads (spank/handoff.c) both use
 * it.  knobs.c depends on nothing, so the hwloc-free plugin links it. */
#ifndef GOV_KNOBS_H
#define GOV_KNOBS_H

#include <stddef.h>
#include <stdint.h>

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

#endif
