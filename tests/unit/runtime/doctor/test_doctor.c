/* The doctor's findings on synthetic snapshots: one test per finding and
 * per exit status.  Snapshots go through gov_snapshot_resolve(), so each
 * finding follows from the enforcement the resolver computes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"
#include "json/render.h"

#define MiB (1024ull * 1024ull)
#define GiB (1024ull * MiB)

/* A task in a normal step of 2 CPUs and 200 MiB on an 8-CPU, 16 GiB host,
 * where neither affinity, cpuset, quota nor a memory limit confines it. */
static gov_snapshot in_step(gov_sched_source source)
{
    gov_snapshot s;

    gov_snapshot_init(&s);
    s.cpu.host.logical = 8;
    s.memory.host.total_bytes = 16 * GiB;
    s.memory.host.available_bytes = 12 * GiB;
    s.scheduler.source = source;
    s.scheduler.step_kind = GOV_STEP_NORMAL;
    s.scheduler.tasks_on_node = 1;
    s.scheduler.cpus_on_node = 2;
    s.scheduler.cpus_per_task = 2;
    s.scheduler.mem_per_node_bytes = 200 * MiB;
    if (source == GOV_SCHED_DESCRIPTOR)
        s.descriptor.status = GOV_DESCRIPTOR_VERIFIED;
    s.cpu.affinity.count = 8;
    s.cpu.cgroup.version = 1;
    s.cpu.cgroup.cpuset_count = 8;
    s.cpu.cgroup.quota_status = GOV_LIMIT_UNLIMITED;
    s.memory.cgroup.version = 1;
    s.memory.cgroup.status = GOV_LIMIT_UNLIMITED;
    s.pressure.source = GOV_PRESSURE_SOURCE_SYSTEM;
    s.pressure.swap_in_pages = 0;
    s.pressure.swap_out_pages = 0;
    return s;
}

/* What task/cgroup with ConstrainCores and ConstrainRAMSpace gives. */
static void task_cgroup(gov_snapshot *s)
{
    s->cpu.affinity.count = 2;
    s->cpu.cgroup.cpuset_count = 2;
    s->memory.cgroup.status = GOV_LIMIT_LIMITED;
    s->memory.cgroup.limit_bytes = 200 * MiB;
}

static gov_doctor_report examine(gov_snapshot *s)
{
    gov_doctor_report r;

    gov_snapshot_resolve(s);
    assert_int_equal(gov__doctor_examine(s, &r), 0);
    return r;
}

static const gov_doctor_finding *find(const gov_doctor_report *r, const char *id)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(r->findings[i].id, id) == 0)
            return &r->findings[i];
    return NULL;
}

static const gov_doctor_finding *expect(const gov_doctor_report *r, const char *id,
                                        gov_doctor_severity sev, const char *resource)
{
    const gov_doctor_finding *f = find(r, id);

    if (!f)
        fail_msg("no finding %s", id);
    assert_int_equal(f->severity, sev);
    assert_string_equal(f->resource, resource);
    assert_non_null(f->summary);
    return f;
}

static void expect_fix(const gov_doctor_finding *f, const char *part)
{
    assert_non_null(f->fix);
    if (!strstr(f->fix, part))
        fail_msg("fix of %s lacks '%s': %s", f->id, part, f->fix);
}

static void held(const gov_doctor_finding *f, const char *want)
{
    char buf[64];

    gov__doctor_held_names(f, buf, sizeof buf);
    assert_string_equal(buf, want);
}

/* ---- exit status ------------------------------------------------------- */

static void test_exit_0_when_everything_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    assert_int_equal(r.exit_status, 0);
    for (size_t i = 0; i < r.count; i++)
        assert_int_equal(r.findings[i].severity, GOV_DOCTOR_OK);
    assert_int_equal(r.count, 3); /* descriptor, cpu, memory */
}

static void test_exit_1_when_an_allocation_is_not_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.memory.cgroup.status = GOV_LIMIT_UNLIMITED;
    s.memory.cgroup.limit_bytes = GOV_UNKNOWN;
    r = examine(&s);
    assert_int_equal(r.exit_status, 1);
}

static void test_exit_0_when_nothing_is_known(void **state)
{
    gov_snapshot s;
    gov_doctor_report r;

    (void)state;
    gov_snapshot_init(&s);
    r = examine(&s);
    assert_int_equal(r.exit_status, 0);
}

