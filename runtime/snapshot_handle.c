/* snapshot_handle.c - a snapshot's starting value (every fact unknown), and
 * heap snapshots for bindings that must not depend on the layout of
 * gov_snapshot (the Python binding holds them opaquely). */
#include "evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gov_snapshot_init(gov_snapshot *s)
{
    memset(s, 0, sizeof *s);
    s->descriptor.age_s = GOV_UNKNOWN;

    s->scheduler.tasks_on_node = GOV_UNKNOWN;
    s->scheduler.tasks_total = GOV_UNKNOWN;
    s->scheduler.nodes = GOV_UNKNOWN;
    s->scheduler.cpus_on_node = GOV_UNKNOWN;
    s->scheduler.cpus_per_task = GOV_UNKNOWN;
    s->scheduler.mem_per_node_bytes = GOV_UNKNOWN;
    s->scheduler.mem_per_cpu_bytes = GOV_UNKNOWN;
    s->scheduler.gpus_on_node = GOV_UNKNOWN;
    s->scheduler.gpus_per_task = GOV_UNKNOWN;

    s->cpu.host.logical = GOV_UNKNOWN;
    s->cpu.host.physical = GOV_UNKNOWN;
    s->cpu.host.packages = GOV_UNKNOWN;
    s->cpu.host.numa_nodes = GOV_UNKNOWN;
    s->cpu.host.online = GOV_UNKNOWN;
    s->cpu.affinity.count = GOV_UNKNOWN;
    s->cpu.cgroup.cpuset_count = GOV_UNKNOWN;
    s->cpu.cgroup.quota_cores = NAN;
    s->cpu.scheduler.cpus = GOV_UNKNOWN;
    s->cpu.effective.capacity_cores = NAN;
    s->cpu.effective.workers = GOV_UNKNOWN;

    s->memory.host.total_bytes = GOV_UNKNOWN;
    s->memory.host.available_bytes = GOV_UNKNOWN;
    s->memory.cgroup.limit_bytes = GOV_UNKNOWN;
    s->memory.cgroup.high_bytes = GOV_UNKNOWN;
    s->memory.cgroup.current_bytes = GOV_UNKNOWN;
    s->memory.cgroup.working_set_bytes = GOV_UNKNOWN;
    s->memory.cgroup.remaining_bytes = GOV_UNKNOWN;
    s->memory.cgroup.planning_remaining_bytes = GOV_UNKNOWN;
    s->memory.scheduler.limit_bytes = GOV_UNKNOWN;
    s->memory.scheduler.per_task_bytes = GOV_UNKNOWN;
    s->memory.effective.limit_bytes = GOV_UNKNOWN;
    s->memory.effective.remaining_bytes = GOV_UNKNOWN;

    s->pressure.cpu_some_avg10 = NAN;
    s->pressure.memory_some_avg10 = NAN;
    s->pressure.memory_full_avg10 = NAN;
    s->pressure.swap_in_pages = GOV_UNKNOWN;
    s->pressure.swap_out_pages = GOV_UNKNOWN;

    for (int i = 0; i < GOV_VIS_COUNT; i++)
        s->accel.visible[i] = GOV_UNKNOWN;
    s->accel.nvidia_gpus = GOV_UNKNOWN;
    s->accel.nvidia_dev_nodes = GOV_UNKNOWN;
    s->accel.nvidia_dev_usable = GOV_UNKNOWN;
    s->accel.nvidia_dev_denied = GOV_UNKNOWN;
    s->accel.amd_gpus = GOV_UNKNOWN;
    s->accel.kfd_usable = -1;
    s->accel.drm_render_nodes = GOV_UNKNOWN;
    s->accel.drm_render_usable = GOV_UNKNOWN;
    s->accel.drm_render_denied = GOV_UNKNOWN;
    s->accel.devices_confined = -1;
    s->accel.gpu_index = -1;
    s->accel.gpu_unified = -1;
    s->accel.gpu_vram_total_bytes = GOV_UNKNOWN;
    s->accel.gpu_vram_used_bytes = GOV_UNKNOWN;

    s->disk.capacity_bytes = GOV_UNKNOWN;
    s->disk.free_bytes = GOV_UNKNOWN;
    s->disk.avail_bytes = GOV_UNKNOWN;
    s->disk.writable = -1;

    s->policy.mem_reserve_bytes = GOV_UNKNOWN;
    s->policy.cpu_reserve_threads = GOV_UNKNOWN;
}

int gov_snapshot_new(gov_snapshot **out)
{
    gov_snapshot *snap;

    if (!out)
        return GOV_EINVAL;
    *out = NULL;
    snap = malloc(sizeof *snap);
    if (!snap)
        return GOV_ENOMEM;
    gov_snapshot_init(snap);
    *out = snap;
    return 0;
}

void gov_snapshot_free(gov_snapshot *snap)
{
    free(snap);
}
