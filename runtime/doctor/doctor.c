/* doctor.c - findings of `governor doctor` (doctor.h).  Every finding
 * follows from fields of the snapshot, above all `enforcement`: the doctor
 * names what the snapshot shows and the setting that would change it, and
 * never guesses at what it cannot see. */
#include "doctor/doctor.h"
#include "snapshot_base.h"
#include "base.h"

#include <stdio.h>
#include <string.h>

#define FIX_LAUNCH \
    "srun --governor (or #SBATCH --governor); for every job: default=on on " \
    "governor.so's line in plugstack.conf"
#define FIX_CPU \
    "TaskPlugin=task/affinity in slurm.conf, or TaskPlugin=task/cgroup with " \
    "ConstrainCores=yes in cgroup.conf (commonly both: " \
    "TaskPlugin=task/cgroup,task/affinity)"
#define FIX_TASK_CPUS \
    "give each task its own CPUs: srun -c N (--cpus-per-task; in a batch script " \
    "SLURM_CPUS_PER_TASK) with Slurm's default binding, not --cpu-bind=none, so " \
    "that each task is bound to its share; or one task per step (srun -n1)"
#define FIX_MEMORY \
    "ConstrainRAMSpace=yes in cgroup.conf, with TaskPlugin=task/cgroup in slurm.conf"
#define FIX_GPU \
    "ConstrainDevices=yes in cgroup.conf, with TaskPlugin=task/cgroup in slurm.conf " \
    "and every GPU's device file in gres.conf (File=)"
#define FIX_GPU_SHARE \
    "where the share's memory must hold: a MIG instance per share (typed gres/gpu " \
    "naming its nvidia-caps device files, MultipleFiles= in gres.conf), or gres/mps " \
    "with a pinned memory limit (set_default_device_pinned_mem_limit in " \
    "nvidia-cuda-mps-control); meanwhile srun --governor=runtimes or governor run " \
    "sizes JAX, TensorFlow and CuPy to the share"
#define FIX_MPS_MEMORY \
    "srun --governor=runtimes or governor run (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT at " \
    "the share's memory, where the card's memory is known); for every client: " \
    "set_default_device_pinned_mem_limit in nvidia-cuda-mps-control"
#define FIX_SPLIT_CORES \
    "srun --hint=nomultithread (a thread per core, each task its cores whole), or " \
    "--cpus-per-task a multiple of the threads per core with --cpu-bind=cores"
#define FIX_NUMA_SPREAD \
    "srun --cpu-bind=cores --distribution=block:block (each task consecutive cores " \
    "of one socket), or --ntasks-per-socket; --mem-bind=local keeps its memory near"
#define FIX_CGROUP_HIDDEN \
    "to see the limits from inside, run the container in the task's cgroup namespace " \
    "(podman run --cgroupns=host; Apptainer and enroot without pyxis share it by " \
    "default); or run governor doctor in the step outside the container"
#define FIX_HANDOFF \
    "bind the plugin's run directory into the container read-only at the same path " \
    "(/run/slurm-governor, with handoff=file or munge,file in plugstack.conf), or " \
    "munged's socket directory (/run/munge); docs/admin-guide.md gives the lines for " \
    "enroot, pyxis, Apptainer and podman"
#define FIX_DESCRIPTOR \
    "this step has a descriptor that does not verify: the descriptor finding says why " \
    "and what closes it"
#define FIX_VOUCHED \
    "handoff=munge,file (or file) on governor.so's plugstack line, with the run directory " \
    "bound into the container: the descriptor file carries root's mark, which no user " \
    "namespace can forge; or run it outside the user namespace"
#define FIX_NAMESPACE \
    "run doctor inside the step on the node itself, not in a container with " \
    "its own cgroup namespace"

