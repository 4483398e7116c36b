/* psi.c - a PSI file's lines (evidence.h). */
#include "evidence.h"

#include "governor.h"
#include "base.h"

#include <math.h>
#include <string.h>

/* A percentage "12.34" (locale-independent); NaN when malformed or > 100. */
static double percent(const char *p, const char *end)
{
    double v = 0, scale = 1;
    bool digits = false;

    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        digits = true;
        if (v > 100)
            return NAN;
    }
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
            scale /= 10;
            v += (*p - '0') * scale;
            digits = true;
        }
    }
    if (!digits || p != end || v > 100)
        return NAN;
    return v;
}

/* The avg10= and total= fields of one line's rest (space separated). */
static void fields(const char *p, const char *eol, double *avg10, uint64_t *total)
{
    *avg10 = NAN;
    *total = GOV_UNKNOWN;
    while (p < eol) {
        const char *sp = memchr(p, ' ', (size_t)(eol - p));
        const char *stop = sp ? sp : eol, *v;
        size_t n = (size_t)(stop - p), vn;
        uint64_t t;

        if (gov__prefix(p, n, "avg10=", &v, NULL))
            *avg10 = percent(v, stop);
        else if (gov__prefix(p, n, "total=", &v, &vn) &&
                 !gov__parse_dec(v, vn, GOV_NUM_SPACE, GOV_UNKNOWN - 1, &t))
            *total = t;
        p = sp ? sp + 1 : eol;
    }
}

int gov__psi_parse(const char *text, size_t len, unsigned flags, gov_psi *out)
{
    gov_lines it = gov__lines_of(text, len, false);
    bool strict = flags & GOV_PSI_STRICT, seen[2] = { false, false };
    const char *line;
    size_t n;

    if (!out || (!text && len))
        return GOV_EINVAL;
    *out = (gov_psi){ NAN, NAN, GOV_UNKNOWN, GOV_UNKNOWN };
    while (gov__line_next(&it, &line, &n)) {
        const char *rest;
        int full;

        if (gov__prefix(line, n, "some ", &rest, NULL))
            full = 0;
        else if (gov__prefix(line, n, "full ", &rest, NULL))
            full = 1;
        else if (strict)
            return GOV_EPARSE;
        else
            continue;
        if (strict && seen[full])
            return GOV_EPARSE;
        seen[full] = true;
        fields(rest, line + n, full ? &out->full_avg10 : &out->some_avg10,
               full ? &out->full_total_us : &out->some_total_us);
        if (strict && (full ? out->full_total_us : out->some_total_us) == GOV_UNKNOWN)
            return GOV_EPARSE;
    }
    if (strict)
        return out->some_total_us == GOV_UNKNOWN ? GOV_EPARSE : 0;
    return isnan(out->some_avg10) && isnan(out->full_avg10) ? GOV_EPARSE : 0;
}
