/*
 * cpuset.h - one CPU of a gov_cpuset: the only place that knows how its
 * bits are laid out, for every file that walks or builds a set (the
 * public header has parse, format and count); and the set written as a
 * CPU list onto a text writer, for encoders that write more than a list.
 */
#ifndef GOV_CPUSET_H
#define GOV_CPUSET_H

#include "governor.h"
#include "text.h"

#include <stdbool.h>

/* Whether cpu is in s; false past GOV_CPUSET_BITS. */
static inline bool gov__cpu_in(const gov_cpuset *s, unsigned cpu)
{
    return cpu < GOV_CPUSET_BITS && ((s->bits[cpu / 64] >> (cpu % 64)) & 1u);
}

/* Put cpu in s; nothing past GOV_CPUSET_BITS. */
static inline void gov__cpu_add(gov_cpuset *s, unsigned cpu)
{
    if (cpu < GOV_CPUSET_BITS)
        s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

/* The first CPU of s at or after cpu; GOV_CPUSET_BITS when there is none.
 * Sparse sets (a core's PUs) skip their empty words whole. */
static inline unsigned gov__cpu_next(const gov_cpuset *s, unsigned cpu)
{
    while (cpu < GOV_CPUSET_BITS) {
        uint64_t rest = s->bits[cpu / 64] >> (cpu % 64);
        if (rest)
            return cpu + (unsigned)__builtin_ctzll(rest);
        cpu = (cpu / 64 + 1) * 64;
    }
    return GOV_CPUSET_BITS;
}

/* for (cpu in s), in increasing order. */
#define GOV_CPU_FOREACH(cpu, s)                                                        \
    for (unsigned cpu = gov__cpu_next((s), 0); cpu < GOV_CPUSET_BITS;                   \
         cpu = gov__cpu_next((s), cpu + 1))

/* Append s as a canonical Linux CPU list ("0-3,8"; nothing when empty):
 * gov_cpuset_format() without a buffer of its own. */
void gov__cpuset_put(gov_text_buf *o, const gov_cpuset *s);

#endif /* GOV_CPUSET_H */
