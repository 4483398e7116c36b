/* reserve.c - the profile in force and what it, the site and the caller
 * keep back (docs/governor.md, "Budget" and "Profiles"). */
#include "decide.h"
#include "snapshot_base.h"
#include "base.h"

uint64_t gov__min_known(uint64_t a, uint64_t b)
{
    if (a == GOV_UNKNOWN)
        return b;
    if (b == GOV_UNKNOWN)
        return a;
    return a < b ? a : b;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* pct % of whole, rounded down; pct is at most 100 so this cannot overflow
 * in the quotient form used. */
static uint64_t pct_of(uint64_t whole, uint32_t pct)
{
    if (whole == GOV_UNKNOWN || pct == 0)
        return 0;
    if (pct >= 100)
        return whole;
    return whole / 100 * pct + whole % 100 * pct / 100;
}

/* The site may impose a profile; the caller may only choose the stricter
 * one.  Without a site policy the default rule applies. */
static gov_profile pick_profile(const gov_snapshot *snap, const gov_policy *caller)
{
    const gov_site_policy *site = &snap->policy;
    gov_profile base = site->present ? site->profile : gov__default_profile(snap);

    if (site->present && site->profile_imposed) {
        if (caller->profile_set && caller->profile == GOV_PROFILE_INTERACTIVE)
            return GOV_PROFILE_INTERACTIVE;
        return site->profile;
    }
    return caller->profile_set ? caller->profile : base;
}

static uint64_t reserve_of(uint64_t detected, gov_profile profile,
                           uint64_t site_abs, uint32_t site_pct, bool site_present,
                           uint64_t caller_abs, uint32_t caller_pct)
{
    uint64_t r = 0;

    if (profile == GOV_PROFILE_INTERACTIVE && detected != GOV_UNKNOWN)
        r = detected / 4;
    if (site_present) {
        if (site_abs != GOV_UNKNOWN)
            r = max_u64(r, site_abs);
        r = max_u64(r, pct_of(detected, site_pct));
    }
    if (caller_abs != GOV_UNKNOWN)
        r = max_u64(r, caller_abs);
    return max_u64(r, pct_of(detected, caller_pct));
}

void gov__reserve_compute(const gov_snapshot *snap, const gov_policy *caller,
                          gov_reserve *out)
{
    static const gov_policy none = {
        .mem_reserve_bytes = GOV_UNKNOWN, .cpu_reserve_threads = GOV_UNKNOWN,
    };
    const gov_site_policy *site = &snap->policy;
    uint64_t workers = snap->cpu.effective.workers;

    if (!caller)
        caller = &none;
    /* Detected RAM and threads are the step's effective values (a quarter
     * of a 24 GiB host is no floor for a 4 GiB step), falling back to the
     * host's when no effective value is known. */
    out->detected_ram = gov__min_known(snap->memory.host.total_bytes,
                                  snap->memory.effective.limit_bytes);
    out->detected_threads = (workers != GOV_UNKNOWN && workers > 0)
        ? workers : (snap->cpu.host.logical ? snap->cpu.host.logical : GOV_UNKNOWN);
    out->profile = pick_profile(snap, caller);
    out->ram = reserve_of(out->detected_ram, out->profile,
                          site->mem_reserve_bytes, site->mem_reserve_pct,
                          site->present, caller->mem_reserve_bytes,
                          caller->mem_reserve_pct);
    out->threads = reserve_of(out->detected_threads, out->profile,
                              site->cpu_reserve_threads, site->cpu_reserve_pct,
                              site->present, caller->cpu_reserve_threads,
                              caller->cpu_reserve_pct);
}
