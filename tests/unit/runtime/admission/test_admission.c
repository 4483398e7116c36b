/* The runtime governor: budget, admission, policy, reservations, ids,
 * history and waiting.  Pressure hysteresis is in test_admission_pressure.c.
 * Every test builds synthetic snapshots (admission_test_util.h) and drives
 * the governor through its public API with a hand-moved clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <time.h>

#include "admission_test_util.h"

/* RAM available = min(MemAvailable, physical, effective remaining)
 *                 - host reserve - active reservations, clamped at 0. */
static void test_ram_available_formula(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 10 * GIB);
    gov_estimate e = make_estimate(1, 1 * GIB, 0, 1, 1, 1);
    gov_availability a;
    gov_decision d;
    gov_reservation r[3];
    gov_policy p = { .mem_reserve_bytes = 2 * GIB, .cpu_reserve_threads = GOV_UNKNOWN };

    set_site_batch(&s);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 10 * GIB);           /* MemAvailable binds */
    s.memory.effective.remaining_bytes = 6 * GIB;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 6 * GIB);            /* effective remaining binds */
    s.memory.host.total_bytes = 5 * GIB;
    s.memory.host.available_bytes = 20 * GIB;          /* as a buggy kernel might say */
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 5 * GIB);            /* physical RAM binds */

    s = make_snapshot(&clk, 16 * GIB, 10 * GIB);
    set_site_batch(&s);
    assert_int_equal(gov_governor_set_policy(g, &p), 0);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_reserve_bytes, 2 * GIB);
    assert_int_equal(a.ram_bytes, 8 * GIB);            /* minus the host reserve */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r[i]), 0);
        assert_int_equal(d.verdict, GOV_ADMIT);
        assert_int_equal(d.ram_bytes, 1 * GIB);
    }
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_reserved_bytes, 3 * GIB);
    assert_int_equal(a.ram_bytes, 5 * GIB);            /* minus active reservations */
    s.memory.host.available_bytes = 4 * GIB;
    s.memory.effective.remaining_bytes = 4 * GIB;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 0);                  /* 4 - 2 - 3 clamps at 0 */
    for (int i = 0; i < 3; i++)
        assert_int_equal(gov_governor_release(g, r[i]), 0);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 2 * GIB);
    gov_governor_destroy(g);
}

/* An unknown MemAvailable falls back to the other known bounds. */
static void test_unknown_memavailable_falls_back(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, GOV_UNKNOWN);
    gov_availability a;

    set_site_batch(&s);
    s.memory.effective.remaining_bytes = 3 * GIB;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 3 * GIB);
    s.memory.effective.remaining_bytes = GOV_UNKNOWN;
    s.memory.effective.limit_bytes = 4 * GIB;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, 4 * GIB);
    gov_governor_destroy(g);
}

/* No RAM bound at all: RAM-needing work WAITs (never "unlimited"); work
 * that needs no RAM is still admitted. */
