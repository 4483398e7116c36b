/* probe_child.h - run one runtime probe as a child, bounded in time, and
 * keep what it printed (governor doctor --runtimes). */
#ifndef GOV_PROBE_CHILD_H
#define GOV_PROBE_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a probe printed is short: a few key=value lines, or the first of
 * a runtime's own (the JVM's flags) that are read. */
#define GOV_PROBE_OUTPUT_MAX 65536

typedef struct gov_probe_output {
    char text[GOV_PROBE_OUTPUT_MAX]; /* standard output and error, NUL ended, cut */
    size_t len;
    int status;        /* exit status; 128 + N after signal N; -1 not started */
    bool timed_out;    /* killed at the deadline, with its process group */
    uint64_t ms;       /* wall time, milliseconds */
} gov_probe_output;

/* Start argv[0] (looked up on PATH) with the current environment, standard
 * input from /dev/null and both outputs into out->text, in a process group
 * of its own; wait at most timeout_ms, then kill the group.  Returns 0, or
 * a negative errno-style code when it could not be started (out->status
 * -1). */
int gov__probe_child_run(char *const argv[], unsigned timeout_ms, gov_probe_output *out);

/* Whether NAME is an executable file on PATH (a NAME with a slash: that
 * file). */
bool gov__probe_child_found(const char *name);

#endif
