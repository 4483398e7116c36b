/* json_write.c - the JSON writer (base.h). */
#include "base.h"

#include "governor.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void gov__jw_init(gov_jw *w)
{
    memset(w, 0, sizeof *w);
    w->out = gov__text_growable();
    w->first[0] = true;
}

void gov__jw_init_fixed(gov_jw *w, char *buf, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->out = gov__text_fixed(buf, cap);
    w->first[0] = true;
}

int gov__jw_length(const gov_jw *w)
{
    if (w->err || w->out.err)
        return w->err ? w->err : w->out.err;
    return w->out.used > INT_MAX ? GOV_ERANGE : (int)w->out.used;
}

/* The literal s, written as it is. */
static void put(gov_jw *w, const char *s)
{
    gov__text_append(&w->out, s, strlen(s));
}

static void put_escaped(gov_jw *w, const char *s)
{
    put(w, "\"");
    while (*s) {
        size_t n = 0;
        unsigned char c;
        /* The plain run at once: a report writes millions of strings. */
        while (s[n] && s[n] != '"' && s[n] != '\\' && (unsigned char)s[n] >= 0x20)
            n++;
        gov__text_append(&w->out, s, n);
        s += n;
        if (!(c = (unsigned char)*s))
            break;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            gov__text_append(&w->out, e, 2);
        } else {
            gov__text_put(&w->out, "\\u%04x", c);
        }
        s++;
    }
    put(w, "\"");
}

/* Separator and key for the next member at the current depth. */
static void member(gov_jw *w, const char *key)
{
    if (!w->first[w->depth])
        put(w, ",");
    w->first[w->depth] = false;
    if (key) {
        put_escaped(w, key);
        put(w, ":");
    }
}

static void open_nested(gov_jw *w, const char *key, const char *bracket)
{
    if (w->depth + 1 >= GOV_JW_MAX_DEPTH) {
        w->err = GOV_ERANGE;
        return;
    }
    member(w, key);
    put(w, bracket);
    w->first[++w->depth] = true;
}

static void close_nested(gov_jw *w, const char *bracket)
{
    if (w->depth > 0)
        w->depth--;
    put(w, bracket);
}

void gov__jw_object_begin(gov_jw *w, const char *key)
{
    open_nested(w, key, "{");
}

void gov__jw_object_end(gov_jw *w)
{
    close_nested(w, "}");
}

void gov__jw_array_begin(gov_jw *w, const char *key)
{
    open_nested(w, key, "[");
}

void gov__jw_array_end(gov_jw *w)
{
    close_nested(w, "]");
}

void gov__jw_string(gov_jw *w, const char *key, const char *value)
{
    member(w, key);
    if (value)
        put_escaped(w, value);
    else
        put(w, "null");
}

void gov__jw_null(gov_jw *w, const char *key)
{
    member(w, key);
    put(w, "null");
}

void gov__jw_bool(gov_jw *w, const char *key, bool value)
{
    member(w, key);
    put(w, value ? "true" : "false");
}

void gov__jw_int(gov_jw *w, const char *key, int64_t value)
{
    member(w, key);
    gov__text_put(&w->out, "%lld", (long long)value);
}

void gov__jw_u64(gov_jw *w, const char *key, uint64_t value)
{
    member(w, key);
    if (value == GOV_UNKNOWN)
        put(w, "null");
    else
        gov__text_put(&w->out, "%llu", (unsigned long long)value);
}

void gov__jw_double(gov_jw *w, const char *key, double value)
{
    member(w, key);
    if (!isfinite(value))
        put(w, "null");
    else
        gov__text_put(&w->out, "%.6g", value);
}

void gov__jw_fixed(gov_jw *w, const char *key, double value, int places)
{
    member(w, key);
    if (!isfinite(value))
        put(w, "null");
    else
        gov__text_put(&w->out, "%.*f", places, value);
}

void gov__jw_raw(gov_jw *w, const char *key, const char *json, size_t len)
{
    member(w, key);
    gov__text_append(&w->out, json, len);
}

/* A CPU list needs no escaping: written straight into the text. */
void gov__jw_cpuset(gov_jw *w, const char *key, const gov_cpuset *set)
{
    member(w, key);
    put(w, "\"");
    gov__cpuset_put(&w->out, set);
    put(w, "\"");
}

int gov__jw_flush(gov_jw *w, FILE *f)
{
    int rc = gov__jw_length(w);

    if (rc < 0)
        return rc;
    if (w->out.used && fwrite(w->out.buf, 1, w->out.used, f) != w->out.used)
        return GOV_EIO;
    w->out.used = 0;
    if (w->out.buf)
        w->out.buf[0] = '\0';
    return 0;
}

int gov__jw_finish(gov_jw *w, char **out, size_t *len)
{
    char *text;
    size_t n;
    int rc = gov__text_take(&w->out, &text, &n);

    if (rc == 0 && w->err) {
        free(text);
        rc = w->err;
    }
    if (rc)
        return rc;
    *out = text;
    if (len)
        *len = n;
    return 0;
}
