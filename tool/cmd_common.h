/* cmd_common.h - what the tool's verbs share: option parsing helpers and
 * human formatting of quantities. */
#ifndef GOV_CMD_COMMON_H
#define GOV_CMD_COMMON_H

#include "fmt.h"
#include "governor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Options every snapshot-based verb accepts. */
typedef struct gov_cmd_opts {
    bool json;
    const char *sysroot;
    bool require_descriptor;   /* strict mode: GOV_OPT_REQUIRE_DESCRIPTOR */
} gov_cmd_opts;

/* An option of a verb's own at argv[*i]: 1 consumed (with its value,
 * *i moved past it), 0 not its option, -1 usage error (message printed). */
typedef int (*gov_cmd_arg_fn)(int argc, char **argv, int *i, void *ctx);

/* Parse argv: the common options (--json, --sysroot DIR,
 * --require-descriptor) into o, the verb's own into ctx through extra
 * (NULL: none), --help.  Returns -1 to go on, else the exit status to
 * return at once (GOV_EXIT_OK after --help, GOV_EXIT_USAGE after a usage
 * error: an unknown option with the usage printed, a bad value, strict
 * mode with a sysroot). */
int gov__cmd_parse(int argc, char **argv, const char *verb, void (*usage)(FILE *f),
                   gov_cmd_opts *o, gov_cmd_arg_fn extra, void *ctx);

/* Print a rendered JSON text (rc from its renderer) on one line and free
 * it.  *text is read only after the renderer ran: argument evaluation order
 * would otherwise make a plain pointer argument unreliable.  Returns
 * GOV_EXIT_OK, or GOV_EXIT_FAILED with a message when rendering failed. */
int gov__cmd_put_json(int rc, char **text);

/* The library options the common options ask for. */
void gov__cmd_options(const gov_cmd_opts *o, gov_options *out);

/* Say why creating a context or capturing failed (rc); in strict mode,
 * why the descriptor was not accepted (snap may be NULL). */
void gov__cmd_capture_error(const gov_cmd_opts *o, int rc, const gov_snapshot *snap);

/* Create a context for o and capture one snapshot.  Returns GOV_EXIT_OK,
 * or GOV_EXIT_FAILED with a message. */
int gov__cmd_capture(const gov_cmd_opts *o, gov_snapshot *snap);

/* Consume "NAME VALUE" or "NAME=VALUE" at argv[*i] (gov_cmd_arg_fn's
 * contract); a missing value prints "NAME needs WHAT". */
int gov__cmd_value_arg(int argc, char **argv, int *i, const char *name, const char *what,
                       const char **value);

/* The same for a count from 1 to 1000000; a bad one is a usage error. */
int gov__cmd_count_arg(int argc, char **argv, int *i, const char *name, uint64_t *out);

/* The plan's shape, as plan and run take it: --workers N or --workers numa,
 * --per-core. */
typedef struct gov_cmd_shape {
    uint64_t workers;       /* 0: one process */
    unsigned plan_flags;    /* GOV_PLAN_* */
} gov_cmd_shape;

/* One shape option at argv[*i], with gov_cmd_arg_fn's contract. */
int gov__cmd_shape_arg(int argc, char **argv, int *i, gov_cmd_shape *s);

/* The message for a plan that cannot have the shape asked (GOV_ENOENT of
 * GOV_PLAN_WORKERS_NUMA), on standard error. */
void gov__cmd_shape_error(const char *verb, const gov_snapshot *snap);

/* The lines verify and snapshot print about a container: how the verified
 * descriptor came, what its binding could not check, the namespaces the
 * process has of its own (nothing outside a container). */
void gov__cmd_print_container(const gov_snapshot_descriptor *d);

/* A plan's memory per worker: "512.0 MiB, 480.3 MiB of it free", or
 * "unknown". */
void gov__fmt_plan_memory(const gov_plan *p, char *buf, size_t cap);

/* The cgroup's memory.high as the snapshot and doctor print it: a size,
 * "none" (v2 without a finite one), "n/a" (v1 has none) or "unknown". */
void gov__fmt_memory_high(const gov_snapshot *s, char *buf, size_t cap);

/* What the plan keeps back, "1 thread and 50.0 MiB (profile interactive,
 * ...)", a figure of 0 left out; false (buf untouched) when it keeps
 * nothing. */
bool gov__fmt_plan_reserve(const gov_snapshot *s, const gov_plan *p, char *buf, size_t cap);

#endif
