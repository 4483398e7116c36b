/* assemble.c - the snapshot from one side's evidence (assemble.h): each
 * part copied, the scheduler part from a verified descriptor or the
 * variables, then resolved. */
#include "assemble.h"
#include "snapshot_base.h"

#include <string.h>

static uint64_t mib_to_bytes(uint64_t mib)
{
    if (mib == GOV_UNKNOWN || mib == 0 || mib > UINT64_MAX / (1024 * 1024))
        return GOV_UNKNOWN;
    return mib * 1024 * 1024;
}

/* GPUs of the node the task may use that sit on one of its NUMA nodes.
 * The descriptor lists every GPU of the node with its NUMA node, not which
 * of them the task holds: known only when it verifiably holds all of them
 * (or the node has none). */
static uint64_t gpus_local(const gov_desc_topology *t, const gov_snapshot *s)
{
    uint64_t n = 0;

    if (!t->present || s->topology.task.numa_nodes == GOV_UNKNOWN ||
        s->topology.numa_count != s->topology.task.numa_nodes)
        return GOV_UNKNOWN;
    if (t->gpu_count == 0)
        return 0;
    if (!s->scheduler.gpus_verified || s->scheduler.gpus_on_node != t->gpu_count)
        return GOV_UNKNOWN;
    for (uint32_t g = 0; g < t->gpu_count; g++)
        for (uint32_t i = 0; i < s->topology.numa_count; i++)
            if (t->gpu_numa[g] >= 0 && (uint32_t)t->gpu_numa[g] == s->topology.numa[i].os_index) {
                n++;
                break;
            }
    return n;
}

/* The grant as the plugin sealed it (version 5).  A share of a GPU is
 * Slurm's, not the user's, where the plugin read it: gres/shard and gres/mps
 * overwrite their variables on a node with them, and gres.conf gives the
 * denominators.  Whole GPUs and a MIG instance are as sure as the GPU
 * count the kernel confirmed. */
static void apply_share(const gov_descriptor *d, gov_snapshot_scheduler *sched)
{
    sched->gpu_share_kind = d->gpu_share_kind;
    if (d->gpu_share != GOV_UNKNOWN && d->gpu_share_of != GOV_UNKNOWN && d->gpu_share_of)
        sched->gpu_share = (double)d->gpu_share / (double)d->gpu_share_of;
    sched->gpu_memory_bytes = d->gpu_mem_bytes;
    switch (d->gpu_share_kind) {
    case GOV_GPU_SHARE_NONE:
        break;
    case GOV_GPU_SHARE_SHARD:
    case GOV_GPU_SHARE_MPS:
        sched->gpu_share_source = GOV_SCHED_DESCRIPTOR;
        break;
    default:
        sched->gpu_share_source = sched->gpus_on_node_source;
        break;
    }
}

static void apply_topology(const gov_desc_topology *t, gov_snapshot *out)
{
    out->topology.task_gpus_local = gpus_local(t, out);
    if (!t->present)
        return;
    out->topology.source = GOV_TOPOLOGY_SOURCE_DESCRIPTOR;
    out->topology.step.packages = t->packages;
    out->topology.step.cores = t->cores;
    out->topology.step.pus = t->pus;
    out->topology.step.numa_nodes = t->numa_nodes;
}

/* The grant confirmed by the device nodes this process may open (version
 * 4: the plugin seals before any task has its device cgroup), by the rule
 * the plugin applied as root in older versions. */
static void confirm_gpus(const gov_gpu_nodes *nvidia, const gov_gpu_nodes *render,
                         gov_snapshot_scheduler *sched)
{
    bool verified = false;
    uint64_t n;

    if (!nvidia || !render)
        return;
    gov__gpu_seal(sched->gpus_on_node, gov__gpu_kind(nvidia, render), &n, &verified);
    if (verified) {
        sched->gpus_on_node = n;
        sched->gpus_verified = 1;
    }
}