static gov_doctor_finding *add(gov_doctor_report *r, const char *id, gov_doctor_severity sev,
                               const char *resource, const char *summary, const char *fix)
{
    gov_doctor_finding *f;

    /* The rules below add at most 17 findings; the bound only guards edits. */
    if (r->count >= GOV_DOCTOR_MAX_FINDINGS)
        return NULL;
    f = &r->findings[r->count++];
    f->id = id;
    f->severity = sev;
    f->resource = resource;
    f->allocation = GOV_UNKNOWN;
    f->assessed = 0;
    f->held = 0;
    f->summary = summary;
    f->fix = fix;
    if (sev == GOV_DOCTOR_ERROR)
        r->exit_status = 1;
    return f;
}

static void assessed(gov_doctor_finding *f, uint64_t allocation, unsigned held)
{
    if (!f)
        return;
    f->allocation = allocation;
    f->assessed = 1;
    f->held = held;
}

static void examine_descriptor(const gov_snapshot *s, gov_doctor_report *r)
{
    const char *summary, *fix;

    if (s->descriptor.status == GOV_DESCRIPTOR_VERIFIED &&
        (s->descriptor.unchecked & GOV_BINDING_MAKER_BITS)) {
        add(r, "descriptor.unvouched", GOV_DOCTOR_WARN, "descriptor",
            "the descriptor verified as far as this process can check, but it runs in a user "
            "namespace of its own, where the user may show their own file as root's or run "
            "their own munged: nothing vouches that slurmstepd made it",
            FIX_VOUCHED);
        return;
    }
    if (s->descriptor.status == GOV_DESCRIPTOR_VERIFIED) {
        add(r, "descriptor.verified", GOV_DOCTOR_OK, "descriptor",
            "scheduler facts come from the descriptor slurmstepd sealed; users cannot change them",
            NULL);
        return;
    }
    if (s->descriptor.status != GOV_DESCRIPTOR_INVALID)
        return;
    switch (s->descriptor.reason) {
    case GOV_EMUNGE:
        summary = "the sealed descriptor could not be checked: MUNGE failed inside the job";
        fix = "check that munged runs on this node and listens where libmunge looks; "
              "governor.so's munge_socket= must match Slurm's AuthInfo=socket=";
        break;
    case GOV_ESEAL:
        summary = "the descriptor's MUNGE seal does not verify";
        fix = "check that munged runs, that every node has the same MUNGE key, "
              "and that node clocks agree (NTP)";
        break;
    case GOV_EUNTRUSTED:
        summary = "the descriptor was sealed by a user other than root or SlurmUser "
                  "(written by hand, not by slurmstepd)";
        fix = "let slurmstepd seal it: srun --governor";
        break;
    case GOV_EBINDING:
        summary = "the descriptor belongs to another job, step, node or user "
                  "(inherited or copied)";
        fix = "launch this step with srun --governor (each governed step writes its own); "
              "governor.so must be in plugstack.conf on every node so that ungoverned "
              "steps drop a stale one";
        break;
    case GOV_ENODE:
        summary = "the descriptor was sealed on another node, or on this node before "
                  "it last booted (copied or kept)";
        fix = "let every process read the descriptor of its own task: do not copy "
              "GOVERNOR_DESCRIPTOR between nodes or keep it across reboots; "
              "the task's own step seals a new one (srun --governor)";
        break;
    case GOV_ESOCKET:
        summary = "the MUNGE socket this process verifies through is not root's or munge's all "
                  "the way down: a munged another user started could answer there";
        fix = "verify through the node's munged: its own socket (governor verify without "
              "--munge-socket, or the one slurm.conf's AuthInfo=socket= names)";
        break;
    case GOV_EUNREACHABLE:
        add(r, "descriptor.unreachable", GOV_DOCTOR_WARN, "descriptor",
            "neither munged's socket nor the step's descriptor file can be reached from "
            "this container, so the sealed budget is unknown here (the SLURM_* variables, "
            "if any, stand in)",
            FIX_HANDOFF);
        return;
    case GOV_EVERSION:
    case GOV_EPARSE:
        summary = "the descriptor's format is not understood by this runtime";
        fix = "install the same slurm-governor version on the nodes (governor.so) "
              "and where the job runs (libgovernor)";
        break;
    default:
        summary = "the descriptor is invalid";
        fix = "run governor verify for the reason; check munged, the MUNGE key and clocks";
        break;
    }
    add(r, "descriptor.invalid", GOV_DOCTOR_WARN, "descriptor", summary, fix);
}

