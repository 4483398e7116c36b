/* cpuset.c - Linux CPU list syntax ("0-3,8") to and from gov_cpuset. */
#include "governor.h"
#include "text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void set_bit(gov_cpuset *s, uint64_t cpu)
{
    s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static bool has_bit(const gov_cpuset *s, uint64_t cpu)
{
    return (s->bits[cpu / 64] >> (cpu % 64)) & 1u;
}

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
            set_bit(&set, c);
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
    uint64_t c = 0;

    if (!set || !buf || cap == 0)
        return GOV_EINVAL;
    buf[0] = '\0';
    while (c < GOV_CPUSET_BITS) {
        uint64_t lo, hi;
        int n;

        if (!has_bit(set, c)) {
            /* Straight to the next CPU of the set: a list of a few CPUs
             * (the topology table holds one per core) costs no more than
             * the set's 128 words. */
            uint64_t rest = set->bits[c / 64] >> (c % 64);
            c = rest ? c + (uint64_t)__builtin_ctzll(rest) : (c / 64 + 1) * 64;
            continue;
        }
        lo = c;
        while (c + 1 < GOV_CPUSET_BITS && has_bit(set, c + 1))
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
