/* admission_budget.c - the budget a snapshot and the policies allow, and the
 * admission rules applied to it (docs/governor.md, "Budget" and "Decisions"). */
#include "admission/admission.h"
#include "decide.h"

static uint64_t sub_sat(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

void gov__budget_compute(const gov_snapshot *snap, const gov_policy *caller,
                         uint64_t io_slots, gov_budget *out)
{
    uint64_t physical = snap->memory.host.total_bytes;
    uint64_t limit = snap->memory.effective.limit_bytes;
    gov_reserve r;

    gov__reserve_compute(snap, caller, &r);
    out->profile = r.profile;
    out->detected_ram = r.detected_ram;
    out->detected_threads = r.detected_threads;
    out->ram_reserve = r.ram;
    out->thread_reserve = r.threads;
    out->observed_free =
        gov__min_known(gov__min_known(snap->memory.host.available_bytes, physical),
                       gov__min_known(snap->memory.effective.remaining_bytes, limit));
    out->ram_capacity = out->detected_ram == GOV_UNKNOWN
        ? GOV_UNKNOWN : sub_sat(out->detected_ram, out->ram_reserve);
    out->thread_capacity = out->detected_threads == GOV_UNKNOWN
        ? GOV_UNKNOWN : sub_sat(out->detected_threads, out->thread_reserve);
    out->io_capacity = io_slots;
    /* A verified grant of none outranks a card the node happens to show (a
     * display GPU no device cgroup lists, say). */
    out->gpu_capacity = snap->accel.gpu_index >= 0 &&
                        !(snap->scheduler.gpus_verified && snap->scheduler.gpus_on_node == 0);
    out->gpu_unified = snap->accel.gpu_unified == 1;
    out->gpu_total = out->gpu_capacity && !out->gpu_unified
        ? snap->accel.gpu_vram_total_bytes : GOV_UNKNOWN;
    /* A share of the card (a shard, an MPS client) is its share's memory,
     * not the card's; what others use of the card still counts against
     * it (gpu_used is the card's). */
    if (out->gpu_total != GOV_UNKNOWN &&
        (snap->scheduler.gpu_share_kind == GOV_GPU_SHARE_SHARD ||
         snap->scheduler.gpu_share_kind == GOV_GPU_SHARE_MPS))
        out->gpu_total = gov__min_known(out->gpu_total, snap->scheduler.gpu_memory_bytes);
    out->gpu_used = out->gpu_capacity && !out->gpu_unified
        ? snap->accel.gpu_vram_used_bytes : GOV_UNKNOWN;
}

uint64_t gov__budget_free_ram(const gov_budget *b, const gov_usage *u)
{
    if (b->observed_free == GOV_UNKNOWN)
        return GOV_UNKNOWN;
    return sub_sat(sub_sat(b->observed_free, b->ram_reserve), u->ram_bytes);
}

uint64_t gov__budget_free_threads(const gov_budget *b, const gov_usage *u)
{
    if (b->thread_capacity == GOV_UNKNOWN)
        return GOV_UNKNOWN;
    return sub_sat(b->thread_capacity, u->threads);
}

uint64_t gov__budget_free_gpu_bytes(const gov_budget *b, const gov_usage *u)
{
    if (b->gpu_total == GOV_UNKNOWN || b->gpu_used == GOV_UNKNOWN)
        return GOV_UNKNOWN;
    return sub_sat(sub_sat(b->gpu_total, b->gpu_used), u->gpu_bytes);
}

uint64_t gov__batch_bytes(uint64_t fixed, uint64_t per_item, uint64_t n)
{
    uint64_t items;

    if (per_item && n > UINT64_MAX / per_item)
        return UINT64_MAX;
    items = per_item * n;
    return items > UINT64_MAX - fixed ? UINT64_MAX : fixed + items;
}

/* Largest n in [lo, hi] with fixed + n * per_item <= limit (lo fits). */
static uint64_t largest_fit(uint64_t fixed, uint64_t per_item, uint64_t limit,
                            uint64_t lo, uint64_t hi)
{
    uint64_t n;

    if (per_item == 0 || limit == GOV_UNKNOWN)
        return hi;
    n = (limit - fixed) / per_item;
    return n < lo ? lo : (n > hi ? hi : n);
}

static void verdict(gov_decision *out, gov_verdict v, gov_reason r)
{
    out->verdict = v;
    out->reason = r;
}

static bool psi_at_least(double v, double gate) { return gov_known_f(v) && v >= gate; }

bool gov__psi_gate_closed(const gov_snapshot *snap)
{
    return psi_at_least(snap->pressure.cpu_some_avg10, GOV_PSI_CPU_GATE_PCT) ||
           psi_at_least(snap->pressure.memory_some_avg10, GOV_PSI_MEMORY_GATE_PCT);
}

void gov__budget_decide(const gov_budget *b, const gov_usage *u,
                        const gov_snapshot *snap, const gov_estimate *est,
                        uint64_t per_item, uint64_t ceiling, uint64_t want,
                        gov_decision *out)
{
    bool discrete = est->gpu_slots == 1 && !b->gpu_unified;
    uint64_t lo = want ? want : est->batch_min;
    uint64_t need = gov__batch_bytes(est->fixed_bytes, per_item, lo);
    uint64_t free_ram, free_threads, free_gpu, hi, n;

    out->batch = out->threads = out->ram_bytes = 0;
    out->bytes_per_item = per_item;
    out->ram_needed_bytes = need;
    out->ram_free_bytes = gov__budget_free_ram(b, u);

    /* Never: the estimate exceeds the whole budget, even with nothing held. */
    if (est->gpu_slots > b->gpu_capacity)
        return verdict(out, GOV_REJECT, GOV_REASON_GPU);
    if (est->io_slots > b->io_capacity)
        return verdict(out, GOV_REJECT, GOV_REASON_IO);
    if (est->cpu_threads && b->thread_capacity == 0)
        return verdict(out, GOV_REJECT, GOV_REASON_CPU);
    if (need && b->ram_capacity != GOV_UNKNOWN && need > b->ram_capacity)
        return verdict(out, GOV_REJECT, GOV_REASON_RAM);
    if (discrete && need && b->gpu_total != GOV_UNKNOWN && need > b->gpu_total)
        return verdict(out, GOV_REJECT, GOV_REASON_GPU_MEMORY);

    /* Not now: pressure gates new admissions (never reserved work). */
    if (psi_at_least(snap->pressure.cpu_some_avg10, GOV_PSI_CPU_GATE_PCT))
        return verdict(out, GOV_WAIT, GOV_REASON_CPU_PRESSURE);
    if (psi_at_least(snap->pressure.memory_some_avg10, GOV_PSI_MEMORY_GATE_PCT))
        return verdict(out, GOV_WAIT, GOV_REASON_MEMORY_PRESSURE);

    if (est->gpu_slots && u->gpu_slots + est->gpu_slots > b->gpu_capacity)
        return verdict(out, GOV_WAIT, GOV_REASON_GPU);
    if (est->io_slots && u->io_slots + est->io_slots > b->io_capacity)
        return verdict(out, GOV_WAIT, GOV_REASON_IO);
    free_threads = gov__budget_free_threads(b, u);
    if (est->cpu_threads && (free_threads == GOV_UNKNOWN || free_threads == 0))
        return verdict(out, GOV_WAIT, GOV_REASON_CPU);
    if (lo > ceiling)
        return verdict(out, GOV_WAIT, GOV_REASON_BATCH_CEILING);

    free_ram = out->ram_free_bytes;
    free_gpu = gov__budget_free_gpu_bytes(b, u);
    if (need) {
        if (free_ram == GOV_UNKNOWN)
            return verdict(out, GOV_WAIT, GOV_REASON_RAM_UNKNOWN);
        if (need > free_ram)
            return verdict(out, GOV_WAIT, GOV_REASON_RAM);
        if (discrete && (free_gpu == GOV_UNKNOWN || need > free_gpu))
            return verdict(out, GOV_WAIT, GOV_REASON_GPU_MEMORY);
    }

    if (want) {
        n = want;
    } else {
        hi = est->batch_max < ceiling ? est->batch_max : ceiling;
        n = largest_fit(est->fixed_bytes, per_item, free_ram, lo, hi);
        if (discrete)
            n = largest_fit(est->fixed_bytes, per_item, free_gpu, lo, n);
    }
    verdict(out, GOV_ADMIT, GOV_REASON_NONE);
    out->batch = n;
    out->threads = est->cpu_threads < free_threads ? est->cpu_threads : free_threads;
    out->ram_bytes = gov__batch_bytes(est->fixed_bytes, per_item, n);
}
