/* snapshot_fill.c - the parts of a snapshot that libgovernor and the plugin
 * fill the same way: the scheduler's facts from a descriptor, the cgroup's
 * from the cgroup collector, and the task's own view (gov_task_snapshot),
 * which is the snapshot the plugin decides a task's environment from. */
#include "snapshot_base.h"

#include "descriptor.h"

#include <string.h>

static uint64_t mib_to_bytes(uint64_t mib)
{
    if (mib == GOV_UNKNOWN || mib == 0 || mib > UINT64_MAX / (1024 * 1024))
        return GOV_UNKNOWN;
    return mib * 1024 * 1024;
}

void gov_descriptor_apply(const gov_descriptor *d, gov_sched_evidence *sched,
                          gov_site_policy *policy)
{
    memset(sched, 0, sizeof *sched);
    sched->source = GOV_SCHED_DESCRIPTOR;
    sched->step_kind = d->step_kind;
    sched->job_id = d->job_id;
    sched->step_id = d->step_id;
    sched->node_index = d->node_index;
    sched->uid = d->uid;
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

    memset(policy, 0, sizeof *policy);
    policy->present = 1;
    policy->profile_imposed = d->policy.profile_imposed;
    policy->profile = d->policy.profile;
    policy->mem_reserve_bytes = d->policy.mem_reserve_bytes;
    policy->mem_reserve_pct = d->policy.mem_reserve_pct;
    policy->cpu_reserve_threads = d->policy.cpu_reserve_threads;
    policy->cpu_reserve_pct = d->policy.cpu_reserve_pct;
}

void gov_snapshot_set_cgroup(const gov_cgroup_evidence *cg, gov_snapshot *s)
{
    s->cpu.cgroup.version = cg->cpu_version;
    s->cpu.cgroup.quota_cores = cg->quota_cores;
    s->cpu.cgroup.quota_status = cg->quota_status;
    s->cpu.cgroup.cpuset_count = cg->cpuset_count;
    s->cpu.cgroup.cpuset = cg->cpuset;
    s->memory.cgroup.version = cg->memory_version;
    s->memory.cgroup.status = cg->memory_status;
    s->memory.cgroup.limit_bytes = cg->limit_bytes;
    s->memory.cgroup.high_bytes = cg->high_bytes;
    s->memory.cgroup.current_bytes = cg->current_bytes;
    s->memory.cgroup.working_set_bytes = cg->working_set_bytes;
    s->memory.cgroup.remaining_bytes = cg->remaining_bytes;
    s->memory.cgroup.planning_remaining_bytes = cg->planning_remaining_bytes;
}

void gov_snapshot_set_scheduler(const gov_sched_evidence *e, gov_snapshot *s)
{
    s->scheduler.source = e->source;
    if (e->source == GOV_SCHED_NONE)
        return;
    s->scheduler.step_kind = e->step_kind;
    s->scheduler.tasks_on_node = e->tasks_on_node;
    s->scheduler.tasks_total = e->tasks_total;
    s->scheduler.nodes = e->nodes;
    s->scheduler.cpus_on_node = e->cpus_on_node;
    s->scheduler.cpus_per_task = e->cpus_per_task;
    s->scheduler.mem_per_node_bytes = e->mem_per_node_bytes;
    s->scheduler.mem_per_cpu_bytes = e->mem_per_cpu_bytes;
    s->scheduler.gpus_on_node = e->gpus_on_node;
    s->scheduler.gpus_per_task = e->gpus_per_task;
    s->scheduler.gpus_verified = e->gpus_verified;
    s->scheduler.gpus_on_node_source = e->gpus_on_node_source;
    s->scheduler.gpus_per_task_source = e->gpus_per_task_source;
    s->scheduler.mem_per_cpu_source = e->mem_per_cpu_source;
}

void gov_task_snapshot(const gov_descriptor *d, gov_snapshot *out)
{
    gov_sched_evidence sched;
    gov_cgroup_evidence cg;

    gov_snapshot_init(out);
    gov_descriptor_apply(d, &sched, &out->policy);
    gov_snapshot_set_scheduler(&sched, out);
    if (gov_affinity_collect(NULL, &out->cpu.affinity.set, &out->cpu.affinity.count))
        out->cpu.affinity.count = GOV_UNKNOWN;
    gov_cgroup_collect(NULL, &cg);
    gov_snapshot_set_cgroup(&cg, out);
    gov_meminfo_collect(NULL, &out->memory.host.total_bytes, &out->memory.host.available_bytes);
    gov_snapshot_resolve(out);
}