/* The kernel confines the process below the host: evidence that it runs in
 * a job or a container, even when no scheduler fact says so. */
static int confined(const gov_snapshot *s)
{
    /* Offline CPUs confine nobody: compare with the online ones. */
    uint64_t host = s->cpu.host.online != GOV_UNKNOWN ? s->cpu.host.online : s->cpu.host.logical;

    if (host != GOV_UNKNOWN && s->cpu.affinity.count != GOV_UNKNOWN &&
        s->cpu.affinity.count < host)
        return 1;
    if (host != GOV_UNKNOWN && s->cpu.cgroup.cpuset_count != GOV_UNKNOWN &&
        s->cpu.cgroup.cpuset_count < host)
        return 1;
    return gov_known_f(s->cpu.cgroup.quota_cores) ||
           s->memory.cgroup.limit_bytes != GOV_UNKNOWN ||
           s->memory.cgroup.high_bytes != GOV_UNKNOWN;
}

/* Returns 1 when the process is in a step whose allocation can be checked. */
static int examine_scheduler(const gov_snapshot *s, gov_doctor_report *r)
{
    switch (s->scheduler.source) {
    case GOV_SCHED_DESCRIPTOR:
        return 1;
    case GOV_SCHED_ENVIRONMENT:
        if (s->scheduler.step_kind == GOV_STEP_UNKNOWN) {
            add(r, "scheduler.outside_step", GOV_DOCTOR_WARN, "scheduler",
                "job variables but no step: this process runs outside any step "
                "(salloc's shell, say), where no step limits apply",
                "run it inside a step: srun --governor governor doctor");
            return 0;
        }
        /* A step that has a descriptor is governed already: what to do is
         * what keeps it from verifying (the descriptor finding), not
         * turning the governor on. */
        add(r, "scheduler.unverified", GOV_DOCTOR_WARN, "scheduler",
            "scheduler facts come from SLURM_* variables only (no verified descriptor); "
            "any user can change them",
            s->descriptor.status != GOV_DESCRIPTOR_INVALID ? FIX_LAUNCH
            : s->descriptor.reason == GOV_EUNREACHABLE     ? FIX_HANDOFF
                                                           : FIX_DESCRIPTOR);
        return 1;
    default:
        if (confined(s))
            add(r, "scheduler.missing", GOV_DOCTOR_WARN, "scheduler",
                "the kernel confines this process below the host, but there are no "
                "scheduler facts: if this is a Slurm job, nothing says what it was allocated",
                FIX_LAUNCH);
        else
            add(r, "scheduler.none", GOV_DOCTOR_INFO, "scheduler",
                "no scheduler facts and no confinement: not inside a Slurm job, "
                "so there is no allocation to check",
                "audit a job from inside a step: srun --governor -c1 --mem=100M governor doctor");
        return 0;
    }
}

/* Some CPU evidence that could hold the process is missing. */
static int cpu_evidence_missing(const gov_snapshot *s)
{
    return s->cpu.affinity.count == GOV_UNKNOWN ||
           (s->cpu.cgroup.version != 0 && s->cpu.cgroup.quota_status == GOV_LIMIT_UNKNOWN);
}

static int memory_evidence_missing(const gov_snapshot *s)
{
    return s->memory.cgroup.version != 0 && s->memory.cgroup.status == GOV_LIMIT_UNKNOWN;
}

static bool cgroups_hidden(const gov_snapshot *s)
{
    return s->descriptor.namespaces & (1u << GOV_NAMESPACE_CGROUP);
}

/* An allocation is known, but what would hold it is above the process's
 * cgroup namespace. */
static void hidden(gov_doctor_report *r, const char *id, const char *resource,
                   uint64_t allocation)
{
    assessed(add(r, id, GOV_DOCTOR_INFO, resource,
                 "the allocation is known, but the cgroups that would hold this process to "
                 "it are hidden by its cgroup namespace (a container's): whether the kernel "
                 "enforces it cannot be seen from here",
                 FIX_CGROUP_HIDDEN),
             allocation, 0);
}

