/* snapshot_fill.c - the parts of a snapshot that libgovernor and the plugin
 * fill the same way: the scheduler part from a descriptor, and the task's
 * own view (gov_task_snapshot), which is the snapshot the plugin decides a
 * task's environment from. */
#include "snapshot_base.h"

#include "descriptor.h"

#include <string.h>

static uint64_t mib_to_bytes(uint64_t mib)
{
    if (mib == GOV_UNKNOWN || mib == 0 || mib > UINT64_MAX / (1024 * 1024))
        return GOV_UNKNOWN;
    return mib * 1024 * 1024;
}

void gov_descriptor_apply(const gov_descriptor *d, gov_snapshot_scheduler *sched,
                          gov_site_policy *policy)
{
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
    /* Root sealed these from the job's environment: sealing does not make
     * a user's value Slurm's (docs/descriptor.md, "Provenance"). */
    sched->gpus_on_node_source = d->gpus_verified ? GOV_SCHED_DESCRIPTOR
                                                  : gov_sched_from_env(d->gpus_on_node);
    sched->gpus_per_task_source = gov_sched_from_env(d->gpus_per_task);
    sched->mem_per_cpu_source = gov_sched_from_env(sched->mem_per_cpu_bytes);

    *policy = d->policy.site;
    policy->present = 1;
}

void gov_task_snapshot(const gov_descriptor *d, gov_snapshot *out)
{
    gov_cgroup_evidence cg;

    gov_snapshot_init(out);
    gov_descriptor_apply(d, &out->scheduler, &out->policy);
    if (gov_affinity_collect(NULL, &out->cpu.affinity.set, &out->cpu.affinity.count))
        out->cpu.affinity.count = GOV_UNKNOWN;
    gov_cgroup_collect(NULL, &cg);
    out->cpu.cgroup = cg.cpu;
    out->memory.cgroup = cg.memory;
    gov_meminfo_collect(NULL, &out->memory.host.total_bytes, &out->memory.host.available_bytes);
    gov_snapshot_resolve(out);
}