static void test_no_ram_bound_waits(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, GOV_UNKNOWN, GOV_UNKNOWN);
    gov_estimate ram = make_estimate(1, 1 * MIB, 0, 1, 1, 1);
    gov_estimate none = make_estimate(2, 0, 0, 1, 1, 4);
    gov_availability a;
    gov_decision d;

    set_site_batch(&s);
    s.memory.effective.limit_bytes = GOV_UNKNOWN;
    s.memory.effective.remaining_bytes = GOV_UNKNOWN;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_bytes, GOV_UNKNOWN);
    assert_int_equal(a.detected_ram_bytes, GOV_UNKNOWN);
    assert_int_equal(gov_governor_decide(g, &s, &ram, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_RAM_UNKNOWN);
    assert_int_equal(gov_governor_decide(g, &s, &none, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    assert_int_equal(d.batch, 1);
    /* The same governor admits as soon as a snapshot knows a bound. */
    clk.now += 10 * MS;
    s.captured_ns = clk.now;
    s.memory.effective.remaining_bytes = 1 * GIB;
    assert_int_equal(gov_governor_decide(g, &s, &ram, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    gov_governor_destroy(g);
}

/* Interactive keeps a quarter of detected RAM and of logical threads.  A
 * "16 GiB" machine shows MemTotal 16088124 kB (firmware and the kernel
 * image are not counted), so the reserve is about 3.8 GiB, and 4 threads. */
static void test_interactive_reserve_16gib(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    uint64_t memtotal = 16088124 * KIB;
    gov_snapshot s = make_snapshot(&clk, memtotal, 12 * GIB);
    gov_availability a;

    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.profile, GOV_PROFILE_INTERACTIVE);  /* default without a site */
    assert_int_equal(a.ram_reserve_bytes, memtotal / 4);
    assert_true(a.ram_reserve_bytes >= 38 * GIB / 10 && a.ram_reserve_bytes < 39 * GIB / 10);
    assert_int_equal(a.threads_reserve, 4);
    assert_int_equal(a.threads, 12);
    assert_int_equal(a.ram_bytes, 12 * GIB - memtotal / 4);
    gov_governor_destroy(g);
}

/* plan and run keep back what the governor keeps back (issue 36: the
 * interactive profile changed watch's figures but not plan's), for the
 * default profile and a sealed site policy alike. */
static void test_plan_keeps_the_governors_reserve(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_availability a;
    gov_plan p;

    for (int sealed = 0; sealed < 2; sealed++) {
        if (sealed) {
            s.scheduler.source = GOV_SCHED_DESCRIPTOR;
            s.policy.present = 1;
            s.policy.profile = GOV_PROFILE_BATCH;
            s.policy.mem_reserve_pct = 10;
            s.policy.cpu_reserve_threads = 3;
            gov_snapshot_resolve(&s);
        }
        assert_int_equal(gov_governor_availability(g, &s, &a), 0);
        assert_int_equal(gov_plan_compute(&s, 0, 0, &p), 0);
        assert_int_equal(p.reserve_threads, a.threads_reserve);
        assert_int_equal(p.reserve_memory_bytes, a.ram_reserve_bytes);
        assert_int_equal(p.cpu_workers, a.detected_threads - a.threads_reserve);
        assert_int_equal(p.threads_per_worker, p.cpu_workers);
        assert_int_equal(p.memory_limit_per_worker, a.detected_ram_bytes - a.ram_reserve_bytes);
    }
    assert_int_equal(p.reserve_threads, 3);
    gov_governor_destroy(g);
}

/* The default profile follows the snapshot: outside any scheduler the
 * interactive one (above); inside an allocation, sealed or from the
 * variables, batch, because the allocation is the job's own. */
static void test_default_profile_in_allocation(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_availability a;

    for (int src = GOV_SCHED_DESCRIPTOR; src <= GOV_SCHED_ENVIRONMENT; src++) {
        s.scheduler.source = (gov_sched_source)src;
        assert_int_equal(gov_governor_availability(g, &s, &a), 0);
        assert_int_equal(a.profile, GOV_PROFILE_BATCH);
        assert_int_equal(a.ram_reserve_bytes, 0);
        assert_int_equal(a.threads_reserve, 0);
    }
    gov_governor_destroy(g);
}

/* Batch keeps no reserve. */
static void test_batch_profile_keeps_none(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_policy p = { .profile_set = 1, .profile = GOV_PROFILE_BATCH,
                     .mem_reserve_bytes = GOV_UNKNOWN, .cpu_reserve_threads = GOV_UNKNOWN };
    gov_availability a;

    assert_int_equal(gov_governor_set_policy(g, &p), 0);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.profile, GOV_PROFILE_BATCH);
    assert_int_equal(a.ram_reserve_bytes, 0);
    assert_int_equal(a.threads_reserve, 0);
    assert_int_equal(a.ram_bytes, 12 * GIB);
    assert_int_equal(a.threads, 16);
    gov_governor_destroy(g);
}

/* Inside an allocation, detected RAM and threads are the snapshot's
 * effective values: a 4 GiB, 4-CPU step on a 24 GiB, 16-thread host. */
static void test_detected_is_effective_in_allocation(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 24 * GIB, 20 * GIB);
    gov_pressure_state ps;
    gov_availability a;

    s.policy.present = 1;
    s.policy.profile = GOV_PROFILE_INTERACTIVE;
    s.memory.effective.limit_bytes = 4 * GIB;
    s.memory.effective.remaining_bytes = 3 * GIB;
    s.cpu.effective.capacity_cores = 4.0;
    s.cpu.effective.workers = 4;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.detected_ram_bytes, 4 * GIB);
    assert_int_equal(a.detected_threads, 4);
    assert_int_equal(a.ram_reserve_bytes, 1 * GIB);
    assert_int_equal(a.threads_reserve, 1);
    assert_int_equal(a.ram_bytes, 2 * GIB);
    /* 3 GiB left of 4 is above the soft floor (1 GiB): GREEN, where a
     * quarter of the host (6 GiB) would keep it YELLOW for ever. */
    assert_int_equal(gov_governor_pressure(g, &s, &ps), 0);
    assert_int_equal(ps.level, GOV_GREEN);
    assert_int_equal(ps.observations, 1);
    /* Without effective values the host's are used. */
    s.cpu.effective.workers = GOV_UNKNOWN;
    s.memory.effective.limit_bytes = GOV_UNKNOWN;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.detected_ram_bytes, 24 * GIB);
    assert_int_equal(a.detected_threads, 16);
    gov_governor_destroy(g);
}

