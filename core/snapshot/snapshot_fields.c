/* snapshot_fields.c - the table of gov_snapshot's fields (snapshot_base.h),
 * one block per part, in the order of the JSON contract (docs/snapshot.md),
 * each row with the label `governor snapshot` prints it under. */
#include "snapshot_base.h"

#include "base.h"

#include <math.h>
#include <stdio.h>
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
static const char *gpu_share_kind(unsigned v) { return gov_gpu_share_kind_name(v); }

/* The values printed from more than their own member. */
static const char *descriptor_reason(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    (void)buf, (void)cap;
    return s->descriptor.status == GOV_DESCRIPTOR_INVALID ? gov_strerror(s->descriptor.reason)
                                                          : NULL;
}

static const char *descriptor_unchecked(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    if (s->descriptor.status != GOV_DESCRIPTOR_VERIFIED)
        return NULL;
    return gov__bits_format(s->descriptor.unchecked, gov__binding_bits_name, GOV_BINDING_COUNT, buf,
                            cap);
}

static const char *container_namespaces(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    if (!s->descriptor.namespaces_seen)
        return NULL;
    return gov__bits_format(s->descriptor.namespaces, gov__namespace_bits_name, GOV_NAMESPACE_COUNT,
                            buf, cap);
}

static const char *container_namespaces_unknown(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    if (!s->descriptor.namespaces_seen)
        return NULL;
    return gov__bits_format(s->descriptor.namespaces_unknown, gov__namespace_bits_name,
                            GOV_NAMESPACE_COUNT, buf, cap);
}

static const char *descriptor_reason_code(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    (void)buf, (void)cap;
    return s->descriptor.status == GOV_DESCRIPTOR_INVALID ? gov_err_name(s->descriptor.reason)
                                                          : NULL;
}

/* Per-CPU memory times cpus-per-task: as trustworthy as the first. */
static const char *per_task_source(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    (void)buf, (void)cap;
    if (s->memory.scheduler.per_task_bytes == GOV_UNKNOWN)
        return NULL;
    return gov_sched_source_name(s->scheduler.mem_per_cpu_source);
}

static const char *memory_model(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    (void)buf, (void)cap;
    if (s->accel.gpu_index < 0 || s->accel.gpu_unified < 0)
        return NULL;
    return s->accel.gpu_unified ? "unified_cpu_gpu" : "dedicated";
}

/* The cgroup's hard limit against the step's memory on the node: "below"
 * once Slurm 26.05 lowers a running job's memory (scontrol update
 * MinMemoryNode, srun --mem-update) or where AllowedRAMSpace is under 100;
 * the effective limit follows the kernel's. */
static const char *memory_against_allocation(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    uint64_t limit = s->memory.cgroup.limit_bytes, alloc = s->memory.scheduler.limit_bytes;

    (void)buf, (void)cap;
    if (limit == GOV_UNKNOWN || alloc == GOV_UNKNOWN)
        return NULL;
    return limit < alloc ? "below" : limit == alloc ? "equal" : "above";
}

static const char *disk_scope(const void *obj, char *buf, size_t cap)
{
    (void)obj, (void)buf, (void)cap;
    return "working_filesystem";
}

static const char *cpu_held_by(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    if (s->enforcement.cpu == GOV_ENFORCEMENT_UNKNOWN)
        return NULL;
    gov__layers_format(gov__cpu_held(s), buf, cap);
    return buf;
}

static const char *policy_source(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    (void)buf, (void)cap;
    return s->policy.present ? "descriptor" : NULL;
}

/* Where a figure does not exist (n/a), rather than not known. */
static bool in_allocation(const void *obj)
{
    const gov_snapshot *s = obj;

    return s->scheduler.source != GOV_SCHED_NONE;
}

/* A GPU of some kind on the node: a driver entry or a device node. */
static bool has_gpu(const void *obj)
{
    const gov_snapshot *s = obj;

    return (s->accel.nvidia_gpus != 0 && s->accel.nvidia_gpus != GOV_UNKNOWN) ||
           (s->accel.amd_gpus != 0 && s->accel.amd_gpus != GOV_UNKNOWN) ||
           (s->accel.drm_render_nodes != 0 && s->accel.drm_render_nodes != GOV_UNKNOWN) ||
           (s->accel.nvidia_dev_nodes != 0 && s->accel.nvidia_dev_nodes != GOV_UNKNOWN);
}