void gov__descriptor_apply(const gov_descriptor *d, const gov_gpu_nodes *nvidia,
                           const gov_gpu_nodes *render, gov_snapshot *out)
{
    gov_snapshot_scheduler *sched = &out->scheduler;
    gov_site_policy *policy = &out->policy;

    GOV_SET_UNKNOWN(sched, scheduler);
    sched->source = GOV_SCHED_DESCRIPTOR;
    sched->step_kind = d->step_kind;
    sched->tasks_on_node = d->tasks_on_node;
    sched->tasks_total = d->tasks_total;
    sched->nodes = d->nodes;
    sched->cpus_on_node = d->cpus_on_node;
    sched->cpus_per_task = d->cpus_per_task;
    /* Slurm reports 0 MiB when memory is not tracked: that is no bound. */
    sched->mem_per_node_bytes = mib_to_bytes(d->step_mem_mib != GOV_UNKNOWN && d->step_mem_mib
                                             ? d->step_mem_mib : d->job_mem_mib);
    sched->mem_per_cpu_bytes = mib_to_bytes(d->mem_per_cpu_mib);
    sched->gpus_on_node = d->gpus_on_node;
    sched->gpus_per_task = d->gpus_per_task;
    sched->gpus_verified = d->gpus_verified;
    if (d->version >= 4)
        confirm_gpus(nvidia, render, sched);
    /* Root sealed these from the job's environment: sealing does not make
     * a user's value Slurm's (docs/descriptor.md, "Provenance"). */
    sched->gpus_on_node_source = sched->gpus_verified ? GOV_SCHED_DESCRIPTOR
                                                      : gov__sched_from_env(d->gpus_on_node);
    sched->gpus_per_task_source = gov__sched_from_env(d->gpus_per_task);
    sched->mem_per_cpu_source = gov__sched_from_env(sched->mem_per_cpu_bytes);
    apply_share(d, sched);

    *policy = d->policy.site;
    policy->present = 1;
    apply_topology(&d->topo, out);
}

void gov__evidence_init(gov_evidence *e)
{
    memset(e, 0, sizeof *e);
    GOV_SET_UNKNOWN(&e->host, cpu.host);
    e->mask_count = GOV_UNKNOWN;
    GOV_SET_UNKNOWN(&e->topology, topology);
    GOV_SET_UNKNOWN(&e->cgroups.cpu, cpu.cgroup);
    GOV_SET_UNKNOWN(&e->cgroups.memory, memory.cgroup);
    e->cgroups.devices_confined = -1;
    e->host_total_bytes = e->host_available_bytes = GOV_UNKNOWN;
    GOV_SET_UNKNOWN(&e->pressure, pressure);
    GOV_SET_UNKNOWN(&e->accel, accel);
    GOV_SET_UNKNOWN(&e->disk, disk);
    GOV_SET_UNKNOWN(&e->verification, descriptor);
    GOV_SET_UNKNOWN(&e->variables, scheduler);
}

/* Strict mode: a value the job's environment gave is refused even when root
 * sealed it, as the variables themselves are. */
static void drop_env_value(uint64_t *value, gov_sched_source *source)
{
    if (*source == GOV_SCHED_ENVIRONMENT) {
        *value = GOV_UNKNOWN;
        *source = GOV_SCHED_NONE;
    }
}

/* A verified descriptor outranks the variables any user can change;
 * strict mode never falls back to them. */
static void scheduler_part(const gov_evidence *e, gov_snapshot *out)
{
    gov_snapshot_scheduler *s = &out->scheduler;

    if (e->have_descriptor)
        gov__descriptor_apply(&e->descriptor, e->have_gpu_nodes ? &e->nvidia : NULL,
                              e->have_gpu_nodes ? &e->render : NULL, out);
    else if (!e->strict)
        *s = e->variables;
    if (e->strict) {
        drop_env_value(&s->gpus_on_node, &s->gpus_on_node_source);
        drop_env_value(&s->gpus_per_task, &s->gpus_per_task_source);
        drop_env_value(&s->mem_per_cpu_bytes, &s->mem_per_cpu_source);
    }
}

void gov__snapshot_assemble(const gov_evidence *e, gov_snapshot *out)
{
    gov_snapshot_init(out);
    out->captured_ns = e->captured_ns;
    out->descriptor = e->verification;
    out->cpu.host = e->host;
    out->cpu.affinity.set = e->mask;
    out->cpu.affinity.count = e->mask_count;
    out->topology = e->topology;
    out->cpu.cgroup = e->cgroups.cpu;
    out->memory.cgroup = e->cgroups.memory;
    scheduler_part(e, out);
    out->memory.host.total_bytes = e->host_total_bytes;
    out->memory.host.available_bytes = e->host_available_bytes;
    out->pressure = e->pressure;
    out->accel = e->accel;
    out->disk = e->disk;
    gov_snapshot_resolve(out);
}
