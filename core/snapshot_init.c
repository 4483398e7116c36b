/* snapshot_init.c - a snapshot's starting value: every fact unknown
 * (governor.h, gov_snapshot_init()), one part at a time, so that each
 * collector starts its own part from the same values. */
#include "snapshot_base.h"

#include <math.h>
#include <string.h>

void gov_descriptor_set_unknown(gov_snapshot_descriptor *out)
{
    out->status = GOV_DESCRIPTOR_ABSENT;
    out->reason = 0;
    out->age_s = GOV_UNKNOWN;
    out->replayed = 0;
    out->expired = 0;
}

void gov_pressure_set_unknown(gov_snapshot_pressure *out)
{
    out->source = GOV_PRESSURE_SOURCE_NONE;
    out->cpu_some_avg10 = NAN;
    out->memory_some_avg10 = NAN;
    out->memory_full_avg10 = NAN;
    out->swap_in_pages = GOV_UNKNOWN;
    out->swap_out_pages = GOV_UNKNOWN;
}

void gov_accel_set_unknown(gov_snapshot_accel *out)
{
    for (int i = 0; i < GOV_VIS_COUNT; i++)
        out->visible[i] = GOV_UNKNOWN;
    out->nvidia_gpus = GOV_UNKNOWN;
    out->nvidia_dev_nodes = GOV_UNKNOWN;
    out->nvidia_dev_usable = GOV_UNKNOWN;
    out->nvidia_dev_denied = GOV_UNKNOWN;
    out->amd_gpus = GOV_UNKNOWN;
    out->kfd_usable = -1;
    out->drm_render_nodes = GOV_UNKNOWN;
    out->drm_render_usable = GOV_UNKNOWN;
    out->drm_render_denied = GOV_UNKNOWN;
    out->devices_confined = -1;
    out->gpu_index = -1;
    out->gpu_unified = -1;
    out->gpu_vram_total_bytes = GOV_UNKNOWN;
    out->gpu_vram_used_bytes = GOV_UNKNOWN;
}

void gov_disk_set_unknown(gov_snapshot_disk *out)
{
    out->capacity_bytes = GOV_UNKNOWN;
    out->free_bytes = GOV_UNKNOWN;
    out->avail_bytes = GOV_UNKNOWN;
    out->writable = -1;
}

void gov_scheduler_set_unknown(gov_snapshot_scheduler *out)
{
    memset(out, 0, sizeof *out);
    out->source = GOV_SCHED_NONE;
    out->step_kind = GOV_STEP_UNKNOWN;
    out->tasks_on_node = out->tasks_total = out->nodes = GOV_UNKNOWN;
    out->cpus_on_node = out->cpus_per_task = GOV_UNKNOWN;
    out->mem_per_node_bytes = out->mem_per_cpu_bytes = GOV_UNKNOWN;
    out->gpus_on_node = out->gpus_per_task = GOV_UNKNOWN;
}

void gov_cpu_cgroup_set_unknown(gov_snapshot_cpu_cgroup *out)
{
    memset(out, 0, sizeof *out);
    out->cpuset_count = GOV_UNKNOWN;
    out->quota_cores = NAN;
    out->quota_status = GOV_LIMIT_UNKNOWN;
}

void gov_memory_cgroup_set_unknown(gov_snapshot_memory_cgroup *out)
{
    memset(out, 0, sizeof *out);
    out->status = GOV_LIMIT_UNKNOWN;
    out->limit_bytes = out->high_bytes = GOV_UNKNOWN;
    out->current_bytes = out->working_set_bytes = GOV_UNKNOWN;
    out->remaining_bytes = out->planning_remaining_bytes = GOV_UNKNOWN;
}

void gov_snapshot_init(gov_snapshot *s)
{
    memset(s, 0, sizeof *s);
    gov_descriptor_set_unknown(&s->descriptor);
    gov_scheduler_set_unknown(&s->scheduler);

    s->cpu.host.logical = GOV_UNKNOWN;
    s->cpu.host.physical = GOV_UNKNOWN;
    s->cpu.host.packages = GOV_UNKNOWN;
    s->cpu.host.numa_nodes = GOV_UNKNOWN;
    s->cpu.host.online = GOV_UNKNOWN;
    s->cpu.affinity.count = GOV_UNKNOWN;
    gov_cpu_cgroup_set_unknown(&s->cpu.cgroup);
    s->cpu.scheduler.cpus = GOV_UNKNOWN;
    s->cpu.effective.capacity_cores = NAN;
    s->cpu.effective.workers = GOV_UNKNOWN;

    s->memory.host.total_bytes = GOV_UNKNOWN;
    s->memory.host.available_bytes = GOV_UNKNOWN;
    gov_memory_cgroup_set_unknown(&s->memory.cgroup);
    s->memory.scheduler.limit_bytes = GOV_UNKNOWN;
    s->memory.scheduler.per_task_bytes = GOV_UNKNOWN;
    s->memory.effective.limit_bytes = GOV_UNKNOWN;
    s->memory.effective.remaining_bytes = GOV_UNKNOWN;

    gov_pressure_set_unknown(&s->pressure);
    gov_accel_set_unknown(&s->accel);
    gov_disk_set_unknown(&s->disk);

    s->policy.mem_reserve_bytes = GOV_UNKNOWN;
    s->policy.cpu_reserve_threads = GOV_UNKNOWN;
}
