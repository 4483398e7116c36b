/* task_snapshot.c - the parts of a snapshot that libgovernor and the plugin
 * fill the same way (task_snapshot.h): the scheduler part from a descriptor, and the task's
 * own view (gov__task_snapshot), which is the snapshot the plugin decides a
 * task's environment from. */
#include "task_snapshot.h"
#include "evidence.h"
#include "snapshot_base.h"

#include "descriptor.h"

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

    *policy = d->policy.site;
    policy->present = 1;
    apply_topology(&d->topo, out);
}

void gov__snapshot_assemble(const gov_assembly *a, gov_snapshot *out)
{
    gov_cgroup_evidence cg;

    if (a->inventory)
        a->inventory(a->arg, out);
    if (gov__affinity_collect(a->root, &out->cpu.affinity.set, &out->cpu.affinity.count))
        out->cpu.affinity.count = GOV_UNKNOWN;
    if (a->topology)
        a->topology(a->arg, &out->cpu.affinity.set, out->cpu.affinity.count, &out->topology);
    memset(&cg, 0, sizeof cg);
    GOV_SET_UNKNOWN(&cg.cpu, cpu.cgroup);
    GOV_SET_UNKNOWN(&cg.memory, memory.cgroup);
    if (a->cgroups)
        a->cgroups(a->arg, &cg);
    out->cpu.cgroup = cg.cpu;
    out->memory.cgroup = cg.memory;
    if (a->scheduler)
        a->scheduler(a->arg, out);
    if (a->host_memory)
        a->host_memory(a->arg, out);
    if (a->rest)
        a->rest(a->arg, &cg, out);
    gov_snapshot_resolve(out);
}

/* The plugin's hooks: what gov__task_snapshot was given. */
struct task_args {
    const gov_descriptor *d;
    gov_task_topology_fn *topology;
    const void *topology_arg;
    const gov_step_reads *step;
};

static void task_topology(void *arg, const gov_cpuset *mask, uint64_t mask_count,
                          gov_snapshot_topology *out)
{
    const struct task_args *t = arg;

    t->topology(t->topology_arg, mask, mask_count, out);
}

static void task_cgroups(void *arg, gov_cgroup_evidence *cg)
{
    const struct task_args *t = arg;

    if (!t->step->have_cgroups) {
        gov__cgroup_collect_limits(NULL, cg);
        return;
    }
    cg->cpu = t->step->cpu_cgroup;
    cg->memory = t->step->memory_cgroup;
}

/* The task's environment is planned from CPUs and memory; GPUs play no
 * part, so /dev is not scanned at every task's start. */
static void task_scheduler(void *arg, gov_snapshot *out)
{
    const struct task_args *t = arg;

    gov__descriptor_apply(t->d, NULL, NULL, out);
}

static void task_host_memory(void *arg, gov_snapshot *out)
{
    const struct task_args *t = arg;

    out->memory.host.total_bytes = t->step->host_total_bytes;
    out->memory.host.available_bytes = t->step->host_available_bytes;
    if (t->step->host_total_bytes == GOV_UNKNOWN && t->step->host_available_bytes == GOV_UNKNOWN)
        gov__meminfo_collect(NULL, &out->memory.host.total_bytes,
                             &out->memory.host.available_bytes);
}

void gov__task_snapshot(const gov_descriptor *d, gov_task_topology_fn *topology,
                        const void *arg, const gov_step_reads *step, gov_snapshot *out)
{
    static const gov_step_reads none = { .host_total_bytes = GOV_UNKNOWN,
                                         .host_available_bytes = GOV_UNKNOWN };
    struct task_args t = { d, topology, arg, step ? step : &none };
    gov_assembly a = {
        .arg = &t,
        .topology = topology ? task_topology : NULL,
        .cgroups = task_cgroups,
        .scheduler = task_scheduler,
        .host_memory = task_host_memory,
    };

    gov_snapshot_init(out);
    gov__snapshot_assemble(&a, out);
}
