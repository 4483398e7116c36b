/* text.c - lines, records, tokens and numbers of outside text (base.h). */
#include "base.h"

#include "governor.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gov_lines gov__lines_of(const char *text, size_t len, bool complete)
{
    return (gov_lines){ text, text + len, complete };
}

bool gov__line_next(gov_lines *it, const char **line, size_t *len)
{
    const char *nl;

    if (it->p >= it->end)
        return false;
    nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
    if (!nl && it->complete) {
        it->p = it->end;
        return false;
    }
    *line = it->p;
    *len = (size_t)((nl ? nl : it->end) - it->p);
    it->p = nl ? nl + 1 : it->end;
    return true;
}

int gov__record_next(gov_lines *it, const char **key, size_t *klen, const char **val,
                     size_t *vlen)
{
    const char *line, *eq;
    size_t n;

    if (it->p >= it->end)
        return 0;
    if (!memchr(it->p, '\n', (size_t)(it->end - it->p)))
        return GOV_EPARSE;     /* every record ends with a newline */
    gov__line_next(it, &line, &n);
    eq = memchr(line, '=', n);
    if (!eq || eq == line || eq + 1 == line + n)
        return GOV_EPARSE;
    *key = line;
    *klen = (size_t)(eq - line);
    *val = eq + 1;
    *vlen = n - *klen - 1;
    return 1;
}

bool gov__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void gov__trim(const char **s, size_t *len)
{
    const char *p = *s, *e = *s + *len;

    while (p < e && gov__is_space(*p))
        p++;
    while (e > p && gov__is_space(e[-1]))
        e--;
    *s = p;
    *len = (size_t)(e - p);
}

bool gov__token_eq(const char *s, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(s, word, len) == 0;
}

bool gov__words_have(const char *s, size_t len, const char *word)
{
    const char *end = s + len;

    while (s < end) {
        const char *w;
        while (s < end && gov__is_space(*s))
            s++;
        w = s;
        while (s < end && !gov__is_space(*s))
            s++;
        if (s > w && gov__token_eq(w, (size_t)(s - w), word))
            return true;
    }
    return false;
}

bool gov__prefix(const char *s, size_t len, const char *prefix, const char **rest,
                 size_t *rest_len)
{
    size_t n = strlen(prefix);

    if (len < n || memcmp(s, prefix, n) != 0)
        return false;
    if (rest)
        *rest = s + n;
    if (rest_len)
        *rest_len = len - n;
    return true;
}

int gov__scan_dec(const char **p, const char *end, uint64_t max, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;

    if (s == end || *s < '0' || *s > '9')
        return GOV_EPARSE;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (d > max || v > (max - d) / 10)
            return GOV_ERANGE;
        v = v * 10 + d;
    }
    *p = s;
    *out = v;
    return 0;
}

int gov__parse_dec(const char *text, size_t len, unsigned flags, uint64_t max,
                   uint64_t *out)
{
    const char *p;
    int rc;

    if (!text && len)
        return GOV_EPARSE;
    if (flags & GOV_NUM_SPACE)
        gov__trim(&text, &len);
    if (len == 0 || ((flags & GOV_NUM_CANONICAL) && len > 1 && text[0] == '0'))
        return GOV_EPARSE;
    p = text;
    rc = gov__scan_dec(&p, text + len, max, out);
    if (rc == 0 && p != text + len)
        rc = GOV_EPARSE;
    return rc;
}

int gov__parse_u64(const char *text, size_t len, uint64_t *out)
{
    return gov__parse_dec(text, len, GOV_NUM_SPACE, UINT64_MAX, out);
}

static int hex_digit(char c, unsigned flags)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F' && !(flags & GOV_HEX_LOWER))
        return c - 'A' + 10;
    return -1;
}

int gov__parse_hex(const char *text, size_t len, unsigned flags, uint64_t *out)
{
    uint64_t v = 0;

    if (!text && len)
        return GOV_EPARSE;
    if (flags & GOV_NUM_SPACE)
        gov__trim(&text, &len);
    if (flags & GOV_HEX_PREFIX) {
        if (len < 2 || text[0] != '0' || text[1] != 'x')
            return GOV_EPARSE;
        text += 2;
        len -= 2;
    }
    if (len == 0)
        return GOV_EPARSE;
    for (size_t i = 0; i < len; i++) {
        int d = hex_digit(text[i], flags);
        if (d < 0)
            return GOV_EPARSE;
        if (v > UINT64_MAX >> 4)
            return GOV_ERANGE;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

bool gov__name_number(const char *name, const char *prefix, uint64_t *num)
{
    size_t n = strlen(prefix);

    if (strncmp(name, prefix, n) != 0)
        return false;
    return gov__parse_dec(name + n, strlen(name + n), 0, UINT64_MAX, num) == 0;
}

/* Room for more bytes and the terminating NUL: false (err set) when there
 * is none.  A growable buffer starts at 1 KiB and doubles. */
static bool reserve(gov_text_buf *o, size_t more)
{
    size_t want;
    char *nb;

    if (o->err)
        return false;
    if (more < o->cap - o->used)
        return true;
    if (!o->growable) {
        o->err = GOV_ENOSPC;
        return false;
    }
    if (more > SIZE_MAX / 2 - o->used) {
        o->err = GOV_ENOMEM;
        return false;
    }
    for (want = o->cap ? o->cap : 1024; want <= o->used + more; want *= 2)
        ;
    nb = realloc(o->buf, want);
    if (!nb) {
        o->err = GOV_ENOMEM;
        return false;
    }
    o->buf = nb;
    o->cap = want;
    return true;
}

void gov__text_append(gov_text_buf *o, const char *s, size_t n)
{
    if (!reserve(o, n))
        return;
    if (n)
        memcpy(o->buf + o->used, s, n);
    o->used += n;
    o->buf[o->used] = '\0';
}

void gov__text_put(gov_text_buf *o, const char *fmt, ...)
{
    size_t room = o->cap - o->used;
    va_list ap;
    int n;

    if (o->err)
        return;
    va_start(ap, fmt);
    n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < room) {
        o->used += (size_t)n;
        return;
    }
    if (room)
        o->buf[o->used] = '\0';   /* no cut piece left behind */
    if (n < 0) {
        o->err = GOV_ERANGE;
        return;
    }
    if (!reserve(o, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(o->buf + o->used, o->cap - o->used, fmt, ap);
    va_end(ap);
    o->used += (size_t)n;
}

int gov__text_take(gov_text_buf *o, char **out, size_t *len)
{
    int rc;

    if (!o->growable)
        return GOV_EINVAL;
    gov__text_append(o, "", 0);
    rc = o->err;
    if (rc) {
        free(o->buf);
    } else {
        *out = o->buf;
        if (len)
            *len = o->used;
    }
    *o = gov__text_growable();
    return rc;
}

void gov__text_printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}
