/* json_read.c - RFC 8259 by recursive descent, depth-bounded, into leaves
 * (base.h).  Strings are checked (escapes, control characters, UTF-8
 * is taken as bytes), numbers follow the grammar exactly. */
#include "base.h"

#include "governor.h"

#include <stdint.h>
#include <string.h>

typedef struct reader {
    const char *p, *end;
    gov_json_leaf *out;
    size_t cap, n;
    char path[64];
    size_t plen;
} reader;

static void skip_ws(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool literal(reader *r, const char *word)
{
    size_t n = strlen(word);

    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
        return false;
    r->p += n;
    return true;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* At the opening quote; on success s and n give the contents. */
static bool string(reader *r, const char **s, size_t *n, bool *plain)
{
    *plain = true;
    r->p++;
    *s = r->p;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20)
            return false;
        if (c == '\\') {
            *plain = false;
            if (++r->p >= r->end)
                return false;
            if (*r->p == 'u') {
                if (r->end - r->p < 5)
                    return false;
                for (int i = 1; i <= 4; i++)
                    if (!is_hex(r->p[i]))
                        return false;
                r->p += 4;
            } else if (!strchr("\"\\/bfnrt", *r->p)) {
                return false;
            }
        }
        r->p++;
    }
    if (r->p >= r->end)
        return false;
    *n = (size_t)(r->p - *s);
    r->p++;
    return true;
}

static bool number(reader *r)
{
    const char *start = r->p;

    if (r->p < r->end && *r->p == '-')
        r->p++;
    if (r->p >= r->end || !is_digit(*r->p))
        return false;
    if (*r->p == '0')
        r->p++;
    else
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    if (r->p < r->end && *r->p == '.') {
        r->p++;
        if (r->p >= r->end || !is_digit(*r->p))
            return false;
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->end || !is_digit(*r->p))
            return false;
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    return r->p > start;
}

static bool leaf(reader *r, gov_json_type type, const char *text, size_t len, bool plain)
{
    gov_json_leaf *l;

    if (r->n >= r->cap)
        return false;
    l = &r->out[r->n++];
    memcpy(l->path, r->path, r->plen);
    l->path[r->plen] = '\0';
    l->type = type;
    l->text = text;
    l->len = len;
    l->plain = plain;
    return true;
}

/* Append ".name" (or "name" at the top, or "[]") to the path. */
static bool push(reader *r, const char *name, size_t n, size_t *saved)
{
    size_t dot = r->plen && name[0] != '[' ? 1 : 0;

    *saved = r->plen;
    if (r->plen + dot + n >= sizeof r->path)
        return false;
    if (dot)
        r->path[r->plen++] = '.';
    memcpy(r->path + r->plen, name, n);
    r->plen += n;
    return true;
}

static bool value(reader *r, int depth);

static bool object(reader *r, int depth)
{
    r->p++;
    skip_ws(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
        return true;
    }
    for (;;) {
        const char *k;
        size_t kn, saved;
        bool plain;

        skip_ws(r);
        if (r->p >= r->end || *r->p != '"' || !string(r, &k, &kn, &plain) || !plain ||
            memchr(k, '.', kn) || memchr(k, '[', kn))
            return false;
        skip_ws(r);
        if (r->p >= r->end || *r->p != ':')
            return false;
        r->p++;
        if (!push(r, k, kn, &saved) || !value(r, depth + 1))
            return false;
        r->plen = saved;
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == '}') {
            r->p++;
            return true;
        }
        return false;
    }
}

static bool array(reader *r, int depth)
{
    size_t saved;

    r->p++;
    skip_ws(r);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        return true;
    }
    if (!push(r, "[]", 2, &saved))
        return false;
    for (;;) {
        if (!value(r, depth + 1))
            return false;
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == ']') {
            r->p++;
            r->plen = saved;
            return true;
        }
        return false;
    }
}

static bool value(reader *r, int depth)
{
    const char *start;
    size_t n;
    bool plain;

    if (depth > GOV_JSON_DEPTH_MAX)
        return false;
    skip_ws(r);
    if (r->p >= r->end)
        return false;
    start = r->p;
    switch (*r->p) {
    case '{':
        return object(r, depth);
    case '[':
        return array(r, depth);
    case '"':
        return string(r, &start, &n, &plain) && leaf(r, GOV_JSON_STRING, start, n, plain);
    case 't':
        return literal(r, "true") && leaf(r, GOV_JSON_BOOL, start, 4, true);
    case 'f':
        return literal(r, "false") && leaf(r, GOV_JSON_BOOL, start, 5, true);
    case 'n':
        return literal(r, "null") && leaf(r, GOV_JSON_NULL, start, 4, true);
    default:
        return number(r) && leaf(r, GOV_JSON_NUMBER, start, (size_t)(r->p - start), true);
    }
}

int gov__json_leaves(const char *text, size_t len, gov_json_leaf *out, size_t cap)
{
    reader r = { .p = text, .end = text + len, .out = out, .cap = cap };

    if (!text || !value(&r, 0))
        return GOV_EPARSE;
    skip_ws(&r);
    if (r.p != r.end || r.n > (size_t)INT32_MAX)
        return GOV_EPARSE;
    return (int)r.n;
}
