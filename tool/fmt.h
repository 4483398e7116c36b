/* fmt.h - figures as the tool prints them for people (fmt.c): shared by
 * the verbs (through cmd_common.h) and the report's renderings. */
#ifndef GOV_TOOL_FMT_H
#define GOV_TOOL_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "1.5 GiB", "-" for GOV_UNKNOWN. */
void gov__fmt_bytes(uint64_t v, char *buf, size_t cap);
/* "12", "-" for GOV_UNKNOWN. */
void gov__fmt_count(uint64_t v, char *buf, size_t cap);
/* A ratio as "42%"; "-" for NaN or a value past a double's range. */
void gov__fmt_percent(double r, char *buf, size_t cap);
/* Seconds as "12.5 s", from 10 minutes on "42 min"; "-" for NaN. */
void gov__fmt_seconds(double s, char *buf, size_t cap);
/* The user's name where names is set, this machine knows the uid and the
 * name is made of the characters POSIX allows in one (so that it needs no
 * escaping in JSON or a table); else the uid, "-" for GOV_UNKNOWN. */
void gov__fmt_user(uint64_t uid, bool names, char *buf, size_t cap);

/* The same through a cache of the uids looked up (a report names one
 * user on thousands of rows, and each getpwuid() may read the whole
 * passwd file): zero it before the first use, free it with
 * gov__fmt_users_free.  Without memory it looks up every time. */
typedef struct gov_user_cache {
    struct gov_user_name *v;   /* sorted by uid */
    size_t n, cap;
} gov_user_cache;
void gov__fmt_user_cached(gov_user_cache *c, uint64_t uid, bool names, char *buf, size_t cap);
void gov__fmt_users_free(gov_user_cache *c);

#endif