/* A site policy imposes a profile or a stricter reserve; the caller can
 * tighten it but never loosen it. */
static void test_site_policy_caller_tightens_only(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_policy loosen = { .profile_set = 1, .profile = GOV_PROFILE_BATCH,
                          .mem_reserve_bytes = GOV_UNKNOWN, .cpu_reserve_threads = GOV_UNKNOWN };
    gov_policy tighten = { .profile_set = 1, .profile = GOV_PROFILE_INTERACTIVE,
                           .mem_reserve_bytes = 5 * GIB, .cpu_reserve_threads = GOV_UNKNOWN,
                           .cpu_reserve_pct = 50 };
    gov_availability a;

    s.policy.present = 1;
    s.policy.profile_imposed = 1;
    s.policy.profile = GOV_PROFILE_INTERACTIVE;
    assert_int_equal(gov_governor_set_policy(g, &loosen), 0);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.profile, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(a.ram_reserve_bytes, 4 * GIB);

    s.policy.profile = GOV_PROFILE_BATCH;     /* imposed batch... */
    s.policy.mem_reserve_pct = 10;            /* ...with a stricter reserve */
    s.policy.cpu_reserve_threads = 2;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.profile, GOV_PROFILE_BATCH);
    assert_int_equal(a.ram_reserve_bytes, 16 * GIB / 10);
    assert_int_equal(a.threads_reserve, 2);

    assert_int_equal(gov_governor_set_policy(g, &tighten), 0);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.profile, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(a.ram_reserve_bytes, 5 * GIB);
    assert_int_equal(a.threads_reserve, 8);

    /* A site policy not carried by a verified descriptor is ignored. */
    s.policy.present = 0;
    assert_int_equal(gov_governor_set_policy(g, &loosen), 0);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_reserve_bytes, 0);
    assert_int_equal(a.threads_reserve, 0);

    tighten.mem_reserve_pct = 101;
    assert_int_equal(gov_governor_set_policy(g, &tighten), GOV_EINVAL);
    gov_governor_destroy(g);
}

/* PSI gates: WAIT at cpu some avg10 >= 20 % or memory >= 1 %; missing PSI
 * is no pressure; pressure never interrupts reserved work. */
static void test_psi_gates(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 1 * MIB, 0, 1, 1, 1);
    gov_decision d;
    gov_reservation r;

    set_site_batch(&s);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);   /* NaN PSI: no pressure */

    s.pressure.cpu_some_avg10 = 19.99;
    s.pressure.memory_some_avg10 = 0.99;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    s.pressure.cpu_some_avg10 = 20.0;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_CPU_PRESSURE);
    s.pressure.cpu_some_avg10 = 0.0;
    s.pressure.memory_some_avg10 = 1.0;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_MEMORY_PRESSURE);
    s.pressure.memory_some_avg10 = 55.0;
    assert_int_equal(gov_governor_reserve_available(g, &s, &e, &d, &(gov_reservation){ 0 }), 0);
    assert_int_equal(d.verdict, GOV_WAIT);

    /* The reservation made before the pressure is untouched. */
    assert_true(gov_governor_reservation_is_valid(g, r));
    assert_int_equal(gov_governor_release(g, r), 0);
    gov_governor_destroy(g);
}

/* CPU threads are a maximum reduced to the budget; none free: WAIT; a
 * budget of zero threads: REJECT. */
