/* json_write.h - the one JSON writer (json_write.c), small and
 * append-only, over core's text writer (text.h): under every renderer of
 * the library (runtime/json/render.h) and the step report's record
 * (core/report/step_report.c), which the plugin writes.  Errors are
 * sticky: after a failure every call is a no-op and gov__jw_finish() (or
 * gov__jw_length()) reports it. */
#ifndef GOV_JSON_WRITE_H
#define GOV_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "governor.h"
#include "text.h"

#define GOV_JW_MAX_DEPTH 16

typedef struct gov_jw {
    gov_text_buf out;
    int err;    /* GOV_ERANGE: nested deeper than GOV_JW_MAX_DEPTH */
    int depth;
    bool first[GOV_JW_MAX_DEPTH]; /* no member written yet at this depth */
} gov_jw;

/* A writer whose text grows as needed (malloc'd). */
void gov__jw_init(gov_jw *w);
/* Hand the text to the caller (malloc'd) or free it on error. */
int gov__jw_finish(gov_jw *w, char **out, size_t *len);
/* A writer into the caller's buf[0..cap): nothing is allocated. */
void gov__jw_init_fixed(gov_jw *w, char *buf, size_t cap);
/* The bytes written so far, or the sticky error (GOV_ENOSPC: past cap). */
int gov__jw_length(const gov_jw *w);

void gov__jw_object_begin(gov_jw *w, const char *key); /* key NULL at top */
void gov__jw_object_end(gov_jw *w);
/* Members of an array take key NULL. */
void gov__jw_array_begin(gov_jw *w, const char *key);
void gov__jw_array_end(gov_jw *w);
void gov__jw_string(gov_jw *w, const char *key, const char *value); /* NULL -> null */
void gov__jw_null(gov_jw *w, const char *key);
void gov__jw_bool(gov_jw *w, const char *key, bool value);
void gov__jw_int(gov_jw *w, const char *key, int64_t value);
/* GOV_UNKNOWN -> null */
void gov__jw_u64(gov_jw *w, const char *key, uint64_t value);
/* NaN or infinity -> null */
void gov__jw_double(gov_jw *w, const char *key, double value);
/* With exactly places decimals ("%.*f"); NaN or infinity -> null. */
void gov__jw_fixed(gov_jw *w, const char *key, double value, int places);
/* A value encoded elsewhere (json[0..len), one valid JSON value),
 * written as it is: a step record inside `governor report --json`. */
void gov__jw_raw(gov_jw *w, const char *key, const char *json, size_t len);
/* A CPU set as a Linux CPU list string (null when it cannot be formatted). */
void gov__jw_cpuset(gov_jw *w, const char *key, const gov_cpuset *set);

#endif /* GOV_JSON_WRITE_H */
