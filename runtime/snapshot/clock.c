/* clock.c - the one clock: snapshots are dated with it, and the governor
 * measures their age with it unless a test gives its own. */
#include "snapshot/clock.h"

#include <time.h>

uint64_t gov__monotonic_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}
