/* The governor's pressure state machine and snapshot validity: floors,
 * swap escalation, recovery steps, ceiling doubling, snapshot age, and
 * saturating streaks.  Snapshots are synthetic; the clock is moved by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "admission_test_util.h"

/* A 16 GiB batch-profile host: soft floor 4 GiB, hard floor 2 GiB. */
static gov_snapshot host(test_clock *clk, uint64_t avail, uint64_t swap)
{
    gov_snapshot s = make_snapshot(clk, 16 * GIB, avail);

    set_site_batch(&s);
    s.pressure.swap_in_pages = swap;
    s.pressure.swap_out_pages = swap == GOV_UNKNOWN ? GOV_UNKNOWN : 0;
    return s;
}

/* Observe one newer snapshot (10 ms later) and return the state after it. */
static gov_pressure_state observe(gov_governor *g, test_clock *clk, uint64_t avail,
                                  uint64_t swap)
{
    gov_pressure_state ps;
    gov_snapshot s;

    clk->now += 10 * MS;
    s = host(clk, avail, swap);
    assert_int_equal(gov_governor_pressure(g, &s, &ps), 0);
    return ps;
}

/* Valid up to an age of exactly 1000 ms inclusive; 1000 ms + 1 ns and
 * 1001 ms are stale; a future snapshot is invalid too.  Either gives WAIT,
 * no reservation and no change to the pressure state. */
static void test_snapshot_age_boundary(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = host(&clk, 12 * GIB, 0);
    gov_estimate e = make_estimate(1, 1 * MIB, 0, 1, 1, 1);
    gov_pressure_state before, after;
    gov_decision d;
    gov_reservation r;
    uint64_t gen;

    clk.now = s.captured_ns + 1000 * MS;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);

    /* A stale snapshot that would be RED if it were observed. */
    s = host(&clk, 1 * GIB, 0);
    assert_int_equal(gov_governor_pressure(g, NULL, &before), 0);
    gen = gov_governor_generation(g);
    clk.now = s.captured_ns + 1000 * MS + 1;
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_STALE_SNAPSHOT);
    assert_int_equal(r.id, 0);
    clk.now = s.captured_ns + 1001 * MS;
    assert_int_equal(gov_governor_reserve_available(g, &s, &e, &d, &r), 0);
    assert_int_equal(d.reason, GOV_REASON_STALE_SNAPSHOT);
    assert_int_equal(gov_governor_pressure(g, &s, &after), 0);
    s.captured_ns = clk.now + 1;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(d.verdict, GOV_WAIT);
    assert_int_equal(d.reason, GOV_REASON_FUTURE_SNAPSHOT);
    assert_int_equal(gov_governor_pressure(g, &s, &after), 0);
    assert_int_equal(after.level, GOV_GREEN);
    assert_int_equal(after.observations, before.observations);
    assert_int_equal(gov_governor_generation(g), gen);
    gov_governor_destroy(g);
}

/* The same snapshot presented twice (decide, then reserve) is one
 * observation; an older one after a newer one is none. */
static void test_snapshot_observed_once(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = host(&clk, 12 * GIB, 0), older = s;
    gov_estimate e = make_estimate(1, 1 * MIB, 0, 1, 1, 1);
    gov_pressure_state ps;
    gov_decision d;
    gov_reservation r;

    clk.now += 5 * MS;
    s.captured_ns = clk.now;
    assert_int_equal(gov_governor_decide(g, &s, &e, &d), 0);
    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(gov_governor_pressure(g, &older, &ps), 0);
    assert_int_equal(ps.observations, 1);
    assert_int_equal(ps.healthy_streak, 1);
    assert_int_equal(gov_governor_release(g, r), 0);
    gov_governor_destroy(g);
}

/* Below the soft floor (a quarter of detected RAM): at least YELLOW.  At
 * the floor exactly: still healthy. */
static void test_soft_floor_yellow(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_pressure_state ps;

    ps = observe(g, &clk, 4 * GIB, 0);
    assert_int_equal(ps.level, GOV_GREEN);
    assert_int_equal(ps.healthy_streak, 1);
    ps = observe(g, &clk, 4 * GIB - 1, 0);
    assert_int_equal(ps.level, GOV_YELLOW);
    assert_int_equal(ps.ceiling, 1);
    assert_int_equal(ps.healthy_streak, 0);
    gov_governor_destroy(g);
}

/* Below the hard floor (an eighth): RED at once, from GREEN. */
static void test_hard_floor_red(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_pressure_state ps;

    ps = observe(g, &clk, 2 * GIB, 0);
    assert_int_equal(ps.level, GOV_YELLOW);      /* below soft, not below hard */
    gov_governor_destroy(g);

    g = make_governor(&clk, 0);
    ps = observe(g, &clk, 12 * GIB, 0);
    assert_int_equal(ps.level, GOV_GREEN);
    ps = observe(g, &clk, 2 * GIB - 1, 0);
    assert_int_equal(ps.level, GOV_RED);
    gov_governor_destroy(g);
}

