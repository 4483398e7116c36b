/* cpuset.c - Linux CPU list syntax ("0-3,8") to and from gov_cpuset. */
#include "cpuset.h"
#include "text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int gov_cpuset_parse(const char *text, size_t len, gov_cpuset *out)
{
    const char *p, *end;
    gov_cpuset set;

    if (!out || (!text && len))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    memset(&set, 0, sizeof set);
    gov_trim(&text, &len);
    p = text;
    end = text + len;
    if (p == end)
        return 0;
    for (;;) {
        uint64_t lo, hi;
        int rc = gov_scan_dec(&p, end, GOV_CPUSET_BITS - 1, &lo);
        if (rc)
            return rc;
        hi = lo;
        if (p < end && *p == '-') {
            p++;
            rc = gov_scan_dec(&p, end, GOV_CPUSET_BITS - 1, &hi);
            if (rc)
                return rc;
            if (hi < lo)
                return GOV_EPARSE;
        }
        for (uint64_t c = lo; c <= hi; c++)
            gov_cpu_add(&set, (unsigned)c);
        if (p == end)
            break;
        if (*p != ',')
            return GOV_EPARSE;
        p++;
    }
    *out = set;
    return 0;
}

int gov_cpuset_format(const gov_cpuset *set, char *buf, size_t cap)
{
    size_t used = 0;
    unsigned c;

    if (!set || !buf || cap == 0)
        return GOV_EINVAL;
    buf[0] = '\0';
    /* From one CPU of the set straight to the next: a list of a few CPUs
     * (the topology table holds one per core) costs no more than the
     * set's 128 words. */
    for (c = gov_cpu_next(set, 0); c < GOV_CPUSET_BITS; c = gov_cpu_next(set, c)) {
        uint64_t lo, hi;
        int n;

        lo = c;
        while (gov_cpu_in(set, c + 1))
            c++;
        hi = c++;
        if (lo == hi)
            n = snprintf(buf + used, cap - used, "%s%llu", used ? "," : "",
                         (unsigned long long)lo);
        else
            n = snprintf(buf + used, cap - used, "%s%llu-%llu", used ? "," : "",
                         (unsigned long long)lo, (unsigned long long)hi);
        if (n < 0 || (size_t)n >= cap - used) {
            buf[0] = '\0';
            return GOV_ENOSPC;
        }
        used += (size_t)n;
    }
    return (int)used;
}

uint64_t gov_cpuset_count(const gov_cpuset *set)
{
    uint64_t n = 0;

    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        n += (uint64_t)__builtin_popcountll(set->bits[i]);
    return n;
}