static bool gpu_in_allocation(const void *obj)
{
    return in_allocation(obj) && has_gpu(obj);
}

/* A quota's figure exists where some level limits: unknown otherwise. */
static bool cpu_quota(const void *obj)
{
    const gov_snapshot *s = obj;

    return s->cpu.cgroup.quota_status != GOV_LIMIT_UNLIMITED;
}

/* --mem is per node: a per-task figure exists only with --mem-per-cpu. */
static bool per_task_memory(const void *obj)
{
    const gov_snapshot *s = obj;

    return in_allocation(obj) && !(s->memory.scheduler.per_task_bytes == GOV_UNKNOWN &&
                                   s->memory.scheduler.limit_bytes != GOV_UNKNOWN);
}

static bool memory_cgroup_v2(const void *obj)
{
    const gov_snapshot *s = obj;

    return s->memory.cgroup.version != 1;
}

static bool descriptor_invalid(const void *obj)
{
    const gov_snapshot *s = obj;

    return s->descriptor.status == GOV_DESCRIPTOR_INVALID;
}

static bool descriptor_verified(const void *obj)
{
    const gov_snapshot *s = obj;

    return s->descriptor.status == GOV_DESCRIPTOR_VERIFIED;
}

static bool governed_gpu(const void *obj)
{
    const gov_snapshot *s = obj;

    return s->accel.gpu_index >= 0;
}

/* The notes the text view prints after a value. */

/* What the plugin's GPU verification rested on (docs/descriptor.md, "GPU
 * verification"): a node without GPU device nodes confirms a grant of
 * none with no device cgroup at all. */
static const char *gpus_verified_note(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;
    bool nvidia = s->accel.nvidia_dev_nodes != GOV_UNKNOWN && s->accel.nvidia_dev_nodes > 0;
    uint64_t nodes = nvidia ? s->accel.nvidia_dev_nodes : s->accel.drm_render_nodes;

    (void)buf, (void)cap;
    if (!s->scheduler.gpus_verified)
        return NULL;
    return nodes == 0 ? "the node has no GPU device nodes"
                      : "the device cgroup admits exactly these";
}

/* The task's share of the step's CPUs above the sealed per-task count
 * (resolve.c): where the figure comes from. */
static const char *task_cpus_note(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    if (s->scheduler.cpus_per_task == GOV_UNKNOWN || s->cpu.scheduler.cpus == GOV_UNKNOWN ||
        s->cpu.scheduler.cpus <= s->scheduler.cpus_per_task)
        return NULL;
    snprintf(buf, cap, "its share of the step's %llu CPUs here, above the %llu per task sealed "
             "(srun without -c)", (unsigned long long)s->scheduler.cpus_on_node,
             (unsigned long long)s->scheduler.cpus_per_task);
    return buf;
}

/* Affinity alone is the weak case: a process may widen its own mask
 * within its cpuset. */
static const char *cpu_enforcement_note(const void *obj, char *buf, size_t cap)
{
    const gov_snapshot *s = obj;

    (void)buf, (void)cap;
    return s->enforcement.cpu != GOV_ENFORCEMENT_UNKNOWN &&
                   gov__cpu_held(s) == 1u << GOV_LAYER_AFFINITY
               ? "by affinity only: the cpuset is wider, and a task may widen its mask"
               : NULL;
}