/* Swap: the first snapshot is a baseline; the first delta between two
 * snapshots gives YELLOW, a second consecutive one RED. */
static void test_swap_escalation(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_pressure_state ps;

    ps = observe(g, &clk, 12 * GIB, 1000000);   /* lots of past swapping */
    assert_int_equal(ps.level, GOV_GREEN);
    assert_int_equal(ps.swap_streak, 0);
    ps = observe(g, &clk, 12 * GIB, 1000000);
    assert_int_equal(ps.level, GOV_GREEN);
    ps = observe(g, &clk, 12 * GIB, 1000001);
    assert_int_equal(ps.level, GOV_YELLOW);
    assert_int_equal(ps.swap_streak, 1);
    ps = observe(g, &clk, 12 * GIB, 1000002);
    assert_int_equal(ps.level, GOV_RED);
    assert_int_equal(ps.swap_streak, 2);
    gov_governor_destroy(g);

    /* Not consecutive: delta, quiet, delta stays YELLOW. */
    g = make_governor(&clk, 0);
    observe(g, &clk, 12 * GIB, 10);
    ps = observe(g, &clk, 12 * GIB, 11);
    assert_int_equal(ps.level, GOV_YELLOW);
    ps = observe(g, &clk, 12 * GIB, 11);
    assert_int_equal(ps.swap_streak, 0);
    ps = observe(g, &clk, 12 * GIB, 12);
    assert_int_equal(ps.level, GOV_YELLOW);
    assert_int_equal(ps.swap_streak, 1);
    gov_governor_destroy(g);
}

/* Missing vmstat is unknown and creates no pressure; the observation is
 * healthy on the strength of the floors. */
static void test_missing_swap_no_pressure(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_pressure_state ps;

    observe(g, &clk, 12 * GIB, GOV_UNKNOWN);
    observe(g, &clk, 12 * GIB, 5);
    ps = observe(g, &clk, 12 * GIB, GOV_UNKNOWN);
    assert_int_equal(ps.level, GOV_GREEN);
    assert_int_equal(ps.healthy_streak, 3);
    assert_int_equal(ps.ceiling, 1);
    gov_governor_destroy(g);
}

/* Without any RAM evidence the floors cannot be judged: the observation
 * neither escalates nor counts as healthy. */
static void test_unknown_ram_observation_neutral(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_pressure_state ps;
    gov_snapshot s;

    ps = observe(g, &clk, 1 * GIB, 0);
    assert_int_equal(ps.level, GOV_RED);
    for (int i = 0; i < 6; i++) {
        clk.now += 10 * MS;
        s = host(&clk, GOV_UNKNOWN, 0);
        s.memory.host.total_bytes = GOV_UNKNOWN;
        s.memory.effective.limit_bytes = GOV_UNKNOWN;
        s.memory.effective.remaining_bytes = GOV_UNKNOWN;
        assert_int_equal(gov_governor_pressure(g, &s, &ps), 0);
    }
    assert_int_equal(ps.level, GOV_RED);
    assert_int_equal(ps.healthy_streak, 0);
    assert_int_equal(ps.observations, 7);
    gov_governor_destroy(g);
}

/* Recovery: three healthy observations RED -> YELLOW (not two), three more
 * YELLOW -> GREEN, ceiling 1 throughout; an unhealthy one restarts the
 * count; then each group of three doubles the ceiling up to the largest
 * batch any class allows (here 12: 1, 2, 4, 8, 12). */
