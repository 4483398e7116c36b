/* plan.c - worker, thread and memory ceilings from a snapshot: process
 * workers times native threads (OpenMP, BLAS) stays within the effective
 * CPU capacity, and the workers share the memory. */
#include "governor.h"

#include <math.h>
#include <string.h>

/* I/O-bound pools mostly wait; a few more than the CPU ceiling keeps the
 * device busy without a thread per request (the familiar "CPUs + 4, at most
 * 32" of Python's ThreadPoolExecutor). */
#define GOV_IO_EXTRA 4
#define GOV_IO_MAX 32

/* This process's share of a memory figure: a step's memory on a node (and
 * the cgroup Slurm puts around it) is shared by the step's local tasks,
 * unless it was allocated per task (per-CPU memory) and that figure binds. */
static uint64_t task_share(const gov_snapshot *s, uint64_t v)
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
    v = task_share(s, v);
    return v == GOV_UNKNOWN ? v : v / workers;
}

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
    /* One process using the whole allocation unless a pool is asked for:
     * OMP_NUM_THREADS and its kin count the threads of one process. */
    out->workers = requested_workers ? requested_workers : 1;
    out->oversubscribed = out->workers > ceiling;
    out->threads_per_worker = (uint64_t)floor(cap / (double)out->workers);
    if (out->threads_per_worker < 1)
        out->threads_per_worker = 1;
    out->io_workers = ceiling + GOV_IO_EXTRA < GOV_IO_MAX ? ceiling + GOV_IO_EXTRA : GOV_IO_MAX;
    out->memory_limit_per_worker =
        per_worker(snap, snap->memory.effective.limit_bytes, out->workers);
    out->memory_remaining_per_worker =
        per_worker(snap, snap->memory.effective.remaining_bytes, out->workers);
    return 0;
}
