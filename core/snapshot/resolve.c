/* resolve.c - combine a snapshot's layers into effective values, the binding
 * layer and enforcement (docs/snapshot.md, "How the layers combine").  Pure
 * functions of the snapshot: they read no files. */
#include "snapshot_base.h"

#include <math.h>

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    if (a == GOV_UNKNOWN || b == GOV_UNKNOWN)
        return GOV_UNKNOWN;
    if (__builtin_mul_overflow(a, b, &r) || r == GOV_UNKNOWN)
        return GOV_UNKNOWN - 1;
    return r;
}

/* Take a candidate bound when it is known and strictly below the current
 * one: on ties the layer considered first keeps the binding. */
static void take_f(double *best, gov_layer *binding, double v, gov_layer layer)
{
    if (isnan(v))
        return;
    if (isnan(*best) || v < *best) {
        *best = v;
        *binding = layer;
    }
}

static void take_u(uint64_t *best, gov_layer *binding, uint64_t v, gov_layer layer)
{
    if (v == GOV_UNKNOWN)
        return;
    if (*best == GOV_UNKNOWN || v < *best) {
        *best = v;
        *binding = layer;
    }
}

static double as_f(uint64_t v)
{
    return v == GOV_UNKNOWN ? NAN : (double)v;
}

bool gov__scheduler_vouched(const gov_snapshot *s)
{
    return s->scheduler.source == GOV_SCHED_DESCRIPTOR &&
           s->descriptor.status == GOV_DESCRIPTOR_VERIFIED &&
           !(s->descriptor.unchecked & GOV_BINDING_MAKER_BITS);
}

/* A cgroup namespace of its own hides the cgroups above its root, where
 * Slurm puts the step's limits: what is visible is not all that holds the
 * process. */
static bool cgroups_hidden(const gov_snapshot *s)
{
    return s->descriptor.namespaces & (1u << GOV_NAMESPACE_CGROUP);
}

/* The host's inventory bounds the budget, but where the cgroups are hidden:
 * a limit above the visible root may be lower, so an effective figure of the
 * host's would claim it binds (docs/snapshot.md); vouched-for facts are the
 * budget there, and without a scheduler bound it is unknown.  A bound a
 * user may have made (the variables, a descriptor whose maker went
 * unchecked), sched, is still held to the host: a forged terabyte is not
 * the budget. */
static bool host_bounds(const gov_snapshot *s, bool sched_known)
{
    return !cgroups_hidden(s) || (sched_known && !gov__scheduler_vouched(s));
}

/* The scheduler's per-process CPU bound: the task's share of the step's
 * CPUs on the node.  That is cpus-per-task, or more where the step holds
 * more CPUs on the node than its tasks there ask (an salloc -c2
 * allocation, srun without -c: Slurm 22.05's srun seals one CPU a task,
 * and gives the step, and binds the task to, both); the kernel's layers
 * still bound it.  Without cpus-per-task the node's CPUs, which bound
 * every process on the node (exact when it runs one task, a shared upper
 * bound otherwise). */
static uint64_t sched_cpus(const gov_snapshot *s)
{
    const gov_snapshot_scheduler *k = &s->scheduler;
    uint64_t share;

    if (k->source == GOV_SCHED_NONE)
        return GOV_UNKNOWN;
    if (k->cpus_per_task == GOV_UNKNOWN)
        return k->cpus_on_node;
    if (k->cpus_on_node == GOV_UNKNOWN || k->tasks_on_node == GOV_UNKNOWN ||
        k->tasks_on_node == 0)
        return k->cpus_per_task;
    share = k->cpus_on_node / k->tasks_on_node;
    return share > k->cpus_per_task ? share : k->cpus_per_task;
}

static void resolve_cpu(gov_snapshot *s)
{
    double cap = NAN;
    gov_layer binding = GOV_LAYER_NONE;

    s->cpu.scheduler.cpus = sched_cpus(s);
    /* Kernel-enforced layers first, so a tie names what actually holds. */
    take_f(&cap, &binding, as_f(s->cpu.affinity.count), GOV_LAYER_AFFINITY);
    take_f(&cap, &binding, as_f(s->cpu.cgroup.cpuset_count), GOV_LAYER_CPUSET);
    take_f(&cap, &binding, s->cpu.cgroup.quota_cores, GOV_LAYER_QUOTA);
    take_f(&cap, &binding, as_f(s->cpu.scheduler.cpus), GOV_LAYER_SCHEDULER);
    if (host_bounds(s, s->cpu.scheduler.cpus != GOV_UNKNOWN))
        take_f(&cap, &binding, as_f(s->cpu.host.logical), GOV_LAYER_HOST);
    s->cpu.effective.capacity_cores = cap;
    s->cpu.effective.binding = binding;
    if (isnan(cap))
        s->cpu.effective.workers = GOV_UNKNOWN;
    else
        s->cpu.effective.workers = cap < 1.0 ? 1 : (uint64_t)floor(cap);
}

