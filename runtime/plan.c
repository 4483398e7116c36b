/* plan.c - worker and thread ceilings from a snapshot: process workers times
 * native threads (OpenMP, BLAS) stays within the effective CPU capacity. */
#include "governor.h"

#include <math.h>
#include <string.h>

/* I/O-bound pools mostly wait; a few more than the CPU ceiling keeps the
 * device busy without a thread per request (the familiar "CPUs + 4, at most
 * 32" of Python's ThreadPoolExecutor). */
#define GOV_IO_EXTRA 4
#define GOV_IO_MAX 32

int gov_plan_compute(const gov_snapshot *snap, uint64_t requested_workers, gov_plan *out)
{
    double cap;
    uint64_t ceiling;

    if (!snap || !out)
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    cap = snap->cpu.effective.capacity_cores;
    /* With no CPU evidence at all, one worker is the only safe ceiling. */
    ceiling = snap->cpu.effective.workers;
    if (ceiling == GOV_UNKNOWN || ceiling == 0)
        ceiling = 1;
    if (isnan(cap) || cap < 1.0)
        cap = 1.0;

    out->cpu_workers = ceiling;
    out->workers = requested_workers ? requested_workers : ceiling;
    out->oversubscribed = out->workers > ceiling;
    out->threads_per_worker = (uint64_t)floor(cap / (double)out->workers);
    if (out->threads_per_worker < 1)
        out->threads_per_worker = 1;
    out->io_workers = ceiling + GOV_IO_EXTRA < GOV_IO_MAX ? ceiling + GOV_IO_EXTRA : GOV_IO_MAX;
    return 0;
}