static void test_null_arguments(void **state)
{
    gov_snapshot s;
    gov_doctor_report r;

    (void)state;
    gov_snapshot_init(&s);
    assert_int_equal(gov__doctor_examine(NULL, &r), GOV_EINVAL);
    assert_int_equal(gov__doctor_examine(&s, NULL), GOV_EINVAL);
}

/* ---- descriptor -------------------------------------------------------- */

static void test_descriptor_verified(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    f = expect(&r, "descriptor.verified", GOV_DOCTOR_OK, "descriptor");
    assert_null(f->fix);
    assert_null(find(&r, "scheduler.unverified"));
}

static void test_descriptor_invalid_reasons(void **state)
{
    static const struct {
        int reason;
        const char *fix_part;
    } cases[] = {
        { GOV_EMUNGE, "munged runs" },
        { GOV_ESEAL, "same MUNGE key" },
        { GOV_ESEAL, "clocks agree" },
        { GOV_EUNTRUSTED, "srun --governor" },
        { GOV_EBINDING, "srun --governor" },
        { GOV_ENODE, "do not copy GOVERNOR_DESCRIPTOR between nodes" },
        { GOV_EVERSION, "same slurm-governor version" },
        { GOV_EPARSE, "same slurm-governor version" },
        { GOV_EIO, "governor verify" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
        gov_doctor_report r;

        task_cgroup(&s);
        s.descriptor.status = GOV_DESCRIPTOR_INVALID;
        s.descriptor.reason = cases[i].reason;
        r = examine(&s);
        expect_fix(expect(&r, "descriptor.invalid", GOV_DOCTOR_WARN, "descriptor"),
                   cases[i].fix_part);
        /* The facts came from the variables instead: said too, with the
         * descriptor's fix, never "turn the governor on". */
        expect_fix(expect(&r, "scheduler.unverified", GOV_DOCTOR_WARN, "scheduler"),
                   "descriptor finding");
        assert_null(strstr(find(&r, "scheduler.unverified")->fix, "default=on"));
        assert_int_equal(r.exit_status, 0);
    }
}

/* In a container that binds neither hand-off in: named, with the lines
 * that bind them. */
static void test_descriptor_unreachable(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.descriptor.status = GOV_DESCRIPTOR_INVALID;
    s.descriptor.reason = GOV_EUNREACHABLE;
    r = examine(&s);
    expect_fix(expect(&r, "descriptor.unreachable", GOV_DOCTOR_WARN, "descriptor"),
               "/run/slurm-governor");
    assert_null(find(&r, "descriptor.invalid"));
    /* A governed container: bind the hand-off in; default=on changes
     * nothing there. */
    expect_fix(expect(&r, "scheduler.unverified", GOV_DOCTOR_WARN, "scheduler"),
               "/run/slurm-governor");
    assert_null(strstr(find(&r, "scheduler.unverified")->fix, "default=on"));
}

/* In a user namespace of its own, a descriptor whose maker nothing vouches
 * for (unchecked owner or munged) is said so, with the hand-off that does
 * carry a vouched-for descriptor there; a socket not root's is named. */
static void test_descriptor_unvouched(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.descriptor.unchecked = 1u << GOV_BINDING_OWNER;
    r = examine(&s);
    expect_fix(expect(&r, "descriptor.unvouched", GOV_DOCTOR_WARN, "descriptor"), "root's mark");
    assert_null(find(&r, "descriptor.verified"));
    s.descriptor.unchecked = (1u << GOV_BINDING_MUNGED) | (1u << GOV_BINDING_ANCESTRY);
    r = examine(&s);
    expect(&r, "descriptor.unvouched", GOV_DOCTOR_WARN, "descriptor");
    /* The ancestry alone (a PID namespace) leaves the maker vouched. */
    s.descriptor.unchecked = 1u << GOV_BINDING_ANCESTRY;
    r = examine(&s);
    expect(&r, "descriptor.verified", GOV_DOCTOR_OK, "descriptor");

    s = in_step(GOV_SCHED_ENVIRONMENT);
    s.descriptor.status = GOV_DESCRIPTOR_INVALID;
    s.descriptor.reason = GOV_ESOCKET;
    r = examine(&s);
    expect_fix(expect(&r, "descriptor.invalid", GOV_DOCTOR_WARN, "descriptor"), "--munge-socket");
}

/* A cgroup namespace of its own hides the step's limits: enforcement is
 * unknown, never an error, and the container setting that shows them is
 * named; the sealed allocation still stands. */
static void test_cgroup_hidden(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    s.descriptor.namespaces = (1u << GOV_NAMESPACE_CGROUP) | (1u << GOV_NAMESPACE_USER);
    s.descriptor.namespaces_seen = 1;
    s.cpu.affinity.count = 8;   /* the container's mask: all the host's */
    r = examine(&s);
    assert_int_equal(s.enforcement.memory, GOV_ENFORCEMENT_UNKNOWN);
    assert_int_equal(s.enforcement.cpu, GOV_ENFORCEMENT_UNKNOWN);
    assert_int_equal(s.memory.cgroup.status, GOV_LIMIT_UNKNOWN);
    expect_fix(expect(&r, "cgroup.hidden", GOV_DOCTOR_INFO, "cgroup"), "--cgroupns=host");
    expect(&r, "memory.hidden", GOV_DOCTOR_INFO, "memory");
    expect(&r, "cpu.hidden", GOV_DOCTOR_INFO, "cpu");
    assert_null(find(&r, "memory.not_enforced"));
    assert_null(find(&r, "memory.allocation_unknown"));
    assert_null(find(&r, "cgroup.unknown"));
    assert_int_equal(r.exit_status, 0);
    /* The effective budget is the sealed one, never the host's. */
    assert_int_equal(s.memory.effective.limit_bytes, 200 * MiB);
    assert_int_equal(s.memory.effective.binding, GOV_LAYER_SCHEDULER);
}

/* ---- scheduler --------------------------------------------------------- */

static void test_scheduler_unverified(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    f = expect(&r, "scheduler.unverified", GOV_DOCTOR_WARN, "scheduler");
    expect_fix(f, "srun --governor");
    expect_fix(f, "default=on");
    assert_null(find(&r, "descriptor.invalid"));
    assert_int_equal(r.exit_status, 0);
}

static void test_scheduler_outside_step(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;

    (void)state;
    /* salloc's shell: job variables, no step, nothing confines it. */
    s.scheduler.step_kind = GOV_STEP_UNKNOWN;
    r = examine(&s);
    assert_int_equal(s.enforcement.cpu, GOV_NOT_ENFORCED);
    expect_fix(expect(&r, "scheduler.outside_step", GOV_DOCTOR_WARN, "scheduler"), "srun");
    assert_null(find(&r, "cpu.not_enforced"));
    assert_null(find(&r, "memory.not_enforced"));
    assert_int_equal(r.exit_status, 0);
}

static void test_scheduler_missing_while_confined(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_NONE);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    expect_fix(expect(&r, "scheduler.missing", GOV_DOCTOR_WARN, "scheduler"), "default=on");
    assert_null(find(&r, "cpu.enforced"));
    assert_int_equal(r.exit_status, 0);
}

