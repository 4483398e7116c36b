/* admission_pressure.c - GREEN/YELLOW/RED with the seed's hysteresis, and the
 * batch ceiling (docs/governor.md, "Pressure"). */
#include "admission/admission.h"

static uint32_t inc_sat(uint32_t v) { return v < GOV_STREAK_MAX ? v + 1 : v; }

void gov__pressure_init(gov_pressure_sm *sm)
{
    *sm = (gov_pressure_sm){ .level = GOV_GREEN, .ceiling = 1, .last_swap = GOV_UNKNOWN };
}

void gov__pressure_note_batch_max(gov_pressure_sm *sm, uint64_t batch_max)
{
    if (batch_max > sm->largest_batch)
        sm->largest_batch = batch_max;
}

static uint64_t swap_total(const gov_snapshot *snap)
{
    uint64_t in = snap->pressure.swap_in_pages, out = snap->pressure.swap_out_pages;

    if (in == GOV_UNKNOWN || out == GOV_UNKNOWN || in > UINT64_MAX - 1 - out)
        return GOV_UNKNOWN;
    return in + out;
}

bool gov__pressure_observe(gov_pressure_sm *sm, const gov_snapshot *snap,
                           const gov_budget *b)
{
    gov_pressure_level old_level = sm->level, signal = GOV_GREEN;
    uint64_t old_ceiling = sm->ceiling, swap = swap_total(snap);
    bool delta, floors_known;

    /* Only a snapshot newer than the last one is new evidence: the same
     * snapshot presented to decide and then reserve counts once. */
    if (sm->have_last && snap->captured_ns <= sm->last_ns)
        return false;
    /* The first snapshot is only a baseline for swap activity; a counter
     * that went backwards (or is unknown) is a new baseline too. */
    delta = sm->have_last && sm->last_swap != GOV_UNKNOWN && swap != GOV_UNKNOWN &&
            swap > sm->last_swap;
    sm->have_last = true;
    sm->last_ns = snap->captured_ns;
    sm->last_swap = swap;
    if (sm->observations < UINT64_MAX)
        sm->observations++;
    sm->swap_streak = delta ? inc_sat(sm->swap_streak) : 0;

    floors_known = b->detected_ram != GOV_UNKNOWN && b->observed_free != GOV_UNKNOWN;
    sm->last_ram_unknown = !floors_known;
    sm->last_gated = gov__psi_gate_closed(snap);
    if (floors_known) {
        if (b->observed_free < b->detected_ram / 8)
            signal = GOV_RED;
        else if (b->observed_free < b->detected_ram / 4)
            signal = GOV_YELLOW;
    }
    if (sm->swap_streak >= 2)
        signal = GOV_RED;
    else if (sm->swap_streak == 1 && signal == GOV_GREEN)
        signal = GOV_YELLOW;

    if (signal != GOV_GREEN) {
        if (signal > sm->level)
            sm->level = signal;
        sm->step = 0;
        sm->healthy_streak = 0;
        sm->ceiling = 1;
    } else if (floors_known && !sm->last_gated) {
        /* Healthy.  Without RAM evidence an observation is neither healthy
         * nor unhealthy: unknown never counts as good news.  Nor is one
         * whose PSI holds new admissions: the ceiling does not grow while
         * nothing new may start, and what is held is not reset. */
        sm->healthy_streak = inc_sat(sm->healthy_streak);
        if (++sm->step == GOV_RECOVERY_STEP) {
            sm->step = 0;
            if (sm->level == GOV_RED)
                sm->level = GOV_YELLOW;
            else if (sm->level == GOV_YELLOW)
                sm->level = GOV_GREEN;
            else if (sm->ceiling < sm->largest_batch)
                sm->ceiling = sm->ceiling > sm->largest_batch / 2
                    ? sm->largest_batch : sm->ceiling * 2;
        }
    }
    return sm->level != old_level || sm->ceiling != old_ceiling;
}

gov_ceiling_reason gov__pressure_ceiling_reason(const gov_pressure_sm *sm)
{
    if (sm->level != GOV_GREEN)
        return GOV_CEILING_PRESSURE;
    if (!sm->have_last)
        return GOV_CEILING_NO_OBSERVATION;
    if (sm->last_ram_unknown)
        return GOV_CEILING_RAM_UNKNOWN;
    if (sm->last_gated)
        return GOV_CEILING_GATED;
    return sm->ceiling >= sm->largest_batch ? GOV_CEILING_LARGEST : GOV_CEILING_GROWING;
}
