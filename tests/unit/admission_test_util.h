/* admission_test_util.h - synthetic snapshots and a hand-driven clock for the
 * governor tests: gov_snapshot_init() (every fact unknown), then the fields
 * a real capture would fill. */
#ifndef GOV_ADMISSION_TEST_UTIL_H
#define GOV_ADMISSION_TEST_UTIL_H

#include "governor.h"

#include <string.h>

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)
#define MS 1000000ull

/* A clock the test moves by hand (starts at 10 s so "future" is testable). */
typedef struct test_clock {
    uint64_t now;
} test_clock;

static inline uint64_t test_clock_read(void *arg)
{
    return ((test_clock *)arg)->now;
}

/* A healthy 16-thread host with `total` bytes, `avail` available and no
 * cgroup, scheduler, PSI or GPU evidence, captured "now". */
static inline gov_snapshot make_snapshot(const test_clock *clk, uint64_t total, uint64_t avail)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.captured_ns = clk->now;
    s.cpu.host.logical = 16;
    s.cpu.effective.capacity_cores = 16.0;
    s.cpu.effective.workers = 16;
    s.memory.host.total_bytes = total;
    s.memory.host.available_bytes = avail;
    s.memory.effective.limit_bytes = total;
    s.memory.effective.remaining_bytes = avail;
    return s;
}

/* The batch profile as a verified descriptor's site policy would carry it. */
static inline void set_site_batch(gov_snapshot *s)
{
    s->policy.present = 1;
    s->policy.profile = GOV_PROFILE_BATCH;
}

static inline gov_governor *make_governor(test_clock *clk, uint64_t first_id)
{
    gov_governor_options o;
    gov_governor *g = NULL;

    memset(&o, 0, sizeof o);
    o.clock = test_clock_read;
    o.clock_arg = clk;
    o.first_reservation_id = first_id;
    if (gov_governor_create(&o, &g) != 0)
        return NULL;
    return g;
}

static inline gov_estimate make_estimate(uint32_t cls, uint64_t fixed, uint64_t per_item,
                                         uint64_t threads, uint64_t bmin, uint64_t bmax)
{
    gov_estimate e;

    memset(&e, 0, sizeof e);
    e.task_class = cls;
    e.fixed_bytes = fixed;
    e.bytes_per_item = per_item;
    e.cpu_threads = threads;
    e.io_slots = 1;
    e.batch_min = bmin;
    e.batch_max = bmax;
    return e;
}

#endif