static void test_cpu_threads_reduced(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate twelve = make_estimate(1, 1 * MIB, 0, 12, 1, 1);
    gov_policy all = { .mem_reserve_bytes = GOV_UNKNOWN, .cpu_reserve_threads = 16 };
    gov_decision d;
    gov_reservation r1, r2;

    set_site_batch(&s);
    s.cpu.effective.workers = 4;
    twelve.io_slots = 0;
    assert_int_equal(gov_governor_reserve(g, &s, &twelve, 1, &d, &r1), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    assert_int_equal(d.threads, 4);
    assert_int_equal(gov_governor_reserve(g, &s, &twelve, 1, &d, &r2), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_CPU);
    assert_int_equal(r2.id, 0);
    assert_int_equal(gov_governor_release(g, r1), 0);
    /* Unknown thread count: never "unlimited". */
    s.cpu.effective.workers = GOV_UNKNOWN;
    s.cpu.host.logical = GOV_UNKNOWN;
    assert_int_equal(gov_governor_decide(g, &s, &twelve, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_CPU);
    s.cpu.effective.workers = 4;
    assert_int_equal(gov_governor_set_policy(g, &all), 0);
    assert_int_equal(gov_governor_decide(g, &s, &twelve, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.reason, GOV_REASON_CPU);
    gov_governor_destroy(g);
}

/* I/O slots: the configured number, WAIT when all are held, REJECT when an
 * estimate asks for more than exist. */
static void test_io_slots(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor_options o = { .clock = test_clock_read, .clock_arg = &clk, .io_slots = 2 };
    gov_governor *g = NULL;
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 0, 0, 1, 1, 1);
    gov_decision d;
    gov_reservation r[2];

    assert_int_equal(gov_governor_create(&o, &g), 0);
    set_site_batch(&s);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(gov_governor_reserve_available(g, &s, &e, &d, &r[i]), 0);
        assert_int_equal(d.verdict, GOV_ADMIT);
    }
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_IO);
    e.io_slots = 3;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.reason, GOV_REASON_IO);
    assert_int_equal(gov_governor_release(g, r[0]), 0);
    assert_int_equal(gov_governor_release(g, r[1]), 0);
    gov_governor_destroy(g);
}

/* REJECT when the smallest batch exceeds the whole RAM budget; WAIT when it
 * only exceeds what is free now. */
static void test_ram_reject_vs_wait(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 4 * GIB);
    gov_estimate big = make_estimate(1, 17 * GIB, 0, 1, 1, 1);
    gov_estimate mid = make_estimate(2, 5 * GIB, 0, 1, 1, 1);
    gov_decision d;

    set_site_batch(&s);
    assert_int_equal(gov_governor_decide(g, &s, &big, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.reason, GOV_REASON_RAM);
    assert_int_equal(gov_governor_decide(g, &s, &mid, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_RAM);
    gov_governor_destroy(g);
}

/* Every verdict says what the smallest batch needs and what is free, so a
 * WAIT or a REJECT shows its shortfall; history's per-item figure shows. */
static void test_decision_shows_shortfall(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 4 * GIB);
    gov_estimate e = make_estimate(3, 5 * GIB, 1 * GIB, 1, 1, 8);
    gov_batch_record heavy = { .items = 2, .peak_memory_bytes = 5 * GIB + 4 * GIB };
    gov_decision d;

    set_site_batch(&s);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_RAM);
    assert_int_equal(d.ram_bytes, 0);
    assert_int_equal(d.bytes_per_item, 1 * GIB);
    assert_int_equal(d.ram_needed_bytes, 6 * GIB);      /* 5 GiB + 1 x 1 GiB */
    assert_int_equal(d.ram_free_bytes, 4 * GIB);
    /* History says an item costs 2 GiB: the smallest batch now needs 7. */
    assert_int_equal(gov_governor_record_batch(g, 3, &heavy), 0);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.bytes_per_item, 2 * GIB);
    assert_int_equal(d.ram_needed_bytes, 7 * GIB);
    /* Past the whole budget: REJECT, with both figures. */
    e.fixed_bytes = 16 * GIB;      /* the record now says nothing per item */
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.ram_needed_bytes, 17 * GIB);
    assert_int_equal(d.ram_free_bytes, 4 * GIB);
    /* A stale snapshot: what is free is not known. */
    clk.now += 2000 * MS;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.reason, GOV_REASON_STALE_SNAPSHOT);
    assert_int_equal(d.ram_needed_bytes, 17 * GIB);
    assert_int_equal(d.ram_free_bytes, GOV_UNKNOWN);
    gov_governor_destroy(g);
}

/* Why the ceiling is where it is: before any observation, growing only
 * with newer snapshots (the same one again does not count), at the largest
 * batch, held by pressure, and neither way without RAM evidence. */
