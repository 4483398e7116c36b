/* snapshot_fields.c - the table of gov_snapshot's fields (snapshot_base.h),
 * one block per part, in the order of the JSON contract (docs/snapshot.md). */
#include "snapshot_base.h"

#include "base.h"

#include <math.h>
#include <string.h>

/* The enum names as the table calls them: from the value stored. */
static const char *descriptor_status(unsigned v) { return gov_descriptor_status_name(v); }
static const char *sched_source(unsigned v) { return gov_sched_source_name(v); }
static const char *step_kind(unsigned v) { return gov_step_kind_name(v); }
static const char *limit_status(unsigned v) { return gov_limit_status_name(v); }
static const char *layer(unsigned v) { return gov_layer_name(v); }
static const char *pressure_source(unsigned v) { return gov_pressure_source_name(v); }
static const char *enforcement(unsigned v) { return gov_enforcement_name(v); }
static const char *profile(unsigned v) { return gov_profile_name(v); }
static const char *topology_source(unsigned v) { return gov_topology_source_name(v); }
static const char *descriptor_via(unsigned v) { return gov_descriptor_via_name(v); }

/* The values printed from more than their own member. */
static const char *descriptor_reason(const gov_snapshot *s, char *buf, size_t cap)
{
    (void)buf, (void)cap;
    return s->descriptor.status == GOV_DESCRIPTOR_INVALID ? gov_strerror(s->descriptor.reason)
                                                          : NULL;
}

static const char *descriptor_unchecked(const gov_snapshot *s, char *buf, size_t cap)
{
    if (s->descriptor.status != GOV_DESCRIPTOR_VERIFIED)
        return NULL;
    return gov__bits_format(s->descriptor.unchecked, gov__binding_bits_name, GOV_BINDING_COUNT, buf,
                            cap);
}

static const char *container_namespaces(const gov_snapshot *s, char *buf, size_t cap)
{
    if (!s->descriptor.namespaces_seen)
        return NULL;
    return gov__bits_format(s->descriptor.namespaces, gov__namespace_bits_name, GOV_NAMESPACE_COUNT,
                            buf, cap);
}

static const char *container_namespaces_unknown(const gov_snapshot *s, char *buf, size_t cap)
{
    if (!s->descriptor.namespaces_seen)
        return NULL;
    return gov__bits_format(s->descriptor.namespaces_unknown, gov__namespace_bits_name,
                            GOV_NAMESPACE_COUNT, buf, cap);
}

static const char *descriptor_reason_code(const gov_snapshot *s, char *buf, size_t cap)
{
    (void)buf, (void)cap;
    return s->descriptor.status == GOV_DESCRIPTOR_INVALID ? gov_err_name(s->descriptor.reason)
                                                          : NULL;
}

/* Per-CPU memory times cpus-per-task: as trustworthy as the first. */
static const char *per_task_source(const gov_snapshot *s, char *buf, size_t cap)
{
    (void)buf, (void)cap;
    if (s->memory.scheduler.per_task_bytes == GOV_UNKNOWN)
        return NULL;
    return gov_sched_source_name(s->scheduler.mem_per_cpu_source);
}

static const char *memory_model(const gov_snapshot *s, char *buf, size_t cap)
{
    (void)buf, (void)cap;
    if (s->accel.gpu_index < 0 || s->accel.gpu_unified < 0)
        return NULL;
    return s->accel.gpu_unified ? "unified_cpu_gpu" : "dedicated";
}

/* The cgroup's hard limit against the step's memory on the node: "below"
 * once Slurm 26.05 lowers a running job's memory (scontrol update
 * MinMemoryNode, srun --mem-update) or where AllowedRAMSpace is under 100;
 * the effective limit follows the kernel's. */
static const char *memory_against_allocation(const gov_snapshot *s, char *buf, size_t cap)
{
    uint64_t limit = s->memory.cgroup.limit_bytes, alloc = s->memory.scheduler.limit_bytes;

    (void)buf, (void)cap;
    if (limit == GOV_UNKNOWN || alloc == GOV_UNKNOWN)
        return NULL;
    return limit < alloc ? "below" : limit == alloc ? "equal" : "above";
}

static const char *disk_scope(const gov_snapshot *s, char *buf, size_t cap)
{
    (void)s, (void)buf, (void)cap;
    return "working_filesystem";
}