static void test_scheduler_none_unconfined(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_NONE);
    gov_doctor_report r;

    (void)state;
    r = examine(&s);
    expect_fix(expect(&r, "scheduler.none", GOV_DOCTOR_INFO, "scheduler"), "srun");
    assert_null(find(&r, "scheduler.missing"));
    assert_int_equal(r.count, 1);
    assert_int_equal(r.exit_status, 0);

    /* Half the CPUs offline: an affinity mask of the online ones is no confinement. */
    s.cpu.host.online = 4;
    s.cpu.affinity.count = 4;
    s.cpu.cgroup.cpuset_count = 4;
    r = examine(&s);
    expect(&r, "scheduler.none", GOV_DOCTOR_INFO, "scheduler");
    s.cpu.affinity.count = 3;
    r = examine(&s);
    expect(&r, "scheduler.missing", GOV_DOCTOR_WARN, "scheduler");
}

/* ---- CPU --------------------------------------------------------------- */

static void test_cpu_enforced_by_affinity_only(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    s.cpu.affinity.count = 2;   /* task/affinity, no cpuset, no quota */
    r = examine(&s);
    f = expect(&r, "cpu.enforced", GOV_DOCTOR_OK, "cpu");
    assert_int_equal(f->allocation, 2);
    assert_string_equal(gov__doctor_unit(f), "cpus");
    held(f, "affinity");
    assert_null(f->fix);
}

static void test_cpu_enforced_by_cpuset_and_quota(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    s.cpu.cgroup.cpuset_count = 2;
    s.cpu.cgroup.quota_cores = 1.5;
    s.cpu.cgroup.quota_status = GOV_LIMIT_LIMITED;
    r = examine(&s);
    held(expect(&r, "cpu.enforced", GOV_DOCTOR_OK, "cpu"), "cpuset,quota");
}

