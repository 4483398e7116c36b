/*
 * cpuset.h - one CPU of a gov_cpuset, and whole sets combined: the only
 * place that knows how its bits are laid out, for every file that walks,
 * builds or compares sets (the public header has parse, format and
 * count); and the set written as a CPU list onto a text writer, for
 * encoders that write more than a list.
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

/* Take cpu out of s. */
static inline void gov__cpu_del(gov_cpuset *s, unsigned cpu)
{
    if (cpu < GOV_CPUSET_BITS)
        s->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

/* dst = a & b (dst may be either). */
static inline void gov__cpuset_and(gov_cpuset *dst, const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        dst->bits[i] = a->bits[i] & b->bits[i];
}

/* dst |= src. */
static inline void gov__cpuset_or(gov_cpuset *dst, const gov_cpuset *src)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        dst->bits[i] |= src->bits[i];
}

/* Whether a and b share a CPU. */
static inline bool gov__cpuset_intersects(const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        if (a->bits[i] & b->bits[i])
            return true;
    return false;
}

/* Whether every CPU of a is in b. */
static inline bool gov__cpuset_within(const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        if (a->bits[i] & ~b->bits[i])
            return false;
    return true;
}

/* How many CPUs of a are not in b. */
static inline uint64_t gov__cpuset_count_outside(const gov_cpuset *a, const gov_cpuset *b)
{
    uint64_t n = 0;

    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        n += (uint64_t)__builtin_popcountll(a->bits[i] & ~b->bits[i]);
    return n;
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