static void test_ceiling_reason(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 0, MIB, 1, 1, 2);
    gov_pressure_state ps;
    gov_decision d;

    set_site_batch(&s);
    assert_int_equal(gov_governor_pressure(g, NULL, &ps), 0);
    assert_int_equal(ps.ceiling_reason, GOV_CEILING_NO_OBSERVATION);
    for (int i = 0; i < 5; i++)
        assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.ceiling, 1);
    assert_int_equal(d.ceiling_reason, GOV_CEILING_GROWING);
    for (int i = 0; i < 3; i++) {
        clk.now += MS;
        s.captured_ns = clk.now;
        assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    }
    assert_int_equal(d.ceiling, 2);
    assert_int_equal(d.ceiling_reason, GOV_CEILING_LARGEST);
    clk.now += MS;
    s.captured_ns = clk.now;
    s.memory.host.available_bytes = s.memory.effective.remaining_bytes = 1 * GIB;
    assert_int_equal(gov_governor_pressure(g, &s, &ps), 0);
    assert_int_equal(ps.level, GOV_RED);
    assert_int_equal(ps.ceiling_reason, GOV_CEILING_PRESSURE);
    assert_string_equal(gov_ceiling_reason_name(ps.ceiling_reason), "pressure");
    gov_governor_destroy(g);

    g = make_governor(&clk, 0);
    s = make_snapshot(&clk, GOV_UNKNOWN, GOV_UNKNOWN);
    s.memory.effective.limit_bytes = s.memory.effective.remaining_bytes = GOV_UNKNOWN;
    assert_int_equal(gov_governor_pressure(g, &s, &ps), 0);
    assert_int_equal(ps.ceiling_reason, GOV_CEILING_RAM_UNKNOWN);
    gov_governor_destroy(g);

    /* PSI holding new admissions: the ceiling waits (neither grows nor
     * resets) and says why; once the gate opens it grows again. */
    g = make_governor(&clk, 0);
    s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    set_site_batch(&s);
    s.pressure.memory_some_avg10 = 2.0;
    for (int i = 0; i < 6; i++) {
        clk.now += MS;
        s.captured_ns = clk.now;
        assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
        assert_int_equal(d.verdict, GOV_WAIT);
    }
    assert_int_equal(d.ceiling, 1);
    assert_int_equal(d.ceiling_reason, GOV_CEILING_GATED);
    assert_string_equal(gov_ceiling_reason_name(d.ceiling_reason), "gated");
    s.pressure.memory_some_avg10 = 0.0;
    for (int i = 0; i < 3; i++) {
        clk.now += MS;
        s.captured_ns = clk.now;
        assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    }
    assert_int_equal(d.ceiling, 2);
    gov_governor_destroy(g);
}

/* Malformed estimates and arguments are errors, not decisions. */
static void test_bad_arguments(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 0, 0, 1, 2, 4);
    gov_decision d;
    gov_reservation r;

    assert_int_equal(gov_governor_create(NULL, NULL), GOV_EINVAL);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), GOV_EINVAL);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 5, &d, &r), GOV_EINVAL);
    assert_int_equal(gov_governor_decide(g, NULL, &e, &d), GOV_EINVAL);
    e.batch_min = 0;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), GOV_EINVAL);
    e.batch_min = 5;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), GOV_EINVAL);
    assert_int_equal(gov_governor_release(g, (gov_reservation){ 0 }), GOV_EINVAL);
    assert_int_equal(gov_governor_release(g, (gov_reservation){ 42 }), GOV_EINVAL);
    assert_int_equal(gov_governor_reservation_is_valid(g, (gov_reservation){ 0 }), 0);
    gov_governor_destroy(g);
}

/* Every reservation is released exactly once; the second release is
 * GOV_EALREADY and changes nothing. */
static void test_release_exactly_once(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 1 * GIB, 0, 2, 1, 1);
    gov_availability before, held, after;
    gov_decision d;
    gov_reservation r;

    set_site_batch(&s);
    assert_int_equal(gov_governor_availability(g, &s, &before), 0);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(r.id, 1);
    assert_true(gov_governor_reservation_is_valid(g, r));
    assert_int_equal(gov_governor_availability(g, &s, &held), 0);
    assert_int_equal(held.active_reservations, 1);
    assert_int_equal(held.threads, before.threads - 2);
    assert_int_equal(gov_governor_release(g, r), 0);
    assert_false(gov_governor_reservation_is_valid(g, r));
    assert_int_equal(gov_governor_release(g, r), GOV_EALREADY);
    assert_int_equal(gov_governor_availability(g, &s, &after), 0);
    assert_int_equal(after.ram_bytes, before.ram_bytes);
    assert_int_equal(after.threads, before.threads);
    assert_int_equal(after.io_slots, before.io_slots);
    assert_int_equal(after.active_reservations, 0);
    gov_governor_destroy(g);
}