static void resolve_memory(gov_snapshot *s)
{
    uint64_t limit = GOV_UNKNOWN, remaining = GOV_UNKNOWN, sched;
    gov_layer binding = GOV_LAYER_NONE, unused = GOV_LAYER_NONE;

    if (s->scheduler.source != GOV_SCHED_NONE) {
        uint64_t per_node = s->scheduler.mem_per_node_bytes;
        /* With --mem-per-cpu Slurm gives the node per-CPU memory times its CPUs. */
        if (per_node == GOV_UNKNOWN)
            per_node = mul_sat(s->scheduler.mem_per_cpu_bytes, s->scheduler.cpus_on_node);
        s->memory.scheduler.limit_bytes = per_node;
        /* Per CPU of the task's own share: a task that holds more CPUs than
         * cpus-per-task (srun -n1 in an sbatch -n2 allocation) holds their
         * memory too, as the step's cgroup limit shows. */
        s->memory.scheduler.per_task_bytes =
            mul_sat(s->scheduler.mem_per_cpu_bytes, s->cpu.scheduler.cpus);
    }
    sched = s->memory.scheduler.per_task_bytes != GOV_UNKNOWN
                ? s->memory.scheduler.per_task_bytes
                : s->memory.scheduler.limit_bytes;

    take_u(&limit, &binding, s->memory.cgroup.limit_bytes, GOV_LAYER_CGROUP);
    take_u(&limit, &binding, s->memory.cgroup.high_bytes, GOV_LAYER_CGROUP);
    take_u(&limit, &binding, sched, GOV_LAYER_SCHEDULER);
    if (host_bounds(s, sched != GOV_UNKNOWN))
        take_u(&limit, &binding, s->memory.host.total_bytes, GOV_LAYER_HOST);
    s->memory.effective.limit_bytes = limit;
    s->memory.effective.binding = binding;

    /* Remaining is measured against the working set: the kernel reclaims
     * clean inactive file cache before it would OOM-kill (docs/snapshot.md). */
    take_u(&remaining, &unused, s->memory.cgroup.planning_remaining_bytes, GOV_LAYER_CGROUP);
    if (sched != GOV_UNKNOWN) {
        /* The scheduler bound has no usage of its own; the binding cgroup
         * level's working set, when known, is what the allocation holds. */
        uint64_t used = s->memory.cgroup.working_set_bytes;
        uint64_t left = used == GOV_UNKNOWN ? sched : (used >= sched ? 0 : sched - used);
        take_u(&remaining, &unused, left, GOV_LAYER_SCHEDULER);
    }
    /* Hidden or not, the host's free memory bounds what is left; it only
     * stands alone where the limit is known. */
    if (limit != GOV_UNKNOWN)
        take_u(&remaining, &unused, s->memory.host.available_bytes, GOV_LAYER_HOST);
    if (remaining != GOV_UNKNOWN && limit != GOV_UNKNOWN && remaining > limit)
        remaining = limit;
    s->memory.effective.remaining_bytes = remaining;
}

/* GPUs: the process's own view of the device nodes, against the grant. */
static void resolve_gpu_enforcement(gov_snapshot *s)
{
    gov_gpu_nodes nvidia = { s->accel.nvidia_dev_nodes, s->accel.nvidia_dev_usable,
                             s->accel.nvidia_dev_denied };
    gov_gpu_nodes render = { s->accel.drm_render_nodes, s->accel.drm_render_usable,
                             s->accel.drm_render_denied };
    uint64_t grant = s->scheduler.source == GOV_SCHED_NONE ? GOV_UNKNOWN
                                                           : s->scheduler.gpus_on_node;

    s->enforcement.gpu = gov__gpu_enforcement(grant, gov__gpu_kind(&nvidia, &render),
                                              s->accel.devices_confined);
}

/* A share of a GPU: an AMD card in a compute partition mode is a partition
 * of its GPU (its VRAM figures the partition's); the share's memory from
 * the card's where the grant did not give it; and whether anything holds
 * the tasks to the share.  Whole GPUs are held as they are granted. */