static void test_recovery_and_ceiling(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = host(&clk, 1 * GIB, 0);
    gov_estimate small = make_estimate(1, 0, 0, 1, 1, 12);
    gov_estimate tiny = make_estimate(2, 0, 0, 1, 1, 4);
    const uint64_t ceilings[] = { 2, 4, 8, 12, 12 };
    uint64_t prev = 1;
    gov_pressure_state ps;
    gov_decision d;

    assert_int_equal(gov_governor_decide(g, &s, &tiny, &d), 0);
    assert_int_equal(gov_governor_decide(g, &s, &small, &d), 0);
    assert_int_equal(d.pressure, GOV_RED);
    assert_int_equal(d.verdict, GOV_ADMIT);      /* RED still admits, batch 1 */
    assert_int_equal(d.batch, 1);

    ps = observe(g, &clk, 12 * GIB, 0);
    ps = observe(g, &clk, 12 * GIB, 0);
    assert_int_equal(ps.level, GOV_RED);
    ps = observe(g, &clk, 3 * GIB, 0);           /* unhealthy: count restarts */
    assert_int_equal(ps.level, GOV_RED);
    ps = observe(g, &clk, 12 * GIB, 0);
    ps = observe(g, &clk, 12 * GIB, 0);
    assert_int_equal(ps.level, GOV_RED);
    assert_int_equal(ps.ceiling, 1);
    ps = observe(g, &clk, 12 * GIB, 0);          /* third: YELLOW, never GREEN */
    assert_int_equal(ps.level, GOV_YELLOW);
    assert_int_equal(ps.ceiling, 1);
    ps = observe(g, &clk, 12 * GIB, 0);          /* fourth: still YELLOW */
    assert_int_equal(ps.level, GOV_YELLOW);
    ps = observe(g, &clk, 12 * GIB, 0);
    assert_int_equal(ps.level, GOV_YELLOW);
    assert_int_equal(ps.ceiling, 1);
    ps = observe(g, &clk, 12 * GIB, 0);          /* sixth: GREEN */
    assert_int_equal(ps.level, GOV_GREEN);
    assert_int_equal(ps.ceiling, 1);

    for (size_t i = 0; i < sizeof ceilings / sizeof ceilings[0]; i++) {
        ps = observe(g, &clk, 12 * GIB, 0);
        assert_int_equal(ps.ceiling, prev);
        ps = observe(g, &clk, 12 * GIB, 0);
        assert_int_equal(ps.ceiling, prev);
        ps = observe(g, &clk, 12 * GIB, 0);      /* each third one doubles */
        assert_int_equal(ps.ceiling, ceilings[i]);
        prev = ceilings[i];
    }
    assert_int_equal(ps.ceiling, 12);
    s = host(&clk, 12 * GIB, 0);
    assert_int_equal(gov_governor_decide(g, &s, &small, &d), 0);
    assert_int_equal(d.batch, 12);
    assert_int_equal(gov_governor_decide(g, &s, &tiny, &d), 0);
    assert_int_equal(d.batch, 4);

    ps = observe(g, &clk, 3 * GIB, 0);           /* YELLOW again: ceiling back to 1 */
    assert_int_equal(ps.level, GOV_YELLOW);
    assert_int_equal(ps.ceiling, 1);
    gov_governor_destroy(g);
}

/* Pressure never interrupts reserved work: RED leaves reservations valid. */
static void test_red_keeps_reservations(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_snapshot s = host(&clk, 12 * GIB, 0);
    gov_estimate e = make_estimate(1, 1 * GIB, 0, 1, 1, 1);
    gov_pressure_state ps;
    gov_decision d;
    gov_reservation r;

    assert_int_equal(gov_governor_reserve(g, &s, &e, 1, &d, &r), 0);
    assert_int_equal(d.verdict, GOV_ADMIT);
    ps = observe(g, &clk, 1 * GIB, 0);
    assert_int_equal(ps.level, GOV_RED);
    assert_true(gov_governor_reservation_is_valid(g, r));
    assert_int_equal(gov_governor_release(g, r), 0);
    gov_governor_destroy(g);
}

/* Streak counters saturate at GOV_STREAK_MAX instead of wrapping. */
static void test_streaks_saturate(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor *g = make_governor(&clk, 0);
    gov_pressure_state ps;
    uint64_t n = GOV_STREAK_MAX + 10ull;

    for (uint64_t i = 0; i <= n; i++)
        ps = observe(g, &clk, 12 * GIB, i);
    assert_int_equal(ps.swap_streak, GOV_STREAK_MAX);
    assert_int_equal(ps.level, GOV_RED);
    for (uint64_t i = 0; i <= n; i++)
        ps = observe(g, &clk, 12 * GIB, n);
    assert_int_equal(ps.swap_streak, 0);
    assert_int_equal(ps.healthy_streak, GOV_STREAK_MAX);
    assert_int_equal(ps.level, GOV_GREEN);
    assert_int_equal(ps.ceiling, 1);             /* no class seen: nothing to grow to */
    gov_governor_destroy(g);
}

/* A monitor's max_batch option lets the ceiling grow before any estimate
 * is seen; estimates may still raise it further. */
static void test_max_batch_option(void **state)
{
    test_clock clk = { 10000 * MS };
    gov_governor_options o = { .clock = test_clock_read, .clock_arg = &clk, .max_batch = 4 };
    gov_governor *g = NULL;
    gov_pressure_state ps;

    assert_int_equal(gov_governor_create(&o, &g), 0);
    for (int i = 0; i < 12; i++)
        ps = observe(g, &clk, 12 * GIB, 0);
    assert_int_equal(ps.ceiling, 4);
    gov_governor_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot_age_boundary),
        cmocka_unit_test(test_snapshot_observed_once),
        cmocka_unit_test(test_soft_floor_yellow),
        cmocka_unit_test(test_hard_floor_red),
        cmocka_unit_test(test_swap_escalation),
        cmocka_unit_test(test_missing_swap_no_pressure),
        cmocka_unit_test(test_unknown_ram_observation_neutral),
        cmocka_unit_test(test_recovery_and_ceiling),
        cmocka_unit_test(test_red_keeps_reservations),
        cmocka_unit_test(test_streaks_saturate),
        cmocka_unit_test(test_max_batch_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