/* Ids run up to UINT64_MAX inclusive; the next creation fails cleanly with
 * GOV_EOVERFLOW and changes no accounting; releases still work. */
static void test_ids_end_at_uint64_max(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, UINT64_MAX - 1);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 1 * GIB, 0, 1, 1, 1);
    gov_availability before, after;
    gov_decision d;
    gov_reservation a, b, c = { 7 };
    uint64_t gen;

    set_site_batch(&s);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &a), 0);
    assert_int_equal(a.id, UINT64_MAX - 1);
    assert_int_equal(gov_governor_reserve_available(g, &s, &e, &d, &b), 0);
    assert_int_equal(b.id, UINT64_MAX);
    assert_int_equal(d.verdict, GOV_ADMIT);
    assert_int_equal(gov_governor_availability(g, &s, &before), 0);
    gen = gov_governor_generation(g);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &c), GOV_EOVERFLOW);
    assert_int_equal(c.id, 0);
    assert_int_equal(gov_governor_reserve_available(g, &s, &e, &d, &c), GOV_EOVERFLOW);
    assert_int_equal(gov_governor_availability(g, &s, &after), 0);
    assert_int_equal(after.ram_reserved_bytes, before.ram_reserved_bytes);
    assert_int_equal(after.active_reservations, 2);
    assert_int_equal(gov_governor_generation(g), gen);
    assert_true(gov_governor_reservation_is_valid(g, b));
    assert_int_equal(gov_governor_release(g, b), 0);
    assert_int_equal(gov_governor_release(g, b), GOV_EALREADY);
    assert_int_equal(gov_governor_release(g, a), 0);
    assert_int_equal(gov_governor_release(g, (gov_reservation){ 5 }), GOV_EINVAL);
    gov_governor_destroy(g);
}

/* One GPU: the snapshot's card; two slots or no card: REJECT; the slot is
 * exclusive; a discrete card's free memory comes from that card. */
static void test_gpu_one_device(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 640 * KIB, 0, 1, 1, 1);
    gov_availability a;
    gov_decision d;
    gov_reservation r;

    set_site_batch(&s);
    e.gpu_slots = 1;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);           /* no card */
    assert_int_equal(d.reason, GOV_REASON_GPU);
    s.accel.gpu_index = 1;
    s.accel.gpu_vram_total_bytes = 8 * GIB;
    s.accel.gpu_vram_used_bytes = 7 * GIB;
    e.gpu_slots = 2;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    e.gpu_slots = 1;
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.gpu_slots, 0);
    assert_int_equal(a.gpu_free_bytes, 1 * GIB - 640 * KIB);
    assert_int_equal(a.ram_reserved_bytes, 640 * KIB);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_GPU);
    assert_int_equal(gov_governor_release(g, r), 0);

    /* A verified grant of no GPU outranks the card the node shows. */
    s.scheduler.gpus_verified = 1;
    s.scheduler.gpus_on_node = 0;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.reason, GOV_REASON_GPU);
    s.scheduler.gpus_on_node = 2;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);

    /* Card memory not enough, or unknown: WAIT; bigger than the card: REJECT. */
    e.fixed_bytes = 2 * GIB;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.reason, GOV_REASON_GPU_MEMORY);
    assert_int_equal(d.verdict, GOV_WAIT);
    s.accel.gpu_vram_used_bytes = GOV_UNKNOWN;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_GPU_MEMORY);
    e.fixed_bytes = 9 * GIB;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.reason, GOV_REASON_GPU_MEMORY);
    gov_governor_destroy(g);
}

/* A quarter of the card through gres/shard: the governed GPU's memory is
 * the share's, not the card's, and what others use of the card counts
 * against it. */
