/*
 * clock.h - the time snapshots are dated with (clock.c), and the
 * admission governor's default clock: CLOCK_MONOTONIC in nanoseconds.
 */
#ifndef GOV_CLOCK_H
#define GOV_CLOCK_H

#include <stdint.h>

uint64_t gov__monotonic_ns(void);

#endif /* GOV_CLOCK_H */