/* What the grant is, for people (governor snapshot, plan, run --explain). */
const char *gov__gpu_share_text(const gov_snapshot *s, char *buf, size_t cap)
{
    static const char *const what[GOV_GPU_SHARE_KIND_COUNT] = {
        [GOV_GPU_SHARE_SHARD] = "gres/shard",
        [GOV_GPU_SHARE_MPS] = "CUDA MPS",
        [GOV_GPU_SHARE_MIG] = "a MIG instance",
        [GOV_GPU_SHARE_PARTITION] = "an AMD partition",
    };
    const gov_snapshot_scheduler *sc = &s->scheduler;
    double f = sc->gpu_share;
    char amount[48];
    const char *held;

    if (sc->gpu_share_kind == GOV_GPU_SHARE_NONE || sc->gpu_share_kind == GOV_GPU_SHARE_GPU ||
        (unsigned)sc->gpu_share_kind >= GOV_GPU_SHARE_KIND_COUNT)
        return NULL;
    if (!gov_known_f(f))
        snprintf(amount, sizeof amount, "an unknown share");
    else if (fabs(f - 0.25) < 1e-9)
        snprintf(amount, sizeof amount, "a quarter");
    else if (fabs(f - 0.5) < 1e-9)
        snprintf(amount, sizeof amount, "half");
    else if (fabs(f - 0.75) < 1e-9)
        snprintf(amount, sizeof amount, "three quarters");
    else if (fabs(f - 1.0) < 1e-9)
        snprintf(amount, sizeof amount, "the whole");
    else
        snprintf(amount, sizeof amount, "%.2f", f);
    held = s->enforcement.gpu_share == GOV_ENFORCED       ? "held to it"
           : s->enforcement.gpu_share == GOV_NOT_ENFORCED ? "not fenced"
                                                          : "held to it or not, unknown";
    snprintf(buf, cap, "%s of a GPU through %s, %s", amount, what[sc->gpu_share_kind], held);
    return buf;
}

static const char *gpu_share_note(const void *obj, char *buf, size_t cap)
{
    return gov__gpu_share_text(obj, buf, cap);
}

/* One object per NUMA node of the task's mask: null while the task part
 * is unknown. */
static void put_numa(gov_jw *w, const char *key, const void *obj)
{
    const gov_snapshot *s = obj;
    const gov_snapshot_topology *t = &s->topology;

    if (t->task.numa_nodes == GOV_UNKNOWN) {
        gov__jw_null(w, key);
        return;
    }
    gov__jw_array_begin(w, key);
    for (uint32_t i = 0; i < t->numa_count && i < GOV_TOPOLOGY_NUMA_MAX; i++) {
        gov__jw_object_begin(w, NULL);
        gov__jw_u64(w, "os_index", t->numa[i].os_index);
        gov__jw_u64(w, "pus", t->numa[i].pus);
        gov__jw_u64(w, "cores", t->numa[i].cores);
        gov__jw_u64(w, "local_memory_bytes", t->numa[i].local_memory_bytes);
        gov__jw_cpuset(w, "cpus", &t->numa[i].cpus);
        gov__jw_object_end(w);
    }
    gov__jw_array_end(w);
}

/* Each NUMA node of the mask, for people: what a worker per node gets. */
static void text_numa(const void *obj, FILE *out)
{
    const gov_snapshot *s = obj;
    const gov_snapshot_topology *t = &s->topology;
    char list[48], label[32];

    for (uint32_t i = 0; i < t->numa_count && i < GOV_TOPOLOGY_NUMA_MAX; i++) {
        if (gov_cpuset_format(&t->numa[i].cpus, list, sizeof list) < 0)
            snprintf(list, sizeof list, "...");
        snprintf(label, sizeof label, "task NUMA node %u", t->numa[i].os_index);
        fprintf(out, "  %-34s %u PUs, %llu cores: %s; ", label, t->numa[i].pus,
                (unsigned long long)t->numa[i].cores, list);
        if (t->numa[i].local_memory_bytes == GOV_UNKNOWN)
            fprintf(out, "memory unknown\n");
        else
            fprintf(out, "%.1f MiB local memory\n",
                    (double)t->numa[i].local_memory_bytes / (1024.0 * 1024.0));
    }
}

/* Row makers: member, JSON path, label; the rest by designated
 * initializer after them in the row's braces (.applies = ...). */
#define AT(member) offsetof(gov_snapshot, member)
#define FIELD(kind_, path_, member, label_) \
    .path = (path_), .kind = GOV_FIELD_##kind_, .offset = AT(member), .label = (label_)
#define BYTES(path_, member, label_) FIELD(COUNT, path_, member, label_), .unit = GOV_UNIT_BYTES
#define CORES(path_, member, label_) FIELD(FRACTION, path_, member, label_), .unit = GOV_UNIT_CORES
#define PSI(path_, member, label_) FIELD(FRACTION, path_, member, label_), .unit = GOV_UNIT_PERCENT
#define NAME(path_, member, fn, label_) FIELD(NAME, path_, member, label_), .name = (fn)
#define CPUSET(path_, member, count, label_) FIELD(CPUSET, path_, member, label_), .aux = AT(count)
#define DERIVED(path_, fn, label_) \
    .path = (path_), .kind = GOV_FIELD_DERIVED, .derive = (fn), .label = (label_)