static void test_gpu_share_memory(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 640 * KIB, 0, 1, 1, 1);
    gov_availability a;
    gov_decision d;

    (void)state;
    set_site_batch(&s);
    s.accel.gpu_index = 0;
    s.accel.gpu_unified = 0;
    s.accel.gpu_vram_total_bytes = 16 * GIB;
    s.accel.gpu_vram_used_bytes = 1 * GIB;
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_SHARD;
    s.scheduler.gpu_share = 0.25;
    s.scheduler.gpu_memory_bytes = 4 * GIB;
    e.gpu_slots = 1;
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.gpu_free_bytes, 3 * GIB);
    e.fixed_bytes = 5 * GIB;                  /* more than the share: never */
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_REJECT);
    assert_int_equal(d.reason, GOV_REASON_GPU_MEMORY);
    /* The whole card, the same figures: its memory is the card's. */
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_GPU;
    s.scheduler.gpu_memory_bytes = 16 * GIB;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    gov_governor_destroy(g);
}

/* UMA: the GPU share is system RAM, debited from RAM exactly once and not
 * from a separate card figure. */
static void test_gpu_unified_debits_ram_once(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 640 * KIB, 0, 1, 1, 1);
    gov_availability before, a;
    gov_decision d;
    gov_reservation r;

    set_site_batch(&s);
    s.accel.gpu_index = 0;
    s.accel.gpu_unified = 1;
    e.gpu_slots = 1;
    assert_int_equal(gov_governor_availability(g, &s, &before), 0);
    assert_int_equal(before.gpu_free_bytes, GOV_UNKNOWN);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    assert_int_equal(gov_governor_availability(g, &s, &a), 0);
    assert_int_equal(a.ram_reserved_bytes, 640 * KIB);
    assert_int_equal(before.ram_bytes - a.ram_bytes, 640 * KIB);
    assert_int_equal(gov_governor_release(g, r), 0);
    gov_governor_destroy(g);
}

/* The batch is the largest that fits: batch_max, the ceiling, RAM. */
static void test_batch_sizing(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 12 * GIB);
    gov_estimate e = make_estimate(1, 1 * GIB, 1 * GIB, 1, 1, 64);
    gov_decision d;

    set_site_batch(&s);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    assert_int_equal(d.batch, 1);                 /* fresh governor: ceiling 1 */
    e.batch_min = 2;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_BATCH_CEILING);
    gov_governor_destroy(g);
}

/* History: 8 records per class in a FIFO ring; per-item cost is raised to
 * the largest a known peak implies (rounded up), never lowered; a peak of
 * 0 means unknown and never feeds it. */
static void test_history_fifo_and_unknown_peak(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor_options o = { .clock = test_clock_read, .clock_arg = &clk, .max_classes = 2 };
    gov_governor *g = NULL;
    gov_snapshot s = make_snapshot(&clk, 16 * GIB, 10 * GIB + 1 * GIB);
    gov_estimate e = make_estimate(7, 1 * GIB, 1 * MIB, 1, 1, 1);
    gov_batch_record unknown = { .items = 4, .peak_memory_bytes = 0, .duration_ns = 5 };
    gov_batch_record heavy = { .items = 3, .peak_memory_bytes = 1 * GIB + 10 * GIB };
    gov_batch_record light = { .items = 4, .peak_memory_bytes = 1 * GIB + 4 * MIB };
    gov_decision d;

    assert_int_equal(gov_governor_create(&o, &g), 0);
    set_site_batch(&s);
    for (int i = 0; i < 20; i++)
        assert_int_equal(gov_governor_record_batch(g, 7, &unknown), 0);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.ram_bytes, 1 * GIB + 1 * MIB);   /* unknown: static estimate */

    assert_int_equal(gov_governor_record_batch(g, 7, &heavy), 0);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    /* 10 GiB over 3 items, rounded up */
    assert_int_equal(d.ram_bytes, 1 * GIB + (10 * GIB + 2) / 3);
    for (int i = 0; i < 7; i++)
        assert_int_equal(gov_governor_record_batch(g, 7, &light), 0);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.ram_bytes, 1 * GIB + (10 * GIB + 2) / 3);   /* still in the ring */
    assert_int_equal(gov_governor_record_batch(g, 7, &light), 0);     /* 9th drops it */
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.ram_bytes, 1 * GIB + 1 * MIB);   /* light peaks: 1 MiB/item */

    /* Classes are kept apart; the table holds max_classes classes. */
    e.task_class = 8;
    assert_int_equal(gov_governor_record_batch(g, 8, &light), 0);
    assert_int_equal(gov_governor_record_batch(g, 9, &light), GOV_ENOSPC);
    gov_governor_destroy(g);
}