/* Returns 1 when it reported missing evidence. */
static int examine_cpu(const gov_snapshot *s, gov_doctor_report *r)
{
    uint64_t cpus = s->cpu.scheduler.cpus;

    switch (s->enforcement.cpu) {
    case GOV_ENFORCED:
        assessed(add(r, "cpu.enforced", GOV_DOCTOR_OK, "cpu",
                     "the kernel holds this process to its CPU allocation", NULL),
                 cpus, gov__cpu_held(s));
        if (gov__cpu_held(s) == GOV_DOCTOR_HELD(GOV_LAYER_AFFINITY))
            add(r, "cpu.affinity_only", GOV_DOCTOR_INFO, "cpu",
                "only the affinity mask holds this process to its CPUs; its cpuset is wider "
                "(Slurm gives every task of a step the step's cpuset), and a process may "
                "widen its own affinity within it",
                "where a task must not use its neighbours' CPUs, run it as a step of its "
                "own (srun -n1 per task): the step's cpuset is then the task's CPUs");
        return 0;
    case GOV_NOT_ENFORCED:
        if (cpu_evidence_missing(s)) {
            assessed(add(r, "cpu.unconfirmed", GOV_DOCTOR_WARN, "cpu",
                         "no layer this process can see holds it to its CPU allocation, but "
                         "some CPU evidence is missing (the affinity mask, or a cgroup "
                         "outside this namespace): enforcement is unknown",
                         FIX_NAMESPACE "; Slurm enforces CPUs with " FIX_CPU),
                     cpus, 0);
            return 1;
        }
        /* The step's cpuset holds the step: the site runs what enforces
         * CPUs, and the task is only bound wider than its share. */
        if (s->cpu.cgroup.cpuset_count != GOV_UNKNOWN &&
            s->scheduler.cpus_on_node != GOV_UNKNOWN &&
            s->cpu.cgroup.cpuset_count <= s->scheduler.cpus_on_node) {
            assessed(add(r, "cpu.shared_in_step", GOV_DOCTOR_WARN, "cpu",
                         "the step's cpuset holds it to its CPUs, but this task is bound to "
                         "more than its share of them: the step's tasks on this node share "
                         "them all",
                         FIX_TASK_CPUS),
                     cpus, 0);
            return 0;
        }
        assessed(add(r, "cpu.not_enforced", GOV_DOCTOR_ERROR, "cpu",
                     "nothing in the kernel holds this process to its CPU allocation: "
                     "affinity, cpuset and quota are all wider",
                     FIX_CPU),
                 cpus, 0);
        return 0;
    default:
        if (cgroups_hidden(s) && cpus != GOV_UNKNOWN) {
            hidden(r, "cpu.hidden", "cpu", cpus);
            return 1;
        }
        add(r, "cpu.allocation_unknown", GOV_DOCTOR_INFO, "cpu",
            "the scheduler facts give no CPU count for this process, so CPU enforcement "
            "cannot be checked",
            "srun --governor: the sealed descriptor carries cpus-per-task");
        return 0;
    }
}

/* The step's tasks on this node share its one limit; this task's share
 * (per-CPU memory times its CPUs) is what runtimes are sized to. */
static void memory_shared(const gov_snapshot *s, gov_doctor_report *r)
{
    uint64_t share = s->memory.scheduler.per_task_bytes, step = s->memory.scheduler.limit_bytes;

    if (share == GOV_UNKNOWN || step == GOV_UNKNOWN || share >= step ||
        s->scheduler.tasks_on_node == GOV_UNKNOWN || s->scheduler.tasks_on_node < 2)
        return;
    assessed(add(r, "memory.shared_in_step", GOV_DOCTOR_INFO, "memory",
                 "the step's tasks on this node share one memory limit, as Slurm limits each "
                 "step on each node, not each task; this task's share of it (per-CPU memory "
                 "times its CPUs) is what its budget and runtimes are sized to, and a task "
                 "that takes more leaves less for the others",
                 "where a task must not take its neighbours' memory, run it as a step of its "
                 "own (srun -n1 per task): the step's limit is then the task's"),
             share, GOV_DOCTOR_HELD(GOV_LAYER_CGROUP));
}

