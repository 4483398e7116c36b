/* cpuset.c - Linux CPU list syntax ("0-3,8") to and from gov_cpuset. */
#include "base.h"

#include <stdbool.h>
#include <string.h>

int gov_cpuset_parse(const char *text, size_t len, gov_cpuset *out)
{
    const char *p, *end;
    gov_cpuset set;

    if (!out || (!text && len))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    memset(&set, 0, sizeof set);
    gov__trim(&text, &len);
    p = text;
    end = text + len;
    if (p == end)
        return 0;
    for (;;) {
        uint64_t lo, hi;
        int rc = gov__scan_dec(&p, end, GOV_CPUSET_BITS - 1, &lo);
        if (rc)
            return rc;
        hi = lo;
        if (p < end && *p == '-') {
            p++;
            rc = gov__scan_dec(&p, end, GOV_CPUSET_BITS - 1, &hi);
            if (rc)
                return rc;
            if (hi < lo)
                return GOV_EPARSE;
        }
        for (uint64_t c = lo; c <= hi; c++)
            gov__cpu_add(&set, (unsigned)c);
        if (p == end)
            break;
        if (*p != ',')
            return GOV_EPARSE;
        p++;
    }
    *out = set;
    return 0;
}

void gov__cpuset_put(gov_text_buf *o, const gov_cpuset *set)
{
    bool first = true;

    /* From one CPU of the set straight to the next: a list of a few CPUs
     * (the topology table holds one per core) costs no more than the
     * set's 128 words. */
    for (unsigned c = gov__cpu_next(set, 0); c < GOV_CPUSET_BITS; c = gov__cpu_next(set, c)) {
        unsigned lo = c;

        while (gov__cpu_in(set, c + 1))
            c++;
        if (lo == c)
            gov__text_put(o, "%s%u", first ? "" : ",", lo);
        else
            gov__text_put(o, "%s%u-%u", first ? "" : ",", lo, c);
        first = false;
        c++;
    }
}

int gov_cpuset_format(const gov_cpuset *set, char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);

    if (!set || !buf || cap == 0)
        return GOV_EINVAL;
    gov__text_append(&o, "", 0);
    gov__cpuset_put(&o, set);
    if (o.err) {
        buf[0] = '\0';
        return o.err;
    }
    return (int)o.used;
}

uint64_t gov_cpuset_count(const gov_cpuset *set)
{
    uint64_t n = 0;

    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        n += (uint64_t)__builtin_popcountll(set->bits[i]);
    return n;
}
