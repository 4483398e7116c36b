/* json.c - the JSON writer (json.h). */
#include "json.h"

#include "governor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gov_jw_init(gov_jw *w)
{
    memset(w, 0, sizeof *w);
    w->first[0] = true;
}

static void reserve(gov_jw *w, size_t more)
{
    size_t want;
    char *nb;

    if (w->err)
        return;
    if (w->len + more + 1 <= w->cap)
        return;
    want = w->cap ? w->cap : 1024;
    while (want < w->len + more + 1)
        want *= 2;
    nb = realloc(w->buf, want);
    if (!nb) {
        w->err = GOV_ENOMEM;
        return;
    }
    w->buf = nb;
    w->cap = want;
}

static void put(gov_jw *w, const char *s, size_t n)
{
    reserve(w, n);
    if (w->err)
        return;
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void putf(gov_jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(gov_jw *w, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof tmp)
        put(w, tmp, (size_t)n);
}

static void put_escaped(gov_jw *w, const char *s)
{
    put(w, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            put(w, e, 2);
        } else if (c < 0x20) {
            putf(w, "\\u%04x", c);
        } else {
            put(w, (const char *)&c, 1);
        }
    }
    put(w, "\"", 1);
}

/* Separator and key for the next member at the current depth. */
static void member(gov_jw *w, const char *key)
{
    if (!w->first[w->depth])
        put(w, ",", 1);
    w->first[w->depth] = false;
    if (key) {
        put_escaped(w, key);
        put(w, ":", 1);
    }
}

static void open_nested(gov_jw *w, const char *key, const char *bracket)
{
    if (w->depth + 1 >= GOV_JW_MAX_DEPTH) {
        w->err = GOV_ERANGE;
        return;
    }
    member(w, key);
    put(w, bracket, 1);
    w->first[++w->depth] = true;
}

static void close_nested(gov_jw *w, const char *bracket)
{
    if (w->depth > 0)
        w->depth--;
    put(w, bracket, 1);
}

void gov_jw_object_begin(gov_jw *w, const char *key)
{
    open_nested(w, key, "{");
}

void gov_jw_object_end(gov_jw *w)
{
    close_nested(w, "}");
}

void gov_jw_array_begin(gov_jw *w, const char *key)
{
    open_nested(w, key, "[");
}

void gov_jw_array_end(gov_jw *w)
{
    close_nested(w, "]");
}

void gov_jw_string(gov_jw *w, const char *key, const char *value)
{
    member(w, key);
    if (value)
        put_escaped(w, value);
    else
        put(w, "null", 4);
}

void gov_jw_null(gov_jw *w, const char *key)
{
    member(w, key);
    put(w, "null", 4);
}

void gov_jw_bool(gov_jw *w, const char *key, bool value)
{
    member(w, key);
    put(w, value ? "true" : "false", value ? 4 : 5);
}

void gov_jw_int(gov_jw *w, const char *key, int64_t value)
{
    member(w, key);
    putf(w, "%lld", (long long)value);
}

void gov_jw_u64(gov_jw *w, const char *key, uint64_t value)
{
    member(w, key);
    if (value == GOV_UNKNOWN)
        put(w, "null", 4);
    else
        putf(w, "%llu", (unsigned long long)value);
}

void gov_jw_double(gov_jw *w, const char *key, double value)
{
    member(w, key);
    if (!isfinite(value))
        put(w, "null", 4);
    else
        putf(w, "%.6g", value);
}

/* A CPU list can reach tens of KiB on large hosts: keep it off the stack. */
void gov_jw_cpuset(gov_jw *w, const char *key, const gov_cpuset *set)
{
    size_t cap = GOV_CPUSET_BITS * 6;
    char *list = malloc(cap);

    if (list && gov_cpuset_format(set, list, cap) >= 0)
        gov_jw_string(w, key, list);
    else
        gov_jw_null(w, key);
    free(list);
}

int gov_jw_finish(gov_jw *w, char **out, size_t *len)
{
    if (!w->err && !w->buf)
        put(w, "", 0);
    if (w->err) {
        free(w->buf);
        w->buf = NULL;
        return w->err;
    }
    *out = w->buf;
    if (len)
        *len = w->len;
    w->buf = NULL;
    return 0;
}