static const char *cpu_held_by(const gov_snapshot *s, char *buf, size_t cap)
{
    if (s->enforcement.cpu == GOV_ENFORCEMENT_UNKNOWN)
        return NULL;
    gov__layers_format(gov__cpu_held(s), buf, cap);
    return buf;
}

static const char *policy_source(const gov_snapshot *s, char *buf, size_t cap)
{
    (void)buf, (void)cap;
    return s->policy.present ? "descriptor" : NULL;
}

#define AT(member) offsetof(gov_snapshot, member)
#define FIELD(kind_, path_, member) { .path = (path_), .kind = GOV_FIELD_##kind_, .offset = AT(member) }
#define NAME(path_, member, fn) { .path = (path_), .kind = GOV_FIELD_NAME, .offset = AT(member), .name = (fn) }
#define CPUSET(path_, member, count) \
    { .path = (path_), .kind = GOV_FIELD_CPUSET, .offset = AT(member), .aux = AT(count) }
#define NUMA_LIST(path_, member, count) \
    { .path = (path_), .kind = GOV_FIELD_NUMA_LIST, .offset = AT(member), .aux = AT(count) }
#define DERIVED(path_, fn) { .path = (path_), .kind = GOV_FIELD_DERIVED, .derive = (fn) }
#define HIDDEN(kind_, member) \
    { .path = #member, .kind = GOV_FIELD_##kind_, .offset = AT(member), .hidden = true }

static const gov_field fields[] = {
    NAME("descriptor.status", descriptor.status, descriptor_status),
    DERIVED("descriptor.reason", descriptor_reason),
    DERIVED("descriptor.reason_code", descriptor_reason_code),
    FIELD(COUNT, "descriptor.age_s", descriptor.age_s),
    FIELD(FLAG, "descriptor.replayed", descriptor.replayed),
    FIELD(FLAG, "descriptor.expired", descriptor.expired),
    NAME("descriptor.via", descriptor.via, descriptor_via),
    DERIVED("descriptor.unchecked", descriptor_unchecked),
    HIDDEN(FLAG, descriptor.unchecked),
    DERIVED("container.namespaces", container_namespaces),
    HIDDEN(FLAG, descriptor.namespaces),
    HIDDEN(FLAG, descriptor.namespaces_seen),
    DERIVED("container.namespaces_unknown", container_namespaces_unknown),
    HIDDEN(FLAG, descriptor.namespaces_unknown),

    NAME("scheduler.source", scheduler.source, sched_source),
    NAME("scheduler.step", scheduler.step_kind, step_kind),
    FIELD(COUNT, "scheduler.tasks_on_node", scheduler.tasks_on_node),
    FIELD(COUNT, "scheduler.tasks_total", scheduler.tasks_total),
    FIELD(COUNT, "scheduler.nodes", scheduler.nodes),
    FIELD(COUNT, "scheduler.cpus_on_node", scheduler.cpus_on_node),
    FIELD(COUNT, "scheduler.cpus_per_task", scheduler.cpus_per_task),
    FIELD(COUNT, "scheduler.gpus_on_node", scheduler.gpus_on_node),
    FIELD(COUNT, "scheduler.gpus_per_task", scheduler.gpus_per_task),
    FIELD(FLAG, "scheduler.gpus_verified", scheduler.gpus_verified),
    NAME("scheduler.gpus_on_node_source", scheduler.gpus_on_node_source, sched_source),
    NAME("scheduler.gpus_per_task_source", scheduler.gpus_per_task_source, sched_source),
    /* Shown as .memory.scheduler's figures, which resolve derives. */
    HIDDEN(COUNT, scheduler.mem_per_node_bytes),
    HIDDEN(COUNT, scheduler.mem_per_cpu_bytes),
    HIDDEN(NAME, scheduler.mem_per_cpu_source),

    FIELD(COUNT, "cpu.host.logical", cpu.host.logical),
    FIELD(COUNT, "cpu.host.physical", cpu.host.physical),
    FIELD(COUNT, "cpu.host.packages", cpu.host.packages),
    FIELD(COUNT, "cpu.host.numa_nodes", cpu.host.numa_nodes),
    FIELD(COUNT, "cpu.host.online", cpu.host.online),
    FIELD(COUNT, "cpu.affinity.count", cpu.affinity.count),
    CPUSET("cpu.affinity.list", cpu.affinity.set, cpu.affinity.count),
    FIELD(VERSION, "cpu.cgroup.version", cpu.cgroup.version),
    FIELD(COUNT, "cpu.cgroup.cpuset_count", cpu.cgroup.cpuset_count),
    CPUSET("cpu.cgroup.cpuset_list", cpu.cgroup.cpuset, cpu.cgroup.cpuset_count),
    FIELD(FRACTION, "cpu.cgroup.quota_cores", cpu.cgroup.quota_cores),
    NAME("cpu.cgroup.quota_status", cpu.cgroup.quota_status, limit_status),
    FIELD(COUNT, "cpu.scheduler.cpus", cpu.scheduler.cpus),
    FIELD(FRACTION, "cpu.effective.capacity_cores", cpu.effective.capacity_cores),
    FIELD(COUNT, "cpu.effective.workers", cpu.effective.workers),
    NAME("cpu.effective.binding", cpu.effective.binding, layer),

    FIELD(COUNT, "memory.host.total_bytes", memory.host.total_bytes),
    FIELD(COUNT, "memory.host.available_bytes", memory.host.available_bytes),
    FIELD(VERSION, "memory.cgroup.version", memory.cgroup.version),
    NAME("memory.cgroup.status", memory.cgroup.status, limit_status),
    FIELD(COUNT, "memory.cgroup.limit_bytes", memory.cgroup.limit_bytes),
    FIELD(COUNT, "memory.cgroup.high_bytes", memory.cgroup.high_bytes),
    FIELD(COUNT, "memory.cgroup.current_bytes", memory.cgroup.current_bytes),
    FIELD(COUNT, "memory.cgroup.working_set_bytes", memory.cgroup.working_set_bytes),
    FIELD(COUNT, "memory.cgroup.remaining_bytes", memory.cgroup.remaining_bytes),
    FIELD(COUNT, "memory.cgroup.planning_remaining_bytes", memory.cgroup.planning_remaining_bytes),
    DERIVED("memory.cgroup.against_allocation", memory_against_allocation),
    FIELD(COUNT, "memory.scheduler.limit_bytes", memory.scheduler.limit_bytes),
    FIELD(COUNT, "memory.scheduler.per_task_bytes", memory.scheduler.per_task_bytes),
    DERIVED("memory.scheduler.per_task_source", per_task_source),
    FIELD(COUNT, "memory.effective.limit_bytes", memory.effective.limit_bytes),
    FIELD(COUNT, "memory.effective.remaining_bytes", memory.effective.remaining_bytes),
    NAME("memory.effective.binding", memory.effective.binding, layer),

    NAME("pressure.source", pressure.source, pressure_source),
    FIELD(FRACTION, "pressure.cpu.some_avg10", pressure.cpu_some_avg10),
    FIELD(FRACTION, "pressure.memory.some_avg10", pressure.memory_some_avg10),
    FIELD(FRACTION, "pressure.memory.full_avg10", pressure.memory_full_avg10),
    FIELD(COUNT, "pressure.swap.in_pages", pressure.swap_in_pages),
    FIELD(COUNT, "pressure.swap.out_pages", pressure.swap_out_pages),

    FIELD(COUNT, "accelerators.visible.NVIDIA_VISIBLE_DEVICES", accel.visible[GOV_VIS_NVIDIA]),
    FIELD(COUNT, "accelerators.visible.CUDA_VISIBLE_DEVICES", accel.visible[GOV_VIS_CUDA]),
    FIELD(COUNT, "accelerators.visible.ROCR_VISIBLE_DEVICES", accel.visible[GOV_VIS_ROCR]),
    FIELD(COUNT, "accelerators.visible.HIP_VISIBLE_DEVICES", accel.visible[GOV_VIS_HIP]),
    FIELD(COUNT, "accelerators.nvidia.gpus", accel.nvidia_gpus),
    FIELD(COUNT, "accelerators.nvidia.device_nodes", accel.nvidia_dev_nodes),
    FIELD(COUNT, "accelerators.nvidia.device_nodes_usable", accel.nvidia_dev_usable),
    FIELD(COUNT, "accelerators.nvidia.device_nodes_denied", accel.nvidia_dev_denied),
    FIELD(COUNT, "accelerators.amd.gpus", accel.amd_gpus),
    FIELD(TRISTATE, "accelerators.amd.kfd_usable", accel.kfd_usable),
    FIELD(COUNT, "accelerators.drm.render_nodes", accel.drm_render_nodes),
    FIELD(COUNT, "accelerators.drm.render_nodes_usable", accel.drm_render_usable),
    FIELD(COUNT, "accelerators.drm.render_nodes_denied", accel.drm_render_denied),
    FIELD(TRISTATE, "accelerators.devices_confined", accel.devices_confined),
    FIELD(INDEX, "accelerators.governed_gpu.card", accel.gpu_index),
    FIELD(COUNT, "accelerators.governed_gpu.vram_total_bytes", accel.gpu_vram_total_bytes),
    FIELD(COUNT, "accelerators.governed_gpu.vram_used_bytes", accel.gpu_vram_used_bytes),
    DERIVED("accelerators.governed_gpu.memory_model", memory_model),
    HIDDEN(TRISTATE, accel.gpu_unified),

    DERIVED("disk.scope", disk_scope),
    FIELD(COUNT, "disk.capacity_bytes", disk.capacity_bytes),
    FIELD(COUNT, "disk.free_bytes", disk.free_bytes),
    FIELD(COUNT, "disk.avail_bytes", disk.avail_bytes),
    FIELD(TRISTATE, "disk.writable", disk.writable),

    NAME("enforcement.cpu", enforcement.cpu, enforcement),
    DERIVED("enforcement.cpu_held_by", cpu_held_by),
    NAME("enforcement.memory", enforcement.memory, enforcement),
    NAME("enforcement.gpu", enforcement.gpu, enforcement),

    DERIVED("policy.source", policy_source),
    NAME("policy.profile", policy.profile, profile),
    FIELD(FLAG, "policy.profile_imposed", policy.profile_imposed),
    FIELD(COUNT, "policy.mem_reserve_bytes", policy.mem_reserve_bytes),
    FIELD(PERCENT, "policy.mem_reserve_pct", policy.mem_reserve_pct),
    FIELD(COUNT, "policy.cpu_reserve_threads", policy.cpu_reserve_threads),
    FIELD(PERCENT, "policy.cpu_reserve_pct", policy.cpu_reserve_pct),

    NAME("topology.source", topology.source, topology_source),
    FIELD(COUNT, "topology.step.packages", topology.step.packages),
    FIELD(COUNT, "topology.step.cores", topology.step.cores),
    FIELD(COUNT, "topology.step.pus", topology.step.pus),
    FIELD(COUNT, "topology.step.numa_nodes", topology.step.numa_nodes),
    FIELD(COUNT, "topology.task.packages", topology.task.packages),
    FIELD(COUNT, "topology.task.cores", topology.task.cores),
    FIELD(COUNT, "topology.task.pus", topology.task.pus),
    FIELD(COUNT, "topology.task.numa_nodes", topology.task.numa_nodes),
    FIELD(COUNT, "topology.task.whole_cores", topology.task_whole_cores),
    NUMA_LIST("topology.task.numa", topology.numa, topology.numa_count),
    FIELD(COUNT, "topology.task.gpus_local", topology.task_gpus_local),
    FIELD(COUNT, "topology.host.memory_only_numa_nodes", topology.memory_only_numa_nodes),
    FIELD(COUNT, "topology.host.memory_only_bytes", topology.memory_only_bytes),
};

const gov_field *gov__snapshot_fields(size_t *count)
{
    *count = sizeof fields / sizeof fields[0];
    return fields;
}

void gov__part_set_unknown(void *part, size_t offset, size_t size)
{
    memset(part, 0, size);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const gov_field *f = &fields[i];
        char *at;

        if (f->kind == GOV_FIELD_DERIVED || f->offset < offset || f->offset >= offset + size)
            continue;
        at = (char *)part + (f->offset - offset);
        switch (f->kind) {
        case GOV_FIELD_COUNT: {
            uint64_t v = GOV_UNKNOWN;
            memcpy(at, &v, sizeof v);
            break;
        }
        case GOV_FIELD_FRACTION: {
            double v = NAN;
            memcpy(at, &v, sizeof v);
            break;
        }
        case GOV_FIELD_TRISTATE:
        case GOV_FIELD_INDEX: {
            int v = -1;
            memcpy(at, &v, sizeof v);
            break;
        }
        default:
            break; /* 0: no flag, no percentage, no cgroup, every enum's "none" */
        }
    }
}

void gov_snapshot_init(gov_snapshot *s)
{
    gov__part_set_unknown(s, 0, sizeof *s);
}
