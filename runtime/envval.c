/* envval.c - parsers of runtime settings found in the environment
 * (envval.h).  They only measure what a user set; nothing here decides. */
#include "envval.h"

#include "evidence.h"

#include <string.h>

/* Digits at text[0..len) into *out with a binary unit shift. */
static int scaled(const char *text, size_t len, unsigned shift, uint64_t *out)
{
    uint64_t v;
    int rc = gov_parse_u64(text, len, &v);

    if (rc)
        return rc;
    if (shift && v > (UINT64_MAX >> shift))
        return GOV_ERANGE;
    *out = v << shift;
    return 0;
}

static size_t digits(const char *text, size_t len)
{
    size_t i = 0;

    while (i < len && text[i] >= '0' && text[i] <= '9')
        i++;
    return i;
}

int gov_envval_count(const char *text, size_t len, uint64_t *out)
{
    const char *comma = memchr(text, ',', len);
    uint64_t v;
    int rc = gov_parse_u64(text, comma ? (size_t)(comma - text) : len, &v);

    if (rc)
        return rc;
    if (v == 0)
        return GOV_EPARSE;
    *out = v;
    return 0;
}

int gov_envval_go_bytes(const char *text, size_t len, uint64_t *out)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    size_t n = digits(text, len);

    if (len == 3 && !memcmp(text, "off", 3)) {
        *out = INT64_MAX;
        return 0;
    }
    if (n == 0)
        return GOV_EPARSE;
    if (n == len)
        return scaled(text, n, 0, out);
    for (unsigned u = 0; u < sizeof units / sizeof units[0]; u++)
        if (len - n == strlen(units[u]) && !memcmp(text + n, units[u], len - n))
            return scaled(text, n, 10 * u, out);
    return GOV_EPARSE;
}

int gov_envval_java_size(const char *text, size_t len, uint64_t *out)
{
    size_t n = digits(text, len);
    unsigned shift;

    if (n == 0)
        return GOV_EPARSE;
    if (n == len)
        return scaled(text, n, 0, out);
    if (len - n != 1)
        return GOV_EPARSE;
    switch (text[n]) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return GOV_EPARSE;
    }
    return scaled(text, n, shift, out);
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The word starting at or after *pos: [*start, *end).  Double quotes group
 * blanks into a word; a backslash inside quotes escapes one character.
 * Returns 0 at the end of the text. */
static int next_word(const char *text, size_t len, size_t *pos, size_t *start, size_t *end)
{
    size_t i = *pos;
    int quoted = 0;

    while (i < len && blank(text[i]))
        i++;
    if (i == len)
        return 0;
    *start = i;
    for (; i < len && (quoted || !blank(text[i])); i++) {
        if (text[i] == '"')
            quoted = !quoted;
        else if (quoted && text[i] == '\\' && i + 1 < len)
            i++;
    }
    *end = *pos = i;
    return 1;
}

/* A name whose value is joined to it in one word ("-Xmx2g",
 * "-XX:MaxRAM=1g"), as opposed to a long option ("--name=v", "--name v"). */
static int joined(const char *name)
{
    size_t n = strlen(name);
    return (n && name[n - 1] == '=') || !strncmp(name, "-X", 2);
}

int gov_envval_find_option(const char *text, size_t len, const char *const *names, size_t n,
                           gov_envval_option *out)
{
    size_t pos = 0, s, e;
    int found = 0;

    while (next_word(text, len, &pos, &s, &e)) {
        for (size_t k = 0; k < n; k++) {
            size_t nl = strlen(names[k]);
            gov_envval_option o = { .start = s, .which = k };

            if (e - s < nl || memcmp(text + s, names[k], nl) != 0)
                continue;
            if (joined(names[k])) {
                o.value = s + nl;
            } else if (e - s > nl && text[s + nl] == '=') {
                o.value = s + nl + 1;
            } else if (e - s == nl) {
                size_t p2 = pos, s2, e2;
                if (!next_word(text, len, &p2, &s2, &e2))
                    continue;
                o.value = s2;
                e = e2;
                pos = p2;
            } else {
                continue;
            }
            o.value_len = e - o.value;
            o.len = e - s;
            *out = o;
            found = 1;
            break;
        }
    }
    return found ? 0 : GOV_ENOENT;
}
