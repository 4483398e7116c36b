/* snapshot_json.c - the "governor.snapshot/1" rendering: the stable contract
 * of docs/snapshot.md.  It prints counts and quantities only: never an id, a
 * name, a path or an environment value. */
#include "snapshot_base.h"
#include "names.h"
#include "json.h"

#include <stdlib.h>

static const char *const gov_vis_names[GOV_VIS_COUNT] = {
    "NVIDIA_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
};

static void tri(gov_jw *w, const char *key, int v)
{
    if (v < 0)
        gov_jw_null(w, key);
    else
        gov_jw_bool(w, key, v != 0);
}

static void cgroup_version(gov_jw *w, int v)
{
    if (v == 1 || v == 2)
        gov_jw_int(w, "version", v);
    else
        gov_jw_null(w, "version");
}

/* A CPU list can reach tens of KiB on large hosts: keep it off the stack. */
static void put_cpuset(gov_jw *w, const char *key, const gov_cpuset *set, bool known)
{
    size_t cap = GOV_CPUSET_BITS * 6;
    char *list = known ? malloc(cap) : NULL;

    if (list && gov_cpuset_format(set, list, cap) >= 0)
        gov_jw_string(w, key, list);
    else
        gov_jw_null(w, key);
    free(list);
}

static void put_descriptor(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "descriptor");
    gov_jw_string(w, "status", gov_descriptor_status_name(s->descriptor.status));
    if (s->descriptor.status == GOV_DESCRIPTOR_INVALID)
        gov_jw_string(w, "reason", gov_strerror(s->descriptor.reason));
    else
        gov_jw_null(w, "reason");
    gov_jw_u64(w, "age_s", s->descriptor.age_s);
    gov_jw_bool(w, "replayed", s->descriptor.replayed);
    gov_jw_bool(w, "expired", s->descriptor.expired);
    gov_jw_object_end(w);
}

static void put_scheduler(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "scheduler");
    gov_jw_string(w, "source", gov_sched_source_name(s->scheduler.source));
    gov_jw_string(w, "step", gov_step_kind_name(s->scheduler.step_kind));
    gov_jw_u64(w, "tasks_on_node", s->scheduler.tasks_on_node);
    gov_jw_u64(w, "tasks_total", s->scheduler.tasks_total);
    gov_jw_u64(w, "nodes", s->scheduler.nodes);
    gov_jw_u64(w, "cpus_on_node", s->scheduler.cpus_on_node);
    gov_jw_u64(w, "cpus_per_task", s->scheduler.cpus_per_task);
    gov_jw_u64(w, "gpus_on_node", s->scheduler.gpus_on_node);
    gov_jw_u64(w, "gpus_per_task", s->scheduler.gpus_per_task);
    gov_jw_bool(w, "gpus_verified", s->scheduler.gpus_verified);
    gov_jw_string(w, "gpus_on_node_source",
                  gov_sched_source_name(s->scheduler.gpus_on_node_source));
    gov_jw_string(w, "gpus_per_task_source",
                  gov_sched_source_name(s->scheduler.gpus_per_task_source));
    gov_jw_object_end(w);
}

static void put_cpu(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "cpu");
    gov_jw_object_begin(w, "host");
    gov_jw_u64(w, "logical", s->cpu.host.logical);
    gov_jw_u64(w, "physical", s->cpu.host.physical);
    gov_jw_u64(w, "packages", s->cpu.host.packages);
    gov_jw_u64(w, "numa_nodes", s->cpu.host.numa_nodes);
    gov_jw_u64(w, "online", s->cpu.host.online);
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "affinity");
    gov_jw_u64(w, "count", s->cpu.affinity.count);
    put_cpuset(w, "list", &s->cpu.affinity.set, s->cpu.affinity.count != GOV_UNKNOWN);
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "cgroup");
    cgroup_version(w, s->cpu.cgroup.version);
    gov_jw_u64(w, "cpuset_count", s->cpu.cgroup.cpuset_count);
    put_cpuset(w, "cpuset_list", &s->cpu.cgroup.cpuset,
               s->cpu.cgroup.cpuset_count != GOV_UNKNOWN);
    gov_jw_double(w, "quota_cores", s->cpu.cgroup.quota_cores);
    gov_jw_string(w, "quota_status", gov_limit_status_name(s->cpu.cgroup.quota_status));
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "scheduler");
    gov_jw_u64(w, "cpus", s->cpu.scheduler.cpus);
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "effective");
    gov_jw_double(w, "capacity_cores", s->cpu.effective.capacity_cores);
    gov_jw_u64(w, "workers", s->cpu.effective.workers);
    gov_jw_string(w, "binding", gov_layer_name(s->cpu.effective.binding));
    gov_jw_object_end(w);
    gov_jw_object_end(w);
}

