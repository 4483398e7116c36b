/*
 * json_read.h - a strict reader of one JSON text (RFC 8259) into its
 * leaves, for the step report's records.  No allocation: the leaves point
 * into the text.
 */
#ifndef GOV_JSON_READ_H
#define GOV_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

typedef enum gov_json_type {
    GOV_JSON_NULL,
    GOV_JSON_BOOL,
    GOV_JSON_NUMBER,
    GOV_JSON_STRING,
} gov_json_type;

/* A scalar and where it sits: members joined by '.', array elements as
 * "[]" ("used.cpu_s", "findings[]").  A string's text is what lies between
 * its quotes, escapes as written (plain says there are none). */
typedef struct gov_json_leaf {
    char path[64];
    gov_json_type type;
    const char *text;
    size_t len;
    bool plain;
} gov_json_leaf;

/* Nesting deeper than this is refused. */
#define GOV_JSON_DEPTH_MAX 8

/* Read text[0..len) as one JSON value (white space around it allowed).
 * Returns the number of leaves (at most cap are stored), or GOV_EPARSE (not
 * JSON, nested too deep, a path past 63 bytes, more leaves than cap). */
int gov__json_leaves(const char *text, size_t len, gov_json_leaf *out, size_t cap);

#endif /* GOV_JSON_READ_H */