#define HIDDEN(kind_, member) .path = #member, .kind = GOV_FIELD_##kind_, .offset = AT(member), \
                              .hidden = true
#define SECTION(title) .kind = GOV_FIELD_SECTION, .label = (title)

static const gov_field fields[] = {
    { SECTION("DESCRIPTOR") },
    { NAME("descriptor.status", descriptor.status, descriptor_status, "status") },
    { DERIVED("descriptor.reason", descriptor_reason, "why not"), .applies = descriptor_invalid },
    { DERIVED("descriptor.reason_code", descriptor_reason_code, "error"),
      .applies = descriptor_invalid },
    { FIELD(COUNT, "descriptor.age_s", descriptor.age_s, "age"), .unit = GOV_UNIT_SECONDS,
      .applies = descriptor_verified },
    { FIELD(FLAG, "descriptor.replayed", descriptor.replayed, "decoded before (MUNGE)"),
      .applies = descriptor_verified },
    { FIELD(FLAG, "descriptor.expired", descriptor.expired, "past its MUNGE TTL"),
      .applies = descriptor_verified },
    { NAME("descriptor.via", descriptor.via, descriptor_via, "handed over by"),
      .applies = descriptor_verified },
    { DERIVED("descriptor.unchecked", descriptor_unchecked, "bindings unchecked"),
      .applies = descriptor_verified },
    { HIDDEN(FLAG, descriptor.unchecked) },
    { DERIVED("container.namespaces", container_namespaces, "namespaces of its own") },
    { HIDDEN(FLAG, descriptor.namespaces) },
    { HIDDEN(FLAG, descriptor.namespaces_seen) },
    { DERIVED("container.namespaces_unknown", container_namespaces_unknown,
              "namespaces that could not be told") },
    { HIDDEN(FLAG, descriptor.namespaces_unknown) },

    { SECTION("SCHEDULER") },
    { NAME("scheduler.source", scheduler.source, sched_source, "facts from"),
      .applies = in_allocation },
    { NAME("scheduler.step", scheduler.step_kind, step_kind, "step"), .applies = in_allocation },
    { FIELD(COUNT, "scheduler.tasks_on_node", scheduler.tasks_on_node, "tasks on this node"),
      .applies = in_allocation },
    { FIELD(COUNT, "scheduler.tasks_total", scheduler.tasks_total, "tasks of the step"),
      .applies = in_allocation },
    { FIELD(COUNT, "scheduler.nodes", scheduler.nodes, "nodes of the step"),
      .applies = in_allocation },
    { FIELD(COUNT, "scheduler.cpus_on_node", scheduler.cpus_on_node, "CPUs on this node"),
      .applies = in_allocation },
    { FIELD(COUNT, "scheduler.cpus_per_task", scheduler.cpus_per_task, "CPUs per task"),
      .applies = in_allocation },
    { FIELD(COUNT, "scheduler.gpus_on_node", scheduler.gpus_on_node, "GPUs on this node"),
      .applies = in_allocation },
    { FIELD(COUNT, "scheduler.gpus_per_task", scheduler.gpus_per_task, "GPUs per task"),
      .applies = in_allocation },
    { FIELD(FLAG, "scheduler.gpus_verified", scheduler.gpus_verified,
            "GPU grant confirmed by the kernel"), .applies = in_allocation,
      .note = gpus_verified_note },
    { NAME("scheduler.gpus_on_node_source", scheduler.gpus_on_node_source, sched_source,
           "GPUs on this node from"), .applies = in_allocation },
    { NAME("scheduler.gpus_per_task_source", scheduler.gpus_per_task_source, sched_source,
           "GPUs per task from"), .applies = in_allocation },
    { NAME("scheduler.gpu_share_kind", scheduler.gpu_share_kind, gpu_share_kind, "GPU grant"),
      .applies = in_allocation, .note = gpu_share_note },
    { FIELD(FRACTION, "scheduler.gpu_share", scheduler.gpu_share, "GPU share (of one GPU)"),
      .applies = in_allocation },
    { NAME("scheduler.gpu_share_source", scheduler.gpu_share_source, sched_source,
           "GPU share from"), .applies = in_allocation },
    { BYTES("scheduler.gpu_memory_bytes", scheduler.gpu_memory_bytes, "GPU memory of the grant"),
      .applies = in_allocation },
    /* Shown as .memory.scheduler's figures, which resolve derives. */
    { HIDDEN(COUNT, scheduler.mem_per_node_bytes) },
    { HIDDEN(COUNT, scheduler.mem_per_cpu_bytes) },
    { HIDDEN(NAME, scheduler.mem_per_cpu_source) },

    { SECTION("CPU") },
    { FIELD(COUNT, "cpu.host.logical", cpu.host.logical, "host: logical CPUs (inventory)") },
    { FIELD(COUNT, "cpu.host.physical", cpu.host.physical, "host: cores") },
    { FIELD(COUNT, "cpu.host.packages", cpu.host.packages, "host: packages") },
    { FIELD(COUNT, "cpu.host.numa_nodes", cpu.host.numa_nodes, "host: NUMA nodes") },
    { FIELD(COUNT, "cpu.host.online", cpu.host.online, "host: CPUs online") },
    { FIELD(COUNT, "cpu.affinity.count", cpu.affinity.count, "affinity: CPUs") },
    { CPUSET("cpu.affinity.list", cpu.affinity.set, cpu.affinity.count, "affinity: CPU list") },
    { FIELD(VERSION, "cpu.cgroup.version", cpu.cgroup.version, "cgroup: version") },
    { FIELD(COUNT, "cpu.cgroup.cpuset_count", cpu.cgroup.cpuset_count, "cgroup: cpuset CPUs") },
    { CPUSET("cpu.cgroup.cpuset_list", cpu.cgroup.cpuset, cpu.cgroup.cpuset_count,
             "cgroup: cpuset list") },
    { CORES("cpu.cgroup.quota_cores", cpu.cgroup.quota_cores, "cgroup: quota"),
      .applies = cpu_quota },
    { NAME("cpu.cgroup.quota_status", cpu.cgroup.quota_status, limit_status,
           "cgroup: quota status") },
    { FIELD(COUNT, "cpu.scheduler.cpus", cpu.scheduler.cpus, "scheduler: CPUs of this task"),
      .applies = in_allocation, .note = task_cpus_note },
    { CORES("cpu.effective.capacity_cores", cpu.effective.capacity_cores,
            "effective: capacity") },
    { FIELD(COUNT, "cpu.effective.workers", cpu.effective.workers, "effective: workers") },
    { NAME("cpu.effective.binding", cpu.effective.binding, layer, "effective: bound by") },

    { SECTION("MEMORY") },
    { BYTES("memory.host.total_bytes", memory.host.total_bytes, "host: total (inventory)") },
    { BYTES("memory.host.available_bytes", memory.host.available_bytes, "host: available") },
    { FIELD(VERSION, "memory.cgroup.version", memory.cgroup.version, "cgroup: version") },
    { NAME("memory.cgroup.status", memory.cgroup.status, limit_status, "cgroup: limit status") },
    { BYTES("memory.cgroup.limit_bytes", memory.cgroup.limit_bytes,
            "cgroup: max (kills past it)") },
    { BYTES("memory.cgroup.high_bytes", memory.cgroup.high_bytes,
            "cgroup: high (throttles past it)"), .applies = memory_cgroup_v2 },
    { BYTES("memory.cgroup.current_bytes", memory.cgroup.current_bytes,
            "cgroup: usage, page cache included") },
    { BYTES("memory.cgroup.working_set_bytes", memory.cgroup.working_set_bytes,
            "cgroup: working set") },
    { BYTES("memory.cgroup.remaining_bytes", memory.cgroup.remaining_bytes,
            "cgroup: remaining to max") },
    { BYTES("memory.cgroup.planning_remaining_bytes", memory.cgroup.planning_remaining_bytes,
            "cgroup: remaining to max or high") },
    { DERIVED("memory.cgroup.against_allocation", memory_against_allocation,
              "cgroup: max against the allocation") },
    { BYTES("memory.scheduler.limit_bytes", memory.scheduler.limit_bytes,
            "scheduler: per node"), .applies = in_allocation },
    { BYTES("memory.scheduler.per_task_bytes", memory.scheduler.per_task_bytes,
            "scheduler: per task"), .applies = per_task_memory },
    { DERIVED("memory.scheduler.per_task_source", per_task_source, "scheduler: per task from"),
      .applies = in_allocation },
    { BYTES("memory.effective.limit_bytes", memory.effective.limit_bytes, "effective: limit") },
    { BYTES("memory.effective.remaining_bytes", memory.effective.remaining_bytes,
            "effective: remaining") },
    { NAME("memory.effective.binding", memory.effective.binding, layer, "effective: bound by") },

    { SECTION("PRESSURE") },
    { NAME("pressure.source", pressure.source, pressure_source, "from") },
    { PSI("pressure.cpu.some_avg10", pressure.cpu_some_avg10, "CPU some (avg10)") },
    { PSI("pressure.memory.some_avg10", pressure.memory_some_avg10, "memory some (avg10)") },
    { PSI("pressure.memory.full_avg10", pressure.memory_full_avg10, "memory full (avg10)") },
    { FIELD(COUNT, "pressure.swap.in_pages", pressure.swap_in_pages, "pages swapped in") },
    { FIELD(COUNT, "pressure.swap.out_pages", pressure.swap_out_pages, "pages swapped out") },

    { SECTION("ACCELERATORS") },
    { FIELD(COUNT, "accelerators.visible.NVIDIA_VISIBLE_DEVICES", accel.visible[GOV_VIS_NVIDIA],
            "visible: NVIDIA_VISIBLE_DEVICES") },
    { FIELD(COUNT, "accelerators.visible.CUDA_VISIBLE_DEVICES", accel.visible[GOV_VIS_CUDA],
            "visible: CUDA_VISIBLE_DEVICES") },
    { FIELD(COUNT, "accelerators.visible.ROCR_VISIBLE_DEVICES", accel.visible[GOV_VIS_ROCR],
            "visible: ROCR_VISIBLE_DEVICES") },
    { FIELD(COUNT, "accelerators.visible.HIP_VISIBLE_DEVICES", accel.visible[GOV_VIS_HIP],
            "visible: HIP_VISIBLE_DEVICES") },
    { FIELD(COUNT, "accelerators.nvidia.gpus", accel.nvidia_gpus, "NVIDIA: GPUs (driver)") },
    { FIELD(COUNT, "accelerators.nvidia.device_nodes", accel.nvidia_dev_nodes,
            "NVIDIA: device nodes") },
    { FIELD(COUNT, "accelerators.nvidia.device_nodes_usable", accel.nvidia_dev_usable,
            "NVIDIA: device nodes usable") },
    { FIELD(COUNT, "accelerators.nvidia.device_nodes_denied", accel.nvidia_dev_denied,
            "NVIDIA: denied (device cgroup)") },
    { FIELD(COUNT, "accelerators.amd.gpus", accel.amd_gpus, "AMD: GPUs (driver)") },
    { FIELD(TRISTATE, "accelerators.amd.kfd_usable", accel.kfd_usable, "AMD: KFD usable") },
    { FIELD(COUNT, "accelerators.drm.render_nodes", accel.drm_render_nodes,
            "DRM: render nodes") },
    { FIELD(COUNT, "accelerators.drm.render_nodes_usable", accel.drm_render_usable,
            "DRM: render nodes usable") },
    { FIELD(COUNT, "accelerators.drm.render_nodes_denied", accel.drm_render_denied,
            "DRM: denied (device cgroup)") },
    { FIELD(TRISTATE, "accelerators.devices_confined", accel.devices_confined,
            "confined by a device cgroup") },
    { FIELD(INDEX, "accelerators.governed_gpu.card", accel.gpu_index, "governed GPU: card"),
      .applies = governed_gpu },
    { BYTES("accelerators.governed_gpu.vram_total_bytes", accel.gpu_vram_total_bytes,
            "governed GPU: memory"), .applies = governed_gpu },
    { BYTES("accelerators.governed_gpu.vram_used_bytes", accel.gpu_vram_used_bytes,
            "governed GPU: memory used"), .applies = governed_gpu },
    { DERIVED("accelerators.governed_gpu.memory_model", memory_model,
              "governed GPU: memory model"), .applies = governed_gpu },
    { HIDDEN(TRISTATE, accel.gpu_unified) },
    { FIELD(COUNT, "accelerators.governed_gpu.partitions", accel.gpu_partitions,
            "governed GPU: its GPU's partitions"), .applies = governed_gpu },
    { FIELD(FLAG, "accelerators.mps.pinned_memory_limit", accel.mps_pinned_limit,
            "MPS: pinned memory limit") },

    { SECTION("DISK") },
    { DERIVED("disk.scope", disk_scope, "scope") },
    { BYTES("disk.capacity_bytes", disk.capacity_bytes, "capacity") },
    { BYTES("disk.free_bytes", disk.free_bytes, "free") },
    { BYTES("disk.avail_bytes", disk.avail_bytes, "available to you") },
    { FIELD(TRISTATE, "disk.writable", disk.writable, "writable") },

    { SECTION("ENFORCEMENT") },
    { NAME("enforcement.cpu", enforcement.cpu, enforcement, "CPU"), .applies = in_allocation,
      .note = cpu_enforcement_note },
    { DERIVED("enforcement.cpu_held_by", cpu_held_by, "CPU held by"),
      .applies = in_allocation },
    { NAME("enforcement.memory", enforcement.memory, enforcement, "memory"),
      .applies = in_allocation },
    { NAME("enforcement.gpu", enforcement.gpu, enforcement, "GPUs"),
      .applies = gpu_in_allocation },
    { NAME("enforcement.gpu_share", enforcement.gpu_share, enforcement, "GPU share"),
      .applies = gpu_in_allocation },

    { SECTION("POLICY") },
    { DERIVED("policy.source", policy_source, "from") },
    { NAME("policy.profile", policy.profile, profile, "profile") },
    { FIELD(FLAG, "policy.profile_imposed", policy.profile_imposed,
            "profile imposed by the site") },
    { BYTES("policy.mem_reserve_bytes", policy.mem_reserve_bytes, "memory reserve") },
    { FIELD(PERCENT, "policy.mem_reserve_pct", policy.mem_reserve_pct, "memory reserve (%)") },
    { FIELD(COUNT, "policy.cpu_reserve_threads", policy.cpu_reserve_threads,
            "CPU reserve (threads)") },
    { FIELD(PERCENT, "policy.cpu_reserve_pct", policy.cpu_reserve_pct, "CPU reserve (%)") },

    { SECTION("TOPOLOGY") },
    { NAME("topology.source", topology.source, topology_source, "from") },
    { FIELD(COUNT, "topology.step.packages", topology.step.packages, "step: packages"),
      .applies = in_allocation },
    { FIELD(COUNT, "topology.step.cores", topology.step.cores, "step: cores"),
      .applies = in_allocation },
    { FIELD(COUNT, "topology.step.pus", topology.step.pus, "step: PUs"),
      .applies = in_allocation },
    { FIELD(COUNT, "topology.step.numa_nodes", topology.step.numa_nodes, "step: NUMA nodes"),
      .applies = in_allocation },
    { FIELD(COUNT, "topology.task.packages", topology.task.packages, "task: packages") },
    { FIELD(COUNT, "topology.task.cores", topology.task.cores, "task: cores") },
    { FIELD(COUNT, "topology.task.pus", topology.task.pus, "task: PUs") },
    { FIELD(COUNT, "topology.task.numa_nodes", topology.task.numa_nodes, "task: NUMA nodes") },
    { FIELD(COUNT, "topology.task.whole_cores", topology.task_whole_cores,
            "task: whole cores") },
    { .path = "topology.task.numa", .kind = GOV_FIELD_CUSTOM, .put = put_numa,
      .text = text_numa, .label = "task: NUMA nodes' CPUs" },
    { FIELD(COUNT, "topology.task.gpus_local", topology.task_gpus_local,
            "task: GPUs on its NUMA nodes"), .applies = has_gpu },
    { FIELD(COUNT, "topology.host.memory_only_numa_nodes", topology.memory_only_numa_nodes,
            "host: memory-only NUMA nodes") },
    { BYTES("topology.host.memory_only_bytes", topology.memory_only_bytes,
            "host: memory-only NUMA memory") },
};

const gov_field *gov__snapshot_fields(size_t *count)
{
    *count = sizeof fields / sizeof fields[0];
    return fields;
}

void gov__part_set_unknown(void *part, size_t offset, size_t size)
{
    gov__fields_set_unknown(fields, sizeof fields / sizeof fields[0], part, offset, size);
}

void gov_snapshot_init(gov_snapshot *s)
{
    gov__part_set_unknown(s, 0, sizeof *s);
}