static void test_cpu_not_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    s.memory.cgroup.limit_bytes = 200 * MiB;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    s.cpu.cgroup.quota_cores = 4.0; /* a quota wider than the allocation */
    s.cpu.cgroup.quota_status = GOV_LIMIT_LIMITED;
    r = examine(&s);
    f = expect(&r, "cpu.not_enforced", GOV_DOCTOR_ERROR, "cpu");
    assert_int_equal(f->allocation, 2);
    held(f, "none");
    expect_fix(f, "TaskPlugin=task/affinity");
    expect_fix(f, "ConstrainCores=yes");
    assert_int_equal(r.exit_status, 1);
}

/* Tasks of a step sharing its CPUs (--cpu-bind=none, or no -c): the step's
 * cpuset holds the step, so the site runs what enforces CPUs; the advice is
 * the task's option, never a plugin. */
static void test_cpu_shared_in_step(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    s.scheduler.tasks_on_node = 2;
    s.scheduler.cpus_per_task = 1;
    s.cpu.affinity.count = 2;
    s.cpu.cgroup.cpuset_count = 2;
    s.memory.cgroup.limit_bytes = 200 * MiB;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    r = examine(&s);
    f = expect(&r, "cpu.shared_in_step", GOV_DOCTOR_WARN, "cpu");
    assert_int_equal(f->allocation, 1);
    expect_fix(f, "srun -c N");
    expect_fix(f, "SLURM_CPUS_PER_TASK");
    assert_null(strstr(f->fix, "TaskPlugin"));
    assert_null(find(&r, "cpu.not_enforced"));
    assert_int_equal(r.exit_status, 0);
}

static void test_cpu_unconfirmed(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    /* The cpu cgroup lies outside the namespace: every fact unknown. */
    s.cpu.cgroup.cpuset_count = GOV_UNKNOWN;
    s.cpu.cgroup.quota_status = GOV_LIMIT_UNKNOWN;
    s.memory.cgroup.limit_bytes = 200 * MiB;
    s.memory.cgroup.status = GOV_LIMIT_LIMITED;
    r = examine(&s);
    assert_int_equal(s.enforcement.cpu, GOV_NOT_ENFORCED);
    expect_fix(expect(&r, "cpu.unconfirmed", GOV_DOCTOR_WARN, "cpu"), "cgroup namespace");
    assert_null(find(&r, "cpu.not_enforced"));
    assert_null(find(&r, "cgroup.unknown")); /* said once */
    assert_int_equal(r.exit_status, 0);
}

static void test_cpu_allocation_unknown(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;

    (void)state;
    s.scheduler.cpus_per_task = GOV_UNKNOWN;
    s.scheduler.cpus_on_node = GOV_UNKNOWN;
    r = examine(&s);
    expect_fix(expect(&r, "cpu.allocation_unknown", GOV_DOCTOR_INFO, "cpu"), "--governor");
}

/* ---- GPUs -------------------------------------------------------------- */

/* A 4-GPU node (NVIDIA device nodes) and a grant of 2 in the step. */
static void gpu_node(gov_snapshot *s, uint64_t usable, uint64_t denied, int confined)
{
    s->scheduler.gpus_on_node = 2;
    s->accel.nvidia_dev_nodes = 4;
    s->accel.nvidia_dev_usable = usable;
    s->accel.nvidia_dev_denied = denied;
    s->accel.drm_render_nodes = 0;
    s->accel.devices_confined = confined;
}

static void test_gpu_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    gpu_node(&s, 2, 2, 1);
    s.scheduler.gpus_verified = 1;
    r = examine(&s);
    f = expect(&r, "gpu.enforced", GOV_DOCTOR_OK, "gpu");
    assert_int_equal(f->allocation, 2);
    assert_string_equal(gov__doctor_unit(f), "gpus");
    assert_non_null(strstr(f->summary, "verified"));
    held(f, "devices");
}

static void test_gpu_not_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    task_cgroup(&s);
    gpu_node(&s, 4, 0, 0);      /* ConstrainDevices=no: all four open */
    r = examine(&s);
    f = expect(&r, "gpu.not_enforced", GOV_DOCTOR_ERROR, "gpu");
    expect_fix(f, "ConstrainDevices=yes");
    held(f, "none");
    assert_int_equal(r.exit_status, 1);
    /* A whole-node grant with no device cgroup: nothing more to open, but
     * nothing enforces it either. */
    gpu_node(&s, 4, 0, 0);
    s.scheduler.gpus_on_node = 4;
    r = examine(&s);
    expect_fix(expect(&r, "gpu.not_enforced", GOV_DOCTOR_WARN, "gpu"), "ConstrainDevices=yes");
}