static void put_memory(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "memory");
    gov_jw_object_begin(w, "host");
    gov_jw_u64(w, "total_bytes", s->memory.host.total_bytes);
    gov_jw_u64(w, "available_bytes", s->memory.host.available_bytes);
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "cgroup");
    cgroup_version(w, s->memory.cgroup.version);
    gov_jw_string(w, "status", gov_limit_status_name(s->memory.cgroup.status));
    gov_jw_u64(w, "limit_bytes", s->memory.cgroup.limit_bytes);
    gov_jw_u64(w, "high_bytes", s->memory.cgroup.high_bytes);
    gov_jw_u64(w, "current_bytes", s->memory.cgroup.current_bytes);
    gov_jw_u64(w, "working_set_bytes", s->memory.cgroup.working_set_bytes);
    gov_jw_u64(w, "remaining_bytes", s->memory.cgroup.remaining_bytes);
    gov_jw_u64(w, "planning_remaining_bytes", s->memory.cgroup.planning_remaining_bytes);
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "scheduler");
    gov_jw_u64(w, "limit_bytes", s->memory.scheduler.limit_bytes);
    gov_jw_u64(w, "per_task_bytes", s->memory.scheduler.per_task_bytes);
    /* Per-CPU memory times cpus-per-task: as trustworthy as the first. */
    gov_jw_string(w, "per_task_source",
                  gov_sched_source_name(s->memory.scheduler.per_task_bytes == GOV_UNKNOWN
                                            ? GOV_SCHED_NONE
                                            : s->scheduler.mem_per_cpu_source));
    gov_jw_object_end(w);

    gov_jw_object_begin(w, "effective");
    gov_jw_u64(w, "limit_bytes", s->memory.effective.limit_bytes);
    gov_jw_u64(w, "remaining_bytes", s->memory.effective.remaining_bytes);
    gov_jw_string(w, "binding", gov_layer_name(s->memory.effective.binding));
    gov_jw_object_end(w);
    gov_jw_object_end(w);
}

static void put_pressure(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "pressure");
    gov_jw_string(w, "source", gov_pressure_source_name(s->pressure.source));
    gov_jw_object_begin(w, "cpu");
    gov_jw_double(w, "some_avg10", s->pressure.cpu_some_avg10);
    gov_jw_object_end(w);
    gov_jw_object_begin(w, "memory");
    gov_jw_double(w, "some_avg10", s->pressure.memory_some_avg10);
    gov_jw_double(w, "full_avg10", s->pressure.memory_full_avg10);
    gov_jw_object_end(w);
    gov_jw_object_begin(w, "swap");
    gov_jw_u64(w, "in_pages", s->pressure.swap_in_pages);
    gov_jw_u64(w, "out_pages", s->pressure.swap_out_pages);
    gov_jw_object_end(w);
    gov_jw_object_end(w);
}