/* A hard limit below the step's memory on the node: lowered while the job
 * runs (Slurm 26.05's memory resizing) or AllowedRAMSpace under 100. */
static void memory_lowered(const gov_snapshot *s, gov_doctor_report *r)
{
    uint64_t limit = s->memory.cgroup.limit_bytes, alloc = s->memory.scheduler.limit_bytes;

    if (limit == GOV_UNKNOWN || alloc == GOV_UNKNOWN || limit >= alloc)
        return;
    assessed(add(r, "memory.lowered", GOV_DOCTOR_WARN, "memory",
                 "the kernel holds this step to less memory than its allocation: lowered while "
                 "the job runs (Slurm 26.05: scontrol update job MinMemoryNode=, srun "
                 "--mem-update) or AllowedRAMSpace under 100 in cgroup.conf; the budget follows "
                 "the lower limit, but runtimes sized when a program started (GOMEMLIMIT, "
                 "Node.js's and the JVM's heaps) still aim at the allocation",
                 "start the program again (governor run, or a new srun --governor=runtimes "
                 "step) to size its runtimes to the limit; a Go program can lower its own "
                 "with debug.SetMemoryLimit"),
             alloc, GOV_DOCTOR_HELD(GOV_LAYER_CGROUP));
}

static int examine_memory(const gov_snapshot *s, gov_doctor_report *r)
{
    uint64_t mem = gov__memory_allocation(s);

    switch (s->enforcement.memory) {
    case GOV_ENFORCED:
        assessed(add(r, "memory.enforced", GOV_DOCTOR_OK, "memory",
                     "a cgroup hard limit at or below the step's memory on this node holds "
                     "this process", NULL),
                 mem, GOV_DOCTOR_HELD(GOV_LAYER_CGROUP));
        memory_shared(s, r);
        memory_lowered(s, r);
        return 0;
    case GOV_NOT_ENFORCED:
        if (memory_evidence_missing(s)) {
            assessed(add(r, "memory.unconfirmed", GOV_DOCTOR_WARN, "memory",
                         "a memory cgroup governs this process but its limits cannot be read "
                         "(outside this cgroup namespace, or unreadable): whether the "
                         "allocation is enforced is unknown",
                         FIX_NAMESPACE "; Slurm enforces memory with " FIX_MEMORY),
                     mem, 0);
            return 1;
        }
        if (s->memory.cgroup.limit_bytes != GOV_UNKNOWN)
            assessed(add(r, "memory.not_enforced", GOV_DOCTOR_ERROR, "memory",
                         "a cgroup hard limit holds this process, but above the step's "
                         "memory on this node",
                         "AllowedRAMSpace=100 (the default) in cgroup.conf; " FIX_MEMORY),
                     mem, 0);
        else
            assessed(add(r, "memory.not_enforced", GOV_DOCTOR_ERROR, "memory",
                         "no cgroup hard limit holds this process", FIX_MEMORY),
                     mem, 0);
        return 0;
    default:
        if (cgroups_hidden(s) && mem != GOV_UNKNOWN) {
            hidden(r, "memory.hidden", "memory", mem);
            return 1;
        }
        add(r, "memory.allocation_unknown", GOV_DOCTOR_INFO, "memory",
            "no memory allocation is known (a plain srun exports no SLURM_MEM_PER_NODE "
            "into its tasks), so memory enforcement cannot be checked",
            "srun --governor: the sealed descriptor carries the step's memory");
        return 0;
    }
}

/* The GPU device nodes the process may open: NVIDIA's when the node has
 * any, else the DRM render nodes (as gov__gpu_kind chooses). */