/* A shard's share: nothing fences it; an MPS client's: its memory only
 * with a pinned limit; a whole GPU, a MIG instance or a whole GPU's
 * shards: nothing to say. */
static void test_gpu_share(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    gpu_node(&s, 1, 3, 1);
    s.scheduler.gpus_verified = 1;
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_SHARD;
    s.scheduler.gpu_share = 0.25;
    r = examine(&s);
    expect_fix(expect(&r, "gpu.share_unfenced", GOV_DOCTOR_WARN, "gpu"), "MIG");
    expect(&r, "gpu.enforced", GOV_DOCTOR_OK, "gpu");
    assert_int_equal(r.exit_status, 0);
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_MPS;
    s.accel.mps_pinned_limit = 0;
    r = examine(&s);
    expect_fix(expect(&r, "gpu.mps_no_memory_limit", GOV_DOCTOR_WARN, "gpu"),
               "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT");
    assert_null(find(&r, "gpu.share_unfenced"));
    s.accel.mps_pinned_limit = 1;
    r = examine(&s);
    assert_null(find(&r, "gpu.mps_no_memory_limit"));
    s.accel.mps_pinned_limit = 0;
    s.scheduler.gpu_share = 1;
    r = examine(&s);
    assert_null(find(&r, "gpu.mps_no_memory_limit"));
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_SHARD;
    r = examine(&s);
    assert_null(find(&r, "gpu.share_unfenced"));
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_MIG;
    r = examine(&s);
    assert_null(find(&r, "gpu.share_unfenced"));
    /* A shard's task that can open more GPUs than its one: the grant is
     * not enforced, an error, besides the share that nothing fences. */
    s.scheduler.gpu_share_kind = GOV_GPU_SHARE_SHARD;
    s.scheduler.gpu_share = 0.25;
    s.scheduler.gpus_on_node = 1;
    gpu_node(&s, 4, 0, 0);
    r = examine(&s);
    expect(&r, "gpu.not_enforced", GOV_DOCTOR_ERROR, "gpu");
    expect(&r, "gpu.share_unfenced", GOV_DOCTOR_WARN, "gpu");
    assert_int_equal(r.exit_status, 1);
}

/* cgroup v2: the eBPF filter is seen through its refusals, or not at all. */
static void test_gpu_v2_filter(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.cpu.cgroup.version = s.memory.cgroup.version = 2;
    gpu_node(&s, 2, 2, 1);      /* a grant of 2: the other two refused */
    r = examine(&s);
    expect(&r, "gpu.filter_observed", GOV_DOCTOR_INFO, "gpu");
    assert_null(find(&r, "gpu.filter_unobservable"));
    gpu_node(&s, 4, 0, -1);     /* the whole node: nothing refused */
    s.scheduler.gpus_on_node = 4;
    r = examine(&s);
    expect_fix(expect(&r, "gpu.filter_unobservable", GOV_DOCTOR_INFO, "gpu"),
               "ConstrainDevices=yes");
    assert_null(find(&r, "gpu.filter_observed"));
    /* v1 has a devices controller to read: nothing to explain. */
    s.cpu.cgroup.version = s.memory.cgroup.version = 1;
    r = examine(&s);
    assert_null(find(&r, "gpu.filter_unobservable"));
}

/* Each task of a v2 step has the step's cpuset: only its affinity holds it
 * to its CPUs, which the doctor says, with how to get a cpuset of its own. */
static void test_cpu_affinity_only(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.cpu.cgroup.cpuset_count = 4;
    r = examine(&s);
    held(expect(&r, "cpu.enforced", GOV_DOCTOR_OK, "cpu"), "affinity");
    expect_fix(expect(&r, "cpu.affinity_only", GOV_DOCTOR_INFO, "cpu"), "srun -n1");
    s.cpu.cgroup.cpuset_count = 2;
    r = examine(&s);
    held(expect(&r, "cpu.enforced", GOV_DOCTOR_OK, "cpu"), "affinity,cpuset");
    assert_null(find(&r, "cpu.affinity_only"));
}

