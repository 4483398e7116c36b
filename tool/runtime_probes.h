/* runtime_probes.h - the runtimes `governor doctor --runtimes` asks, one row
 * each: how to start the runtime's own probe and what each of its answers
 * is (runtime_probes.c).  A new runtime is one row. */
#ifndef GOV_RUNTIME_PROBES_H
#define GOV_RUNTIME_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gov_probe_unit {
    GOV_PROBE_THREADS,   /* threads or workers: wanted equal to the budget */
    GOV_PROBE_BYTES,     /* a memory limit: wanted within the budget */
} gov_probe_unit;

/* One decision of a runtime: the key its probe prints it under. */
typedef struct gov_probe_decision {
    const char *key;
    const char *what;    /* as its users know it: "GOMAXPROCS" */
    gov_probe_unit unit;
    const char *why;     /* why a governed figure can still differ, and the fix */
} gov_probe_decision;

#define GOV_PROBE_DECISIONS_MAX 3
#define GOV_PROBE_ARGS_MAX 6

typedef struct gov_runtime_probe {
    const char *id;      /* JSON's "runtime" */
    const char *name;    /* to people */
    /* The runtime's own program, found on PATH as the user's command
     * would be; NULL: file, a probe built for it (tool/probes/), in the
     * probe directory. */
    const char *program;
    const char *file;
    const char *args[GOV_PROBE_ARGS_MAX];  /* after the program, NULL ended */
    /* Rewrites a runtime's own output into key=value lines (NULL: the
     * probe prints them).  A probe prints "absent=MODULE" when the module
     * it asks through is not installed. */
    void (*translate)(const char *text, char *buf, size_t cap);
    gov_probe_decision decisions[GOV_PROBE_DECISIONS_MAX];
} gov_runtime_probe;

/* One figure a probe printed under a key. */
typedef struct gov_probe_figure {
    enum {
        GOV_PROBE_NONE_GIVEN,  /* no such key, or not a count above 0 */
        GOV_PROBE_VALUE,       /* v */
        GOV_PROBE_UNLIMITED,   /* "none": no limit of its own */
        GOV_PROBE_ABSENT,      /* "absent": what it is asked through is missing */
    } kind;
    uint64_t v;
} gov_probe_figure;

/* The value of the first line of text that starts "key=", into val (cut
 * to cap); false when there is none. */
bool gov__probe_answer(const char *text, const char *key, char *val, size_t cap);

/* The figure under key in text. */
gov_probe_figure gov__probe_figure(const char *text, const char *key);

extern const gov_runtime_probe gov__runtime_probes[];
extern const size_t gov__runtime_probe_count;

#endif