static uint64_t gpu_nodes(const gov_snapshot *s, uint64_t *usable)
{
    bool nvidia = s->accel.nvidia_dev_nodes != GOV_UNKNOWN && s->accel.nvidia_dev_nodes > 0;

    *usable = nvidia ? s->accel.nvidia_dev_usable : s->accel.drm_render_usable;
    return nvidia ? s->accel.nvidia_dev_nodes : s->accel.drm_render_nodes;
}

static void examine_gpu(const gov_snapshot *s, gov_doctor_report *r)
{
    uint64_t grant = s->scheduler.gpus_on_node, usable, total = gpu_nodes(s, &usable);

    switch (s->enforcement.gpu) {
    case GOV_ENFORCED:
        if (total == 0)
            return;     /* no GPU on the node: nothing to say */
        assessed(add(r, "gpu.enforced", GOV_DOCTOR_OK, "gpu",
                     s->scheduler.gpus_verified
                         ? "a device cgroup admits exactly this step's GPUs (verified when sealed)"
                         : "a device cgroup admits at most this step's GPUs",
                     NULL),
                 grant, GOV_DOCTOR_HELD(GOV_LAYER_DEVICES));
        return;
    case GOV_NOT_ENFORCED:
        if (usable != GOV_UNKNOWN && usable > grant)
            assessed(add(r, "gpu.not_enforced", GOV_DOCTOR_ERROR, "gpu",
                         "this process can open more GPU devices than the step was granted: "
                         "no device cgroup holds it to its GPUs",
                         FIX_GPU),
                     grant, 0);
        else
            assessed(add(r, "gpu.not_enforced", GOV_DOCTOR_WARN, "gpu",
                         "no device cgroup holds this process to its GPUs; today the node has "
                         "no other GPU it could open, but nothing enforces the grant",
                         FIX_GPU),
                     grant, 0);
        return;
    default:
        if (grant != GOV_UNKNOWN && total != GOV_UNKNOWN && total > 0 && usable == total) {
            add(r, "gpu.whole_node_unverified", GOV_DOCTOR_INFO, "gpu",
                "every GPU device of the node is open to this process and its grant names "
                "them all: a device cgroup that admits the whole node cannot be told from "
                "none, and a grant Slurm made from one a user exported, so the grant is not "
                "verified and its enforcement is unknown",
                "nothing, if Slurm granted the whole node (gres/gpu with ConstrainDevices=yes); "
                "on a node whose GPUs Slurm does not know, declare them in gres.conf so that "
                "no user can name a grant");
            return;
        }
        if (total != GOV_UNKNOWN && total > 0)
            add(r, "gpu.allocation_unknown", GOV_DOCTOR_INFO, "gpu",
                "the node has GPU devices but no GPU grant is known for this step, so GPU "
                "enforcement cannot be checked",
                "srun --governor with gres/gpu configured: the sealed descriptor carries "
                "the step's GPUs, verified against its device cgroup");
        return;
    }
}

/* A share of a GPU that the GPU does not hold the task to: a shard's
 * (nothing fences it), an MPS client's memory (only a pinned limit does).
 * The runtimes' variables keep a program to its share; nothing enforces
 * it. */
static void examine_gpu_share(const gov_snapshot *s, gov_doctor_report *r)
{
    const gov_snapshot_scheduler *sc = &s->scheduler;

    if (!(sc->gpu_share < 1))  /* NaN (no grant) too */
        return;
    if (sc->gpu_share_kind == GOV_GPU_SHARE_SHARD)
        add(r, "gpu.share_unfenced", GOV_DOCTOR_WARN, "gpu",
            "this task holds a share of a GPU through gres/shard, which Slurm does not "
            "fence: every step on the same GPU may take all of its memory and time, and a "
            "runtime that sizes itself to the device takes the others' share",
            FIX_GPU_SHARE);
    else if (sc->gpu_share_kind == GOV_GPU_SHARE_MPS && s->accel.mps_pinned_limit == 0)
        add(r, "gpu.mps_no_memory_limit", GOV_DOCTOR_WARN, "gpu",
            "this task is an MPS client with a share of a GPU: its thread percentage "
            "holds its compute, but no pinned device memory limit holds its memory, so "
            "it may allocate all of the GPU's",
            FIX_MPS_MEMORY);
}