static void test_gpu_quiet_without_gpus(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.scheduler.gpus_on_node = 0;
    s.scheduler.gpus_verified = 1;
    s.accel.nvidia_dev_nodes = s.accel.nvidia_dev_usable = s.accel.nvidia_dev_denied = 0;
    s.accel.drm_render_nodes = s.accel.drm_render_usable = s.accel.drm_render_denied = 0;
    r = examine(&s);
    assert_null(find(&r, "gpu.enforced"));
    assert_null(find(&r, "gpu.not_enforced"));
    assert_null(find(&r, "gpu.allocation_unknown"));
    /* GPUs on the node but no grant known. */
    s.scheduler.gpus_on_node = GOV_UNKNOWN;
    s.accel.nvidia_dev_nodes = s.accel.nvidia_dev_usable = 4;
    r = examine(&s);
    expect(&r, "gpu.allocation_unknown", GOV_DOCTOR_INFO, "gpu");
}

/* ---- memory ------------------------------------------------------------ */

static void test_memory_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    f = expect(&r, "memory.enforced", GOV_DOCTOR_OK, "memory");
    assert_int_equal(f->allocation, 200 * MiB);
    assert_string_equal(gov__doctor_unit(f), "bytes");
    held(f, "cgroup");
}

/* --mem-per-cpu=100M -c2, two tasks on the node: the step's 400 MiB limit
 * holds the step's allocation; each task's 200 MiB share is a note. */
static void test_memory_per_task_allocation(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    task_cgroup(&s);
    s.scheduler.mem_per_node_bytes = GOV_UNKNOWN;
    s.scheduler.mem_per_cpu_bytes = 100 * MiB;
    s.scheduler.cpus_on_node = 4;
    s.scheduler.tasks_on_node = 2;
    s.memory.cgroup.limit_bytes = 400 * MiB;
    r = examine(&s);
    f = expect(&r, "memory.enforced", GOV_DOCTOR_OK, "memory");
    assert_int_equal(f->allocation, 400 * MiB);
    f = expect(&r, "memory.shared_in_step", GOV_DOCTOR_INFO, "memory");
    assert_int_equal(f->allocation, 200 * MiB);
    expect_fix(f, "srun -n1");
    assert_null(find(&r, "memory.not_enforced"));
    assert_int_equal(r.exit_status, 0);

    /* One task holding the step's CPUs: its share is the step's limit,
     * nothing is shared. */
    s.scheduler.tasks_on_node = 1;
    r = examine(&s);
    expect(&r, "memory.enforced", GOV_DOCTOR_OK, "memory");
    assert_null(find(&r, "memory.shared_in_step"));

    /* A limit above the step's memory: AllowedRAMSpace. */
    s.memory.cgroup.limit_bytes = 500 * MiB;
    r = examine(&s);
    f = expect(&r, "memory.not_enforced", GOV_DOCTOR_ERROR, "memory");
    assert_int_equal(f->allocation, 400 * MiB);
    expect_fix(f, "AllowedRAMSpace=100");
    assert_int_equal(r.exit_status, 1);
}

static void test_memory_not_enforced(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    s.cpu.affinity.count = 2; /* task/affinity alone */
    r = examine(&s);
    f = expect(&r, "memory.not_enforced", GOV_DOCTOR_ERROR, "memory");
    held(f, "none");
    expect_fix(f, "ConstrainRAMSpace=yes");
    expect_fix(f, "TaskPlugin=task/cgroup");
    held(expect(&r, "cpu.enforced", GOV_DOCTOR_OK, "cpu"), "affinity");
    assert_int_equal(r.exit_status, 1);
}

static void test_memory_unconfirmed(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.memory.cgroup.status = GOV_LIMIT_UNKNOWN;
    s.memory.cgroup.limit_bytes = GOV_UNKNOWN;
    r = examine(&s);
    expect_fix(expect(&r, "memory.unconfirmed", GOV_DOCTOR_WARN, "memory"), "ConstrainRAMSpace");
    assert_null(find(&r, "memory.not_enforced"));
    assert_null(find(&r, "cgroup.unknown"));
    assert_int_equal(r.exit_status, 0);
}

static void test_memory_allocation_unknown(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    /* A plain srun: no memory variable in the task. */
    s.scheduler.mem_per_node_bytes = GOV_UNKNOWN;
    r = examine(&s);
    expect_fix(expect(&r, "memory.allocation_unknown", GOV_DOCTOR_INFO, "memory"),
               "srun --governor");
    assert_int_equal(r.exit_status, 0);
}

static void test_memory_high_only(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.memory.cgroup.version = 2;
    s.memory.cgroup.limit_bytes = GOV_UNKNOWN;
    s.memory.cgroup.high_bytes = 200 * MiB;
    r = examine(&s);
    expect_fix(expect(&r, "memory.high_only", GOV_DOCTOR_WARN, "memory"), "memory.max");
    /* Throttled is not enforced. */
    expect(&r, "memory.not_enforced", GOV_DOCTOR_ERROR, "memory");
    assert_int_equal(r.exit_status, 1);
}

