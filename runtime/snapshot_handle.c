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
    gov_descriptor_set_unknown(&s->descriptor);

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

    gov_pressure_set_unknown(&s->pressure);
    gov_accel_set_unknown(&s->accel);
    gov_disk_set_unknown(&s->disk);

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