/* cgroup v2 has no devices controller to read: Slurm's device rules are an
 * eBPF filter, and the process sees it only when it refuses a device.  Say
 * which of the two a v2 node with GPUs shows, so that a person reads the
 * GPU finding right. */
static void examine_device_filter(const gov_snapshot *s, gov_doctor_report *r)
{
    uint64_t usable, total = gpu_nodes(s, &usable);
    bool nvidia = s->accel.nvidia_dev_nodes != GOV_UNKNOWN && s->accel.nvidia_dev_nodes > 0;
    uint64_t denied = nvidia ? s->accel.nvidia_dev_denied : s->accel.drm_render_denied;

    if (s->cpu.cgroup.version != 2 && s->memory.cgroup.version != 2)
        return;
    if (total == GOV_UNKNOWN || total == 0 || denied == GOV_UNKNOWN)
        return;
    if (denied > 0)
        add(r, "gpu.filter_observed", GOV_DOCTOR_INFO, "gpu",
            "cgroup v2: the device rules are an eBPF filter that cannot be read back; it "
            "shows itself here by refusing (EPERM) the GPU devices outside this step's "
            "grant, which is what confirms the confinement",
            NULL);
    else
        add(r, "gpu.filter_unobservable", GOV_DOCTOR_INFO, "gpu",
            "cgroup v2: no GPU device is refused to this process, so whether an eBPF "
            "device filter confines it cannot be seen (a grant of every GPU on the node "
            "looks the same as no filter at all)",
            FIX_GPU "; a step granted fewer than all of the node's GPUs then shows the "
            "filter's refusals");
}

static void examine_kernel(const gov_snapshot *s, int missing_reported, gov_doctor_report *r)
{
    if (cgroups_hidden(s))
        add(r, "cgroup.hidden", GOV_DOCTOR_INFO, "cgroup",
            "this process runs in a cgroup namespace of its own (a container's): the "
            "cgroups above its root, where Slurm puts the step's limits, are hidden; their "
            "limits count as unknown, never unlimited, and the budget comes from the "
            "sealed descriptor",
            FIX_CGROUP_HIDDEN);
    if (s->memory.cgroup.high_bytes != GOV_UNKNOWN && s->memory.cgroup.limit_bytes == GOV_UNKNOWN)
        add(r, "memory.high_only", GOV_DOCTOR_WARN, "memory",
            "memory.high throttles this cgroup but no memory.max holds it: usage can grow "
            "past memory.high",
            "set a hard limit, memory.max; with Slurm: " FIX_MEMORY);
    if (!missing_reported && (memory_evidence_missing(s) ||
                              (s->cpu.cgroup.version != 0 &&
                               s->cpu.cgroup.quota_status == GOV_LIMIT_UNKNOWN)))
        add(r, "cgroup.unknown", GOV_DOCTOR_INFO, "cgroup",
            "some cgroup files could not be read (the cgroup lies outside this namespace, "
            "or its files are unreadable); those limits count as unknown, never unlimited",
            FIX_NAMESPACE);
    if (s->pressure.source == GOV_PRESSURE_SOURCE_NONE)
        add(r, "pressure.unavailable", GOV_DOCTOR_INFO, "pressure",
            "pressure stall information (PSI) is unavailable: the governor cannot see CPU "
            "or memory pressure, and its pressure gates stay open",
            "a kernel built with CONFIG_PSI=y, booted with psi=1 where the distribution "
            "turns PSI off by default");
    if ((s->pressure.swap_in_pages != GOV_UNKNOWN && s->pressure.swap_in_pages > 0) ||
        (s->pressure.swap_out_pages != GOV_UNKNOWN && s->pressure.swap_out_pages > 0))
        add(r, "swap.activity", GOV_DOCTOR_INFO, "swap",
            "this node has swapped pages in or out since boot; new swap activity counts "
            "as memory pressure for the governor",
            NULL);
}