/* A limit lowered below the allocation while the job runs (Slurm 26.05's
 * scontrol update MinMemoryNode): still enforced, and said. */
static void test_memory_lowered(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;
    const gov_doctor_finding *f;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    assert_null(find(&r, "memory.lowered"));
    s.memory.cgroup.limit_bytes = 150 * MiB;
    r = examine(&s);
    expect(&r, "memory.enforced", GOV_DOCTOR_OK, "memory");
    f = expect(&r, "memory.lowered", GOV_DOCTOR_WARN, "memory");
    assert_int_equal(f->allocation, 200 * MiB);
    expect_fix(f, "governor run");
    assert_int_equal(r.exit_status, 0);
}

/* ---- cgroup, pressure, swap --------------------------------------------- */

static void test_cgroup_unknown(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    /* Affinity holds the CPUs, so the unreadable quota only needs a note. */
    s.cpu.cgroup.cpuset_count = GOV_UNKNOWN;
    s.cpu.cgroup.quota_status = GOV_LIMIT_UNKNOWN;
    r = examine(&s);
    expect_fix(expect(&r, "cgroup.unknown", GOV_DOCTOR_INFO, "cgroup"), "namespace");
    expect(&r, "cpu.enforced", GOV_DOCTOR_OK, "cpu");
    assert_int_equal(r.exit_status, 0);
}

static void test_pressure_unavailable(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    r = examine(&s);
    assert_null(find(&r, "pressure.unavailable"));
    s.pressure.source = GOV_PRESSURE_SOURCE_NONE;
    r = examine(&s);
    expect_fix(expect(&r, "pressure.unavailable", GOV_DOCTOR_INFO, "pressure"), "psi=1");
    assert_int_equal(r.exit_status, 0);
}

static void test_swap_activity(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);
    gov_doctor_report r;

    (void)state;
    task_cgroup(&s);
    s.pressure.swap_in_pages = GOV_UNKNOWN;
    s.pressure.swap_out_pages = GOV_UNKNOWN;
    r = examine(&s);
    assert_null(find(&r, "swap.activity"));
    s.pressure.swap_in_pages = 0;
    s.pressure.swap_out_pages = 12;
    r = examine(&s);
    assert_null(expect(&r, "swap.activity", GOV_DOCTOR_INFO, "swap")->fix);
    assert_int_equal(r.exit_status, 0);
}

/* ---- topology --------------------------------------------------------- */

/* A task of 4 PUs on a 2-socket SMT node of 32 PUs, 2 NUMA nodes. */
static gov_snapshot on_topology(uint64_t cores, uint64_t whole, uint64_t numa)
{
    gov_snapshot s = in_step(GOV_SCHED_DESCRIPTOR);

    task_cgroup(&s);
    s.cpu.host.logical = 32;
    s.cpu.host.numa_nodes = 2;
    s.topology.task.pus = 4;
    s.topology.task.cores = cores;
    s.topology.task_whole_cores = whole;
    s.topology.task.numa_nodes = numa;
    return s;
}

static void test_topology_split_cores(void **state)
{
    gov_snapshot s = on_topology(2, 2, 1);
    gov_doctor_report r;

    (void)state;
    r = examine(&s);
    assert_null(find(&r, "topology.split_cores"));
    assert_null(find(&r, "topology.numa_spread"));
    /* One thread each of four cores. */
    s = on_topology(4, 0, 1);
    r = examine(&s);
    expect_fix(expect(&r, "topology.split_cores", GOV_DOCTOR_INFO, "cpu"),
               "--hint=nomultithread");
    assert_int_equal(r.exit_status, 0);
    /* --hint=nomultithread: the step's 8 PUs, one task holding 4 of them,
     * the siblings idle by design. */
    s.topology.step.pus = 8;
    s.scheduler.tasks_on_node = 1;
    r = examine(&s);
    assert_null(find(&r, "topology.split_cores"));
    /* Two tasks of 4 PUs share the step's 8: the siblings are the other's. */
    s.scheduler.tasks_on_node = 2;
    r = examine(&s);
    assert_non_null(find(&r, "topology.split_cores"));
    /* Unknown topology: nothing said. */
    s = on_topology(GOV_UNKNOWN, GOV_UNKNOWN, GOV_UNKNOWN);
    r = examine(&s);
    assert_null(find(&r, "topology.split_cores"));
}

