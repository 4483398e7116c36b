/* cmd_common.h - what the tool's verbs share: option parsing helpers and
 * human formatting of quantities. */
#ifndef GOV_CMD_COMMON_H
#define GOV_CMD_COMMON_H

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

/* Consume --json / --sysroot DIR / --require-descriptor at argv[*i];
 * returns 1 when consumed, 0 when not one of them, -1 (message printed)
 * when --sysroot lacks its value. */
int gov_cmd_common_arg(int argc, char **argv, int *i, gov_cmd_opts *o);

/* An option of a verb's own at argv[*i], with gov_cmd_common_arg()'s
 * contract: 1 consumed, 0 not its option, -1 usage error (printed). */
typedef int (*gov_cmd_arg_fn)(int argc, char **argv, int *i, void *ctx);

/* Parse argv into o, and into ctx through extra (NULL: the common options
 * only).  Returns -1 to go on, else the exit status to return at once
 * (GOV_EXIT_OK after --help, GOV_EXIT_USAGE after a usage error, with the
 * usage printed). */
int gov_cmd_parse(int argc, char **argv, const char *verb, void (*usage)(FILE *f),
                  gov_cmd_opts *o, gov_cmd_arg_fn extra, void *ctx);

/* Print a rendered JSON text (rc from its renderer) on one line and free
 * it.  *text is read only after the renderer ran: argument evaluation order
 * would otherwise make a plain pointer argument unreliable.  Returns
 * GOV_EXIT_OK, or GOV_EXIT_FAILED with a message when rendering failed. */
int gov_cmd_put_json(int rc, char **text);

/* The library options the common options ask for. */
void gov_cmd_options(const gov_cmd_opts *o, gov_options *out);

/* Say why creating a context or capturing failed (rc); in strict mode,
 * why the descriptor was not accepted (snap may be NULL). */
void gov_cmd_capture_error(const gov_cmd_opts *o, int rc, const gov_snapshot *snap);

/* Create a context for o and capture one snapshot.  Returns GOV_EXIT_OK,
 * or GOV_EXIT_FAILED with a message. */
int gov_cmd_capture(const gov_cmd_opts *o, gov_snapshot *snap);

/* Parse a positive decimal count for option `name`; prints a message. */
int gov_cmd_parse_count(const char *name, const char *text, uint64_t *out);

/* Consume "NAME N" or "NAME=N" at argv[*i] as a count: 1 when consumed,
 * 0 when argv[*i] is another option, -1 (message printed) when the value is
 * missing or bad. */
int gov_cmd_count_arg(int argc, char **argv, int *i, const char *name, uint64_t *out);

/* "1.5 GiB", "-" for GOV_UNKNOWN. */
void gov_fmt_bytes(uint64_t v, char *buf, size_t cap);
/* "12", "-" for GOV_UNKNOWN. */
void gov_fmt_count(uint64_t v, char *buf, size_t cap);

/* A plan's memory per worker: "512.0 MiB, 480.3 MiB of it free", or
 * "unknown". */
void gov_fmt_plan_memory(const gov_plan *p, char *buf, size_t cap);

#endif
