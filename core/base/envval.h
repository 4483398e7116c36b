/* envval.h - a variable of an environment ("NAME=value" array), and the
 * parsers of the values people give runtimes through it (thread counts,
 * GOMEMLIMIT, NODE_OPTIONS, JAVA_TOOL_OPTIONS), so that `governor run` and
 * the plugin can tell what a kept setting amounts to.  Outside text: each
 * parser takes (text, len) and has a fuzz target (tests/fuzz/). */
#ifndef GOV_ENVVAL_H
#define GOV_ENVVAL_H

#include <stddef.h>
#include <stdint.h>

/* NAME's value in envp (NULL-terminated), or NULL. */
const char *gov__env_get(const char *const *envp, const char *name);

/* The leading count of a thread variable: "4", or the first of a comma
 * list ("4,2": OpenMP's nesting levels, Julia's default and interactive
 * pools).  Returns 0, GOV_EPARSE (not a count: "auto", "default", "0"),
 * GOV_ERANGE. */
int gov__envval_count(const char *text, size_t len, uint64_t *out);

/* GOMEMLIMIT as Go reads it: a byte count with an optional B, KiB, MiB,
 * GiB or TiB suffix, or "off" (Go's no limit, INT64_MAX).  Returns 0,
 * GOV_EPARSE, GOV_ERANGE. */
int gov__envval_go_bytes(const char *text, size_t len, uint64_t *out);

/* A HotSpot size (-Xmx, -XX:MaxRAM): digits with an optional k, m, g or t
 * suffix in either case.  Returns 0, GOV_EPARSE, GOV_ERANGE. */
int gov__envval_java_size(const char *text, size_t len, uint64_t *out);

/* One option found in an option string. */
typedef struct gov_envval_option {
    size_t start, len;        /* the option's words in the text (name and value) */
    size_t value, value_len;  /* its value in the text */
    size_t which;             /* index of the name that matched */
} gov_envval_option;

/* Find the last option of an option string (NODE_OPTIONS,
 * JAVA_TOOL_OPTIONS: words separated by blanks, double quotes grouping)
 * whose word begins with one of names[0..n-1].  A name ending in '=' or a
 * JVM -X option takes its value in the same word; any other name takes
 * "NAME=VALUE" or "NAME VALUE" (the next word).  The last one wins, as in
 * Node and the JVM.  Returns 0, GOV_ENOENT. */
int gov__envval_find_option(const char *text, size_t len, const char *const *names, size_t n,
                            gov_envval_option *out);

#endif