static void test_topology_numa_spread(void **state)
{
    gov_snapshot s = on_topology(2, 2, 2);
    gov_doctor_report r;

    (void)state;
    /* 4 PUs fit one 16-PU NUMA node, and span two. */
    r = examine(&s);
    expect_fix(expect(&r, "topology.numa_spread", GOV_DOCTOR_INFO, "cpu"),
               "--distribution=block:block");
    /* 20 PUs need two. */
    s = on_topology(10, 10, 2);
    s.topology.task.pus = 20;
    r = examine(&s);
    assert_null(find(&r, "topology.numa_spread"));
}

/* ---- JSON -------------------------------------------------------------- */

static void test_json(void **state)
{
    gov_snapshot s = in_step(GOV_SCHED_ENVIRONMENT);
    gov_doctor_report r;
    char *text;
    size_t len;

    (void)state;
    s.cpu.affinity.count = 2;
    r = examine(&s);
    assert_int_equal(gov__doctor_json(&r, &text, &len), 0);
    assert_int_equal(strlen(text), len);
    assert_non_null(strstr(text, "{\"schema\":\"governor.doctor/1\",\"findings\":[{\"id\":"));
    assert_non_null(strstr(text,
        "{\"id\":\"cpu.enforced\",\"severity\":\"ok\",\"resource\":\"cpu\","
        "\"allocation\":2,\"unit\":\"cpus\",\"enforced_by\":\"affinity\","));
    assert_non_null(strstr(text,
        "{\"id\":\"memory.not_enforced\",\"severity\":\"error\",\"resource\":\"memory\","
        "\"allocation\":209715200,\"unit\":\"bytes\",\"enforced_by\":\"none\","));
    assert_non_null(strstr(text,
        "\"resource\":\"scheduler\",\"allocation\":null,\"unit\":null,\"enforced_by\":null,"));
    assert_non_null(strstr(text, "}],\"exit\":1}"));
    free(text);

    /* No finding at all still renders an empty array. */
    memset(&r, 0, sizeof r);
    assert_int_equal(gov__doctor_json(&r, &text, NULL), 0);
    assert_string_equal(text, "{\"schema\":\"governor.doctor/1\",\"findings\":[],\"exit\":0}");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_0_when_everything_enforced),
        cmocka_unit_test(test_exit_1_when_an_allocation_is_not_enforced),
        cmocka_unit_test(test_exit_0_when_nothing_is_known),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_descriptor_verified),
        cmocka_unit_test(test_descriptor_invalid_reasons),
        cmocka_unit_test(test_descriptor_unreachable),
        cmocka_unit_test(test_cgroup_hidden),
        cmocka_unit_test(test_scheduler_unverified),
        cmocka_unit_test(test_descriptor_unvouched),
        cmocka_unit_test(test_scheduler_outside_step),
        cmocka_unit_test(test_scheduler_missing_while_confined),
        cmocka_unit_test(test_scheduler_none_unconfined),
        cmocka_unit_test(test_cpu_enforced_by_affinity_only),
        cmocka_unit_test(test_cpu_enforced_by_cpuset_and_quota),
        cmocka_unit_test(test_cpu_not_enforced),
        cmocka_unit_test(test_cpu_shared_in_step),
        cmocka_unit_test(test_cpu_unconfirmed),
        cmocka_unit_test(test_cpu_allocation_unknown),
        cmocka_unit_test(test_gpu_enforced),
        cmocka_unit_test(test_gpu_share),
        cmocka_unit_test(test_gpu_not_enforced),
        cmocka_unit_test(test_gpu_quiet_without_gpus),
        cmocka_unit_test(test_gpu_v2_filter),
        cmocka_unit_test(test_cpu_affinity_only),
        cmocka_unit_test(test_memory_enforced),
        cmocka_unit_test(test_memory_per_task_allocation),
        cmocka_unit_test(test_memory_not_enforced),
        cmocka_unit_test(test_memory_unconfirmed),
        cmocka_unit_test(test_memory_allocation_unknown),
        cmocka_unit_test(test_memory_high_only),
        cmocka_unit_test(test_memory_lowered),
        cmocka_unit_test(test_cgroup_unknown),
        cmocka_unit_test(test_pressure_unavailable),
        cmocka_unit_test(test_swap_activity),
        cmocka_unit_test(test_topology_split_cores),
        cmocka_unit_test(test_topology_numa_spread),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