static void put_accel(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "accelerators");
    gov_jw_object_begin(w, "visible");
    for (int i = 0; i < GOV_VIS_COUNT; i++)
        gov_jw_u64(w, gov_vis_names[i], s->accel.visible[i]);
    gov_jw_object_end(w);
    gov_jw_object_begin(w, "nvidia");
    gov_jw_u64(w, "gpus", s->accel.nvidia_gpus);
    gov_jw_u64(w, "device_nodes", s->accel.nvidia_dev_nodes);
    gov_jw_u64(w, "device_nodes_usable", s->accel.nvidia_dev_usable);
    gov_jw_u64(w, "device_nodes_denied", s->accel.nvidia_dev_denied);
    gov_jw_object_end(w);
    gov_jw_object_begin(w, "amd");
    gov_jw_u64(w, "gpus", s->accel.amd_gpus);
    tri(w, "kfd_usable", s->accel.kfd_usable);
    gov_jw_object_end(w);
    gov_jw_object_begin(w, "drm");
    gov_jw_u64(w, "render_nodes", s->accel.drm_render_nodes);
    gov_jw_u64(w, "render_nodes_usable", s->accel.drm_render_usable);
    gov_jw_u64(w, "render_nodes_denied", s->accel.drm_render_denied);
    gov_jw_object_end(w);
    tri(w, "devices_confined", s->accel.devices_confined);
    gov_jw_object_begin(w, "governed_gpu");
    if (s->accel.gpu_index >= 0)
        gov_jw_int(w, "card", s->accel.gpu_index);
    else
        gov_jw_null(w, "card");
    gov_jw_u64(w, "vram_total_bytes", s->accel.gpu_vram_total_bytes);
    gov_jw_u64(w, "vram_used_bytes", s->accel.gpu_vram_used_bytes);
    gov_jw_string(w, "memory_model",
                  s->accel.gpu_index < 0 || s->accel.gpu_unified < 0 ? NULL
                  : s->accel.gpu_unified ? "unified_cpu_gpu" : "dedicated");
    gov_jw_object_end(w);
    gov_jw_object_end(w);
}

static void put_disk(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "disk");
    gov_jw_string(w, "scope", "working_filesystem");
    gov_jw_u64(w, "capacity_bytes", s->disk.capacity_bytes);
    gov_jw_u64(w, "free_bytes", s->disk.free_bytes);
    gov_jw_u64(w, "avail_bytes", s->disk.avail_bytes);
    tri(w, "writable", s->disk.writable);
    gov_jw_object_end(w);
}

static void put_policy(gov_jw *w, const gov_snapshot *s)
{
    gov_jw_object_begin(w, "policy");
    gov_jw_string(w, "source", s->policy.present ? "descriptor" : NULL);
    gov_jw_string(w, "profile", gov_profile_name(s->policy.profile));
    gov_jw_bool(w, "profile_imposed", s->policy.profile_imposed);
    gov_jw_u64(w, "mem_reserve_bytes", s->policy.mem_reserve_bytes);
    gov_jw_int(w, "mem_reserve_pct", s->policy.mem_reserve_pct);
    gov_jw_u64(w, "cpu_reserve_threads", s->policy.cpu_reserve_threads);
    gov_jw_int(w, "cpu_reserve_pct", s->policy.cpu_reserve_pct);
    gov_jw_object_end(w);
}

int gov_snapshot_json(const gov_snapshot *s, char **out, size_t *len)
{
    gov_jw w;
    char held[64];

    if (!s || !out)
        return GOV_EINVAL;
    gov_jw_init(&w);
    gov_jw_object_begin(&w, NULL);
    gov_jw_string(&w, "schema", GOV_SNAPSHOT_SCHEMA);
    put_descriptor(&w, s);
    put_scheduler(&w, s);
    put_cpu(&w, s);
    put_memory(&w, s);
    put_pressure(&w, s);
    put_accel(&w, s);
    put_disk(&w, s);
    gov_jw_object_begin(&w, "enforcement");
    gov_jw_string(&w, "cpu", gov_enforcement_name(s->enforcement.cpu));
    if (s->enforcement.cpu == GOV_ENFORCEMENT_UNKNOWN) {
        gov_jw_null(&w, "cpu_held_by");
    } else {
        gov_layers_format(gov_cpu_held(s), held, sizeof held);
        gov_jw_string(&w, "cpu_held_by", held);
    }
    gov_jw_string(&w, "memory", gov_enforcement_name(s->enforcement.memory));
    gov_jw_string(&w, "gpu", gov_enforcement_name(s->enforcement.gpu));
    gov_jw_object_end(&w);
    put_policy(&w, s);
    gov_jw_object_end(&w);
    return gov_jw_finish(&w, out, len);
}