/* Adaptive batches stay conservative: heavier observed items mean smaller
 * batches, rounding never lets a batch overshoot free RAM. */
static void test_adaptive_batch_conservative(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = make_snapshot(&clk, 64 * GIB, 60 * GIB);
    gov_estimate e = make_estimate(3, 0, 1 * GIB, 1, 1, 64);
    gov_batch_record rec = { .items = 2, .peak_memory_bytes = 5 * GIB + 1 };
    gov_pressure_state ps;
    gov_decision d;

    set_site_batch(&s);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    /* Grow the ceiling to 64 with healthy observations (see the pressure
     * tests for the steps). */
    for (int i = 0; i < 40; i++) {
        clk.now += 10 * MS;
        s.captured_ns = clk.now;
        assert_int_equal(gov_governor_pressure(g, &s, &ps), 0);
    }
    assert_int_equal(ps.ceiling, 64);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.batch, 60);
    assert_int_equal(gov_governor_record_batch(g, 3, &rec), 0);
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    /* 2.5 GiB + 1 byte per item, rounded up: 23 items = 57.5 GiB + 23 B */
    assert_int_equal(d.batch, 23);
    assert_true(d.ram_bytes <= 60 * GIB);
    gov_governor_destroy(g);
}

struct bump_arg {
    gov_governor *g;
    gov_snapshot s;
    gov_estimate e;
};

static void *reserve_later(void *p)
{
    struct bump_arg *a = p;
    struct timespec ts = { 0, 50 * 1000 * 1000 };
    gov_decision d;
    gov_reservation r;

    nanosleep(&ts, NULL);
    gov_governor_reserve_available(a->g, &a->s, &a->e, &d, &r);
    return NULL;
}

/* wait_for_change: times out without a change, wakes on one. */
static void test_wait_for_change(void **state)
{
    test_clock clk = { 10000 * MS };
    struct bump_arg a = { .g = make_governor(&clk, 0),
                          .s = make_snapshot(&clk, 16 * GIB, 12 * GIB),
                          .e = make_estimate(1, 0, 0, 1, 1, 1) };
    pthread_t t;
    uint64_t gen, now_gen = 0;

    set_site_batch(&a.s);
    gen = gov_governor_generation(a.g);
    assert_int_equal(gov_governor_wait_for_change(a.g, gen, 20, &now_gen), GOV_ETIMEDOUT);
    assert_int_equal(now_gen, gen);
    assert_int_equal(gov_governor_wait_for_change(a.g, gen + 1, 0, &now_gen), 0);
    assert_int_equal(pthread_create(&t, NULL, reserve_later, &a), 0);
    assert_int_equal(gov_governor_wait_for_change(a.g, gen, 10000, &now_gen), 0);
    assert_true(now_gen > gen);
    pthread_join(t, NULL);
    gov_governor_destroy(a.g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ram_available_formula),
        cmocka_unit_test(test_unknown_memavailable_falls_back),
        cmocka_unit_test(test_no_ram_bound_waits),
        cmocka_unit_test(test_interactive_reserve_16gib),
        cmocka_unit_test(test_plan_keeps_the_governors_reserve),
        cmocka_unit_test(test_default_profile_in_allocation),
        cmocka_unit_test(test_batch_profile_keeps_none),
        cmocka_unit_test(test_detected_is_effective_in_allocation),
        cmocka_unit_test(test_site_policy_caller_tightens_only),
        cmocka_unit_test(test_psi_gates),
        cmocka_unit_test(test_cpu_threads_reduced),
        cmocka_unit_test(test_io_slots),
        cmocka_unit_test(test_ram_reject_vs_wait),
        cmocka_unit_test(test_decision_shows_shortfall),
        cmocka_unit_test(test_ceiling_reason),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_release_exactly_once),
        cmocka_unit_test(test_ids_end_at_uint64_max),
        cmocka_unit_test(test_gpu_one_device),
        cmocka_unit_test(test_gpu_share_memory),
        cmocka_unit_test(test_gpu_unified_debits_ram_once),
        cmocka_unit_test(test_batch_sizing),
        cmocka_unit_test(test_history_fifo_and_unknown_peak),
        cmocka_unit_test(test_adaptive_batch_conservative),
        cmocka_unit_test(test_wait_for_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
