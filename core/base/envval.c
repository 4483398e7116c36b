/* envval.c - looking a variable up in an environment, and parsers of
 * runtime settings found there (base.h).  They only measure what a user
 * set; nothing here decides. */
#include "base.h"

#include "governor.h"

#include <string.h>

const char *gov__env_get(const char *const *envp, const char *name)
{
    size_t n;

    if (!envp || !name)
        return NULL;
    n = strlen(name);
    for (; *envp; envp++)
        if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
            return *envp + n + 1;
    return NULL;
}

/* A number and the unit after it ("400MiB": 400 and "MiB"). */
static int split_unit(const char *text, size_t len, uint64_t *v, const char **unit,
                      size_t *ulen)
{
    const char *p = text;
    int rc = gov__scan_dec(&p, text + len, UINT64_MAX, v);

    *unit = p;
    *ulen = (size_t)(text + len - p);
    return rc;
}

/* v times 2^shift into *out, unless that overflows. */
static int shifted(uint64_t v, unsigned shift, uint64_t *out)
{
    if (shift && v > (UINT64_MAX >> shift))
        return GOV_ERANGE;
    *out = v << shift;
    return 0;
}

int gov__envval_count(const char *text, size_t len, uint64_t *out)
{
    const char *comma = memchr(text, ',', len);
    uint64_t v;
    int rc = gov__parse_u64(text, comma ? (size_t)(comma - text) : len, &v);

    if (rc)
        return rc;
    if (v == 0)
        return GOV_EPARSE;
    *out = v;
    return 0;
}

int gov__envval_go_bytes(const char *text, size_t len, uint64_t *out)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    const char *unit;
    size_t ulen;
    uint64_t v;
    int rc;

    if (gov__token_eq(text, len, "off")) {
        *out = INT64_MAX;
        return 0;
    }
    rc = split_unit(text, len, &v, &unit, &ulen);
    if (rc)
        return rc;
    if (ulen == 0)
        return shifted(v, 0, out);
    for (unsigned u = 0; u < sizeof units / sizeof units[0]; u++)
        if (gov__token_eq(unit, ulen, units[u]))
            return shifted(v, 10 * u, out);
    return GOV_EPARSE;
}

int gov__envval_java_size(const char *text, size_t len, uint64_t *out)
{
    const char *unit;
    size_t ulen;
    uint64_t v;
    unsigned shift;
    int rc = split_unit(text, len, &v, &unit, &ulen);

    if (rc)
        return rc;
    if (ulen == 0)
        return shifted(v, 0, out);
    if (ulen != 1)
        return GOV_EPARSE;
    switch (unit[0]) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return GOV_EPARSE;
    }
    return shifted(v, shift, out);
}

/* A decimal number ("0.25", ".25", "3") in thousandths: digits past the
 * third decimal are read and cut. */
static int milli(const char *text, size_t len, uint64_t *out)
{
    const char *p = text, *end = text + len;
    uint64_t whole = 0, frac = 0;
    unsigned places = 0;
    int digits = 0, rc;

    if (p < end && *p != '.') {
        rc = gov__scan_dec(&p, end, UINT64_MAX / 1000 - 1, &whole);
        if (rc)
            return rc;
        digits = 1;
    }
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits = 1)
            if (places < 3) {
                frac = frac * 10 + (uint64_t)(*p - '0');
                places++;
            }
    }
    if (!digits || p != end)
        return GOV_EPARSE;
    for (; places < 3; places++)
        frac *= 10;
    *out = whole * 1000 + frac;
    return 0;
}

int gov__envval_fraction(const char *text, size_t len, uint64_t *out)
{
    return milli(text, len, out);
}

int gov__envval_percent(const char *text, size_t len, uint64_t *out)
{
    uint64_t v;
    int rc;

    if (!len || text[len - 1] != '%')
        return GOV_EPARSE;
    rc = milli(text, len - 1, &v);
    if (rc)
        return rc;
    *out = v / 100;
    return 0;
}

int gov__envval_size(const char *text, size_t len, uint64_t *out)
{
    static const char units[] = "KMGT";
    const char *unit, *u;
    size_t ulen;
    uint64_t v;
    int rc = split_unit(text, len, &v, &unit, &ulen);

    if (rc)
        return rc;
    if (ulen && (unit[ulen - 1] == 'B' || unit[ulen - 1] == 'b'))
        ulen--;
    if (ulen == 0)
        return shifted(v, 0, out);
    if (ulen != 1 || !(u = memchr(units, unit[0] & ~0x20, 4)))
        return GOV_EPARSE;
    return shifted(v, 10 * (unsigned)(u - units + 1), out);
}

int gov__envval_mps_limit(const char *text, size_t len, uint64_t *out)
{
    const char *p = text, *end = text + len;

    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p)), *stop = comma ? comma : end;
        const char *eq = memchr(p, '=', (size_t)(stop - p));

        if (!eq || eq == p)
            return GOV_EPARSE;
        if (gov__token_eq(p, (size_t)(eq - p), "0"))
            return gov__envval_size(eq + 1, (size_t)(stop - eq - 1), out);
        p = comma ? comma + 1 : end;
    }
    return GOV_ENOENT;
}

/* The word starting at or after *pos: [*start, *end).  Double quotes group
 * blanks into a word; a backslash inside quotes escapes one character.
 * Returns 0 at the end of the text. */
static int next_word(const char *text, size_t len, size_t *pos, size_t *start, size_t *end)
{
    size_t i = *pos;
    int quoted = 0;

    while (i < len && gov__is_space(text[i]))
        i++;
    if (i == len)
        return 0;
    *start = i;
    for (; i < len && (quoted || !gov__is_space(text[i])); i++) {
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

int gov__envval_find_option(const char *text, size_t len, const char *const *names, size_t n,
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
                /* "--name value": an option after the name is no value
                 * (found by fuzz_runenv: "--max-old-space-size --x=1"). */
                if (!next_word(text, len, &p2, &s2, &e2) || text[s2] == '-')
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