/* The sealed step part shows more PUs than its tasks on this node hold. */
static bool siblings_idle(const gov_snapshot *s)
{
    uint64_t step = s->topology.step.pus, tasks = s->scheduler.tasks_on_node;

    return step != GOV_UNKNOWN && tasks != GOV_UNKNOWN && s->topology.task.pus != GOV_UNKNOWN &&
           tasks * s->topology.task.pus < step;
}

/* How the task's CPUs sit on the node's topology: SMT siblings split
 * between this task and others, or more NUMA nodes than its CPUs need. */
static void examine_topology(const gov_snapshot *s, gov_doctor_report *r)
{
    const gov_snapshot_topology *t = &s->topology;
    uint64_t per_node, needed;

    if (t->task.cores == GOV_UNKNOWN || t->task_whole_cores == GOV_UNKNOWN)
        return;
    /* A step whose tasks leave some of its PUs unused keeps the siblings
     * idle on purpose (--hint=nomultithread): no other task shares them. */
    if (t->task_whole_cores < t->task.cores && !siblings_idle(s))
        add(r, "topology.split_cores", GOV_DOCTOR_INFO, "cpu",
            "this task's CPUs split cores: some of its cores have SMT siblings outside its "
            "mask (another task's, or idle), and two threads of one core share its units",
            FIX_SPLIT_CORES);
    if (t->task.numa_nodes == GOV_UNKNOWN || t->task.numa_nodes < 2 ||
        s->cpu.host.logical == GOV_UNKNOWN || s->cpu.host.numa_nodes == GOV_UNKNOWN ||
        s->cpu.host.numa_nodes == 0)
        return;
    /* The fewest NUMA nodes that could hold the task's PUs, nodes being
     * of equal size. */
    per_node = s->cpu.host.logical / s->cpu.host.numa_nodes;
    needed = per_node ? (t->task.pus + per_node - 1) / per_node : t->task.numa_nodes;
    if (t->task.numa_nodes > needed)
        add(r, "topology.numa_spread", GOV_DOCTOR_INFO, "cpu",
            "this task's CPUs span more NUMA nodes than they need: the memory it touches "
            "is remote for some of its threads",
            FIX_NUMA_SPREAD);
}

int gov__doctor_examine(const gov_snapshot *snap, gov_doctor_report *out)
{
    int missing = 0;

    if (!snap || !out)
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    examine_descriptor(snap, out);
    if (examine_scheduler(snap, out)) {
        missing |= examine_cpu(snap, out);
        missing |= examine_memory(snap, out);
        examine_gpu(snap, out);
        examine_gpu_share(snap, out);
        examine_device_filter(snap, out);
    }
    examine_topology(snap, out);
    examine_kernel(snap, missing, out);
    return 0;
}

#define SEVERITY_NAME(id, name, label) [id] = name,
#define SEVERITY_LABEL(id, name, label) [id] = label,
static const char *const severity_names[GOV_DOCTOR_SEVERITY_COUNT] = {
    GOV_DOCTOR_SEVERITY_LIST(SEVERITY_NAME)
};
static const char *const severity_labels[GOV_DOCTOR_SEVERITY_COUNT] = {
    GOV_DOCTOR_SEVERITY_LIST(SEVERITY_LABEL)
};

const char *gov__doctor_severity_name(gov_doctor_severity s)
{
    return gov__name_of(GOV_NAMES(severity_names), (unsigned)s);
}

const char *gov__doctor_severity_label(gov_doctor_severity s)
{
    return gov__name_of(GOV_NAMES(severity_labels), (unsigned)s);
}

const char *gov__doctor_unit(const gov_doctor_finding *f)
{
    if (f->allocation == GOV_UNKNOWN)
        return NULL;
    if (strcmp(f->resource, "cpu") == 0)
        return "cpus";
    return strcmp(f->resource, "gpu") == 0 ? "gpus" : "bytes";
}

void gov__doctor_held_names(const gov_doctor_finding *f, char *buf, size_t cap)
{
    if (cap == 0)
        return;
    buf[0] = '\0';
    if (f->assessed)
        gov__layers_format(f->held, buf, cap);
}
