/* plan.c - worker, thread and memory ceilings from a snapshot: process
 * workers times native threads (OpenMP, BLAS) stays within the effective
 * CPU capacity, and the workers share the memory. */
#include "decide.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* I/O-bound pools mostly wait; a few more than the CPU ceiling keeps the
 * device busy without a thread per request (the familiar "CPUs + 4, at most
 * 32" of Python's ThreadPoolExecutor). */
#define GOV_IO_EXTRA 4
#define GOV_IO_MAX 32

uint64_t gov__memory_task_share(const gov_snapshot *s, uint64_t v)
{
    uint64_t tasks = s->scheduler.tasks_on_node;
    int per_task = s->memory.effective.binding == GOV_LAYER_SCHEDULER &&
                   s->memory.scheduler.per_task_bytes != GOV_UNKNOWN;

    if (v == GOV_UNKNOWN || s->scheduler.source == GOV_SCHED_NONE || per_task ||
        tasks == GOV_UNKNOWN || tasks < 2)
        return v;
    return v / tasks;
}

static uint64_t per_worker(const gov_snapshot *s, uint64_t v, uint64_t workers)
{
    v = gov__memory_task_share(s, v);
    return v == GOV_UNKNOWN ? v : v / workers;
}

/* A share of v in proportion part/whole, rounded down; GOV_UNKNOWN stays. */
static uint64_t part_of(uint64_t v, uint64_t part, uint64_t whole)
{
    if (v == GOV_UNKNOWN || whole == 0)
        return GOV_UNKNOWN;
    return v / whole * part + v % whole * part / whole;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* One worker per NUMA node of the mask (GOV_PLAN_WORKERS_NUMA), sized to
 * the node's PUs (cores with per_core) within the capacity, and to its
 * share of the process's memory within the node's own. */
static int plan_numa(const gov_snapshot *s, bool per_core, double cap, uint64_t limit,
                     uint64_t remaining, gov_plan *out)
{
    const gov_snapshot_topology *t = &s->topology;
    uint64_t total = 0, used = 0, share, pus = t->task.pus;
    uint64_t threads = UINT64_MAX, memory = UINT64_MAX;

    if (t->task.numa_nodes == GOV_UNKNOWN || t->numa_count == 0 ||
        t->numa_count != t->task.numa_nodes || pus == GOV_UNKNOWN)
        return GOV_ENOENT;
    for (uint32_t i = 0; i < t->numa_count; i++)
        total += per_core ? t->numa[i].cores : t->numa[i].pus;
    share = gov__memory_task_share(s, limit);
    for (uint32_t i = 0; i < t->numa_count; i++) {
        uint64_t n = per_core ? t->numa[i].cores : t->numa[i].pus;
        uint64_t mem = part_of(share, t->numa[i].pus, pus);
        if (cap < (double)total)
            n = (uint64_t)floor((double)n * cap / (double)total);
        n = n ? n : 1;
        if (mem != GOV_UNKNOWN && t->numa[i].local_memory_bytes != GOV_UNKNOWN)
            mem = min_u64(mem, t->numa[i].local_memory_bytes);
        out->worker[i].threads = n;
        out->worker[i].memory_limit_bytes = mem;
        threads = min_u64(threads, n);
        memory = min_u64(memory, mem);
        used += n;
    }
    out->numa_workers = t->numa_count;
    out->workers = t->numa_count;
    out->oversubscribed = out->workers > out->cpu_workers;
    out->threads_per_worker = threads;
    out->memory_limit_per_worker = memory;
    /* Free is never above the limit: a NUMA node's memory bounds its
     * worker whatever is free on the host. */
    out->memory_remaining_per_worker =
        min_u64(per_worker(s, remaining, out->workers), memory);
    if (per_core)
        out->idle_pus = pus > used ? pus - used : 0;
    return 0;
}

static uint64_t sub_known(uint64_t v, uint64_t r)
{
    if (v == GOV_UNKNOWN)
        return v;
    return v > r ? v - r : 0;
}

int gov_plan_compute(const gov_snapshot *snap, uint64_t requested_workers, unsigned flags,
                     gov_plan *out)
{
    double cap;
    uint64_t ceiling, pus, limit, remaining;
    bool per_core;
    gov_reserve r;

    if (!snap || !out || (flags & ~(GOV_PLAN_PER_CORE | GOV_PLAN_WORKERS_NUMA)))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    out->flags = flags;
    out->cores = snap->topology.task.cores;
    out->numa_nodes = snap->topology.task.numa_nodes;
    pus = snap->topology.task.pus;
    cap = snap->cpu.effective.capacity_cores;
    /* With no CPU evidence at all, one worker is the only safe ceiling. */
    ceiling = snap->cpu.effective.workers;
    if (ceiling == GOV_UNKNOWN || ceiling == 0)
        ceiling = 1;
    if (isnan(cap) || cap < 1.0)
        cap = 1.0;
    /* What the governor keeps back (the interactive profile's quarter, the
     * site's reserves) the plan keeps back too, so that plan, run and
     * watch agree; never below one thread. */
    gov__reserve_compute(snap, NULL, &r);
    out->reserve_threads = r.threads;
    out->reserve_memory_bytes = r.ram;
    if (r.threads) {
        ceiling = ceiling > r.threads ? ceiling - r.threads : 1;
        cap = cap - (double)r.threads >= 1.0 ? cap - (double)r.threads : 1.0;
    }
    limit = sub_known(snap->memory.effective.limit_bytes, r.ram);
    remaining = sub_known(snap->memory.effective.remaining_bytes, r.ram);
    /* One thread per physical core: SMT siblings share a core's units, and
     * codes that fill them (BLAS, OpenMP loops) lose with two threads. */
    per_core = (flags & GOV_PLAN_PER_CORE) && out->cores != GOV_UNKNOWN && out->cores > 0;
    if (per_core && (double)out->cores < cap) {
        cap = (double)out->cores;
        ceiling = min_u64(ceiling, out->cores);
    }

    out->cpu_workers = ceiling;
    /* One process using the whole allocation unless a pool is asked for:
     * OMP_NUM_THREADS and its kin count the threads of one process. */
    out->workers = requested_workers ? requested_workers : 1;
    out->oversubscribed = out->workers > ceiling;
    out->threads_per_worker = (uint64_t)floor(cap / (double)out->workers);
    if (out->threads_per_worker < 1)
        out->threads_per_worker = 1;
    out->io_workers = ceiling + GOV_IO_EXTRA < GOV_IO_MAX ? ceiling + GOV_IO_EXTRA : GOV_IO_MAX;
    out->memory_limit_per_worker = per_worker(snap, limit, out->workers);
    out->memory_remaining_per_worker = per_worker(snap, remaining, out->workers);
    if (per_core && pus != GOV_UNKNOWN && pus > out->workers * out->threads_per_worker)
        out->idle_pus = pus - out->workers * out->threads_per_worker;
    if (flags & GOV_PLAN_WORKERS_NUMA)
        return plan_numa(snap, per_core, cap, limit, remaining, out);
    return 0;
}