static void resolve_gpu_share(gov_snapshot *s)
{
    gov_snapshot_scheduler *sc = &s->scheduler;
    const gov_snapshot_accel *a = &s->accel;
    uint64_t vram = a->gpu_unified == 1 ? GOV_UNKNOWN : a->gpu_vram_total_bytes;

    if (sc->gpu_share_kind == GOV_GPU_SHARE_GPU && a->gpu_partitions != GOV_UNKNOWN &&
        a->gpu_partitions > 1) {
        sc->gpu_share_kind = GOV_GPU_SHARE_PARTITION;
        sc->gpu_share = 1.0 / (double)a->gpu_partitions;
    }
    if (sc->gpu_memory_bytes == GOV_UNKNOWN && vram != GOV_UNKNOWN && gov_known_f(sc->gpu_share))
        sc->gpu_memory_bytes = sc->gpu_share_kind == GOV_GPU_SHARE_SHARD ||
                                       sc->gpu_share_kind == GOV_GPU_SHARE_MPS
                                   ? (uint64_t)(sc->gpu_share * (double)vram)
                                   : vram;
    switch (sc->gpu_share_kind) {
    case GOV_GPU_SHARE_NONE:
        s->enforcement.gpu_share = GOV_ENFORCEMENT_UNKNOWN;
        break;
    case GOV_GPU_SHARE_SHARD:
        s->enforcement.gpu_share = GOV_NOT_ENFORCED;   /* Slurm: shards do not fence */
        break;
    case GOV_GPU_SHARE_MPS:
        /* MPS holds a client's compute to its thread percentage; its memory
         * only under a pinned limit. */
        s->enforcement.gpu_share = a->mps_pinned_limit == 1 ? GOV_ENFORCED : GOV_NOT_ENFORCED;
        break;
    default:
        /* The hardware isolates a MIG instance or a partition, once the
         * device cgroup holds the process to it. */
        s->enforcement.gpu_share = s->enforcement.gpu;
        break;
    }
}

unsigned gov__cpu_held(const gov_snapshot *s)
{
    uint64_t cpus = s->cpu.scheduler.cpus;
    unsigned held = 0;

    if (cpus == GOV_UNKNOWN)
        return 0;
    /* Kept apart because they differ in strength: a process may widen its
     * own affinity within its cpuset, never the cpuset or the quota. */
    if (s->cpu.affinity.count != GOV_UNKNOWN && s->cpu.affinity.count <= cpus)
        held |= 1u << GOV_LAYER_AFFINITY;
    if (s->cpu.cgroup.cpuset_count != GOV_UNKNOWN && s->cpu.cgroup.cpuset_count <= cpus)
        held |= 1u << GOV_LAYER_CPUSET;
    if (!isnan(s->cpu.cgroup.quota_cores) && s->cpu.cgroup.quota_cores <= (double)cpus)
        held |= 1u << GOV_LAYER_QUOTA;
    return held;
}

/* Levels above a cgroup namespace's root are unseen: "no level limits"
 * cannot be said of them, nor "nothing holds" of the process. */
static void resolve_hidden(gov_snapshot *s)
{
    if (!cgroups_hidden(s))
        return;
    if (s->cpu.cgroup.quota_status == GOV_LIMIT_UNLIMITED)
        s->cpu.cgroup.quota_status = GOV_LIMIT_UNKNOWN;
    if (s->memory.cgroup.status == GOV_LIMIT_UNLIMITED)
        s->memory.cgroup.status = GOV_LIMIT_UNKNOWN;
    if (s->enforcement.cpu == GOV_NOT_ENFORCED)
        s->enforcement.cpu = GOV_ENFORCEMENT_UNKNOWN;
    if (s->enforcement.memory == GOV_NOT_ENFORCED)
        s->enforcement.memory = GOV_ENFORCEMENT_UNKNOWN;
}

/* Slurm enforces memory per step and node, never per task: the step's
 * memory on the node is the allocation a hard limit is held to; a task's
 * per-CPU share is a planning figure within it. */
uint64_t gov__memory_allocation(const gov_snapshot *s)
{
    return s->memory.scheduler.limit_bytes != GOV_UNKNOWN ? s->memory.scheduler.limit_bytes
                                                          : s->memory.scheduler.per_task_bytes;
}

static void resolve_enforcement(gov_snapshot *s)
{
    uint64_t cpus = s->cpu.scheduler.cpus;
    uint64_t mem = gov__memory_allocation(s);

    if (cpus == GOV_UNKNOWN)
        s->enforcement.cpu = GOV_ENFORCEMENT_UNKNOWN;
    else
        s->enforcement.cpu = gov__cpu_held(s) ? GOV_ENFORCED : GOV_NOT_ENFORCED;
    resolve_gpu_enforcement(s);
    resolve_gpu_share(s);
    if (mem == GOV_UNKNOWN) {
        s->enforcement.memory = GOV_ENFORCEMENT_UNKNOWN;
    } else {
        /* memory.high throttles but can be breached: only a hard limit holds. */
        bool held = s->memory.cgroup.limit_bytes != GOV_UNKNOWN &&
                    s->memory.cgroup.limit_bytes <= mem;
        s->enforcement.memory = held ? GOV_ENFORCED : GOV_NOT_ENFORCED;
    }
}

gov_profile gov__default_profile(const gov_snapshot *s)
{
    return s->scheduler.source != GOV_SCHED_NONE ? GOV_PROFILE_BATCH : GOV_PROFILE_INTERACTIVE;
}

void gov_snapshot_resolve(gov_snapshot *snap)
{
    if (!snap)
        return;
    if (!snap->policy.present)
        snap->policy.profile = gov__default_profile(snap);
    resolve_cpu(snap);
    resolve_memory(snap);
    resolve_enforcement(snap);
    resolve_hidden(snap);
}
