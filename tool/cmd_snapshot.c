/* cmd_snapshot.c - `governor snapshot [--json] [--sysroot DIR]`: every layer
 * with its source, then the effective value and what binds it. */
#include "cmd.h"
#include "cmd_common.h"
#include "base.h"
#include "snapshot_base.h"
#include "decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: governor snapshot [--json | --get FIELD] [--require-descriptor]\n"
               "                         [--sysroot DIR]\n"
               "  Show what this process may use: first in one line, then each layer of\n"
               "  evidence, the effective budget and the layer that binds it.  --json\n"
               "  prints the governor.snapshot/1 object (docs/snapshot.md); --get prints\n"
               "  one of its fields (cpu.effective.workers), nothing and exit 3 when it\n"
               "  is unknown; --sysroot reads every file under DIR.\n"
               "  --require-descriptor: exit 3 instead of using the SLURM_* variables when\n"
               "  there is no verified descriptor.\n");
}

/* A figure the text lacks reads "unknown" (it exists, but was not read)
 * or "n/a" (it does not exist here: no allocation outside a scheduler,
 * no memory.high on cgroup v1, no GPU on the node): never a bare "-"
 * that could mean either.  The JSON has null for both. */
static const char *or_unknown(const char *s)
{
    return s ? s : "unknown";
}

static void cnt(uint64_t v, char *buf, size_t cap)
{
    if (v == GOV_UNKNOWN)
        snprintf(buf, cap, "unknown");
    else
        gov__fmt_count(v, buf, cap);
}

static void byt(uint64_t v, char *buf, size_t cap)
{
    if (v == GOV_UNKNOWN)
        snprintf(buf, cap, "unknown");
    else
        gov__fmt_bytes(v, buf, cap);
}

static bool no_allocation(const gov_snapshot *s)
{
    return s->scheduler.source == GOV_SCHED_NONE;
}

/* No GPU of any kind on the node: no driver entry, no device node. */
static bool no_gpu(const gov_snapshot *s)
{
    return s->accel.nvidia_gpus == 0 && s->accel.amd_gpus == 0 && s->accel.drm_render_nodes == 0 &&
           (s->accel.nvidia_dev_nodes == 0 || s->accel.nvidia_dev_nodes == GOV_UNKNOWN);
}

static void row(const char *layer, const char *value, const char *source)
{
    printf("  %-16s %-34s %s\n", layer, value, source);
}

static void print_scheduler(const gov_snapshot *s)
{
    char a[64], b[64], c[64], v[256];

    printf("SCHEDULER\n");
    if (s->scheduler.source == GOV_SCHED_NONE) {
        row("allocation", "none found", "no scheduler evidence");
        return;
    }
    cnt(s->scheduler.tasks_on_node, a, sizeof a);
    cnt(s->scheduler.cpus_on_node, b, sizeof b);
    cnt(s->scheduler.cpus_per_task, c, sizeof c);
    snprintf(v, sizeof v, "%s tasks, %s CPUs, %s per task", a, b, c);
    row("this node", v, gov_sched_source_name(s->scheduler.source));
}

/* Which layers hold the process; affinity alone is the weak case, since a
 * process may widen its own mask within its cpuset. */
static void cpu_enforcement_row(const gov_snapshot *s)
{
    unsigned held = gov__cpu_held(s);
    char layers[64], note[160] = "";

    if (s->enforcement.cpu != GOV_ENFORCEMENT_UNKNOWN) {
        gov__layers_format(held, layers, sizeof layers);
        if (held == 1u << GOV_LAYER_AFFINITY)
            snprintf(note, sizeof note,
                     "by affinity only: the cpuset is wider, and a task may widen its mask");
        else
            snprintf(note, sizeof note, "held by %s", layers);
    }
    if (no_allocation(s))
        row("enforcement", "n/a", "no allocation to hold it to");
    else
        row("enforcement", gov_enforcement_name(s->enforcement.cpu), note);
}

static void print_cpu(const gov_snapshot *s)
{
    char a[64], b[64], v[160];
    char *list = malloc(GOV_CPUSET_BITS * 6);

    printf("CPU\n");
    cnt(s->cpu.host.logical, a, sizeof a);
    cnt(s->cpu.host.physical, b, sizeof b);
    snprintf(v, sizeof v, "%s logical, %s physical", a, b);
    row("host", v, "inventory (not entitlement)");

    cnt(s->cpu.affinity.count, a, sizeof a);
    if (list && s->cpu.affinity.count != GOV_UNKNOWN &&
        gov_cpuset_format(&s->cpu.affinity.set, list, 40) >= 0)
        snprintf(v, sizeof v, "%s (%s)", a, list);
    else
        snprintf(v, sizeof v, "%s", a);
    row("affinity", v, "kernel: affinity mask");

    cnt(s->cpu.cgroup.cpuset_count, a, sizeof a);
    snprintf(b, sizeof b, "cgroup v%d", s->cpu.cgroup.version);
    row("cgroup cpuset", a, s->cpu.cgroup.version ? b : "no cgroup found");
    if (gov_known_f(s->cpu.cgroup.quota_cores))
        snprintf(v, sizeof v, "%.2f cores", s->cpu.cgroup.quota_cores);
    else
        snprintf(v, sizeof v, "%s", gov_limit_status_name(s->cpu.cgroup.quota_status));
    row("cgroup quota", v, s->cpu.cgroup.version ? b : "no cgroup found");

    cnt(s->cpu.scheduler.cpus, a, sizeof a);
    if (no_allocation(s))
        row("scheduler", "n/a", "no allocation");
    else
        row("scheduler", a, gov_sched_source_name(s->scheduler.source));
    /* The task's share of the step's CPUs above the sealed per-task count
     * (resolve.c): say where the figure comes from. */
    if (s->scheduler.cpus_per_task != GOV_UNKNOWN && s->cpu.scheduler.cpus != GOV_UNKNOWN &&
        s->cpu.scheduler.cpus > s->scheduler.cpus_per_task) {
        snprintf(v, sizeof v, "its share of the step's %llu CPUs here",
                 (unsigned long long)s->scheduler.cpus_on_node);
        snprintf(b, sizeof b, "above the %llu per task sealed (srun without -c)",
                 (unsigned long long)s->scheduler.cpus_per_task);
        row("", v, b);
    }

    if (gov_known_f(s->cpu.effective.capacity_cores)) {
        cnt(s->cpu.effective.workers, a, sizeof a);
        snprintf(v, sizeof v, "%.2f cores, %s worker%s", s->cpu.effective.capacity_cores, a,
                 s->cpu.effective.workers == 1 ? "" : "s");
    } else {
        snprintf(v, sizeof v, "unknown");
    }
    snprintf(b, sizeof b, "bound by %s", or_unknown(gov_layer_name(s->cpu.effective.binding)));
    row("effective", v, b);
    cpu_enforcement_row(s);
    free(list);
}

static void counts(const gov_topology_counts *c, char *v, size_t cap)
{
    char p[32], k[32], u[32], n[32];

    cnt(c->packages, p, sizeof p);
    cnt(c->cores, k, sizeof k);
    cnt(c->pus, u, sizeof u);
    cnt(c->numa_nodes, n, sizeof n);
    snprintf(v, cap, "%s pkg, %s cores, %s PUs, %s NUMA", p, k, u, n);
}

static void print_topology(const gov_snapshot *s)
{
    const gov_snapshot_topology *t = &s->topology;
    gov_topology_counts host = { s->cpu.host.packages, s->cpu.host.physical,
                                 s->cpu.host.logical, s->cpu.host.numa_nodes, { 0 } };
    char a[32], b[64], v[256], list[48];

    printf("TOPOLOGY\n");
    counts(&host, v, sizeof v);
    cnt(t->memory_only_numa_nodes, a, sizeof a);
    snprintf(b, sizeof b, "hwloc; %s memory-only NUMA", a);
    row("host", v, b);
    counts(&t->step, v, sizeof v);
    if (no_allocation(s))
        row("step", "n/a", "no allocation");
    else
        row("step", v, t->source == GOV_TOPOLOGY_SOURCE_DESCRIPTOR ? "descriptor (sealed)"
                                                                   : "no sealed descriptor");
    counts(&t->task, v, sizeof v);
    row("task", v, "affinity mask");
    cnt(t->task_whole_cores, a, sizeof a);
    cnt(t->task_gpus_local, b, sizeof b);
    if (no_gpu(s))
        snprintf(b, sizeof b, "n/a");
    snprintf(v, sizeof v, "%s whole cores, %s local GPUs", a, b);
    row("", v, "");
    /* Each NUMA node of the mask: what a worker per node would get. */
    for (uint32_t i = 0; i < t->numa_count; i++) {
        char name[32];
        snprintf(name, sizeof name, "numa %u", t->numa[i].os_index);
        byt(t->numa[i].local_memory_bytes, a, sizeof a);
        if (gov_cpuset_format(&t->numa[i].cpus, list, sizeof list) < 0)
            snprintf(list, sizeof list, "...");
        snprintf(v, sizeof v, "%u PUs, %llu cores: %s", t->numa[i].pus,
                 (unsigned long long)t->numa[i].cores, list);
        row(name, v, a);
    }
}

/* Usage split into working set and reclaimable cache, so that a person sees
 * why "remaining" is more than the limit minus the usage. */
static void print_cgroup_usage(const gov_snapshot *s, const char *source)
{
    uint64_t used = s->memory.cgroup.current_bytes, ws = s->memory.cgroup.working_set_bytes;
    char a[64], b[64], v[256];

    byt(used, a, sizeof a);
    row("cgroup usage", a, source);
    byt(ws, a, sizeof a);
    byt(used != GOV_UNKNOWN && ws != GOV_UNKNOWN ? used - ws : GOV_UNKNOWN, b,
                   sizeof b);
    snprintf(v, sizeof v, "%s, cache %s", a, b);
    row("working set", v, "usage minus inactive file cache");
    byt(s->memory.cgroup.remaining_bytes, a, sizeof a);
    byt(s->memory.cgroup.planning_remaining_bytes, b, sizeof b);
    if (s->memory.cgroup.high_bytes != GOV_UNKNOWN)
        snprintf(v, sizeof v, "%s to max, %s to high", a, b);
    else if (s->memory.cgroup.status == GOV_LIMIT_UNLIMITED)
        snprintf(v, sizeof v, "n/a (no hard limit)");
    else
        snprintf(v, sizeof v, "%s to the hard limit", a);
    row("cgroup remaining", v, "limit minus working set");
}

static void print_memory(const gov_snapshot *s)
{
    char a[64], b[64], c[64], v[256];

    printf("MEMORY\n");
    byt(s->memory.host.total_bytes, a, sizeof a);
    byt(s->memory.host.available_bytes, b, sizeof b);
    snprintf(v, sizeof v, "%s, %s available", a, b);
    row("host", v, "/proc/meminfo (not entitlement)");

    snprintf(c, sizeof c, "cgroup v%d", s->memory.cgroup.version);
    if (s->memory.cgroup.limit_bytes != GOV_UNKNOWN)
        byt(s->memory.cgroup.limit_bytes, a, sizeof a);
    else
        snprintf(a, sizeof a, "%s", gov_limit_status_name(s->memory.cgroup.status));
    gov__fmt_memory_high(s, b, sizeof b);
    snprintf(v, sizeof v, "max %s, high %s", a, b);
    row("cgroup limit", v, s->memory.cgroup.version ? c : "no cgroup found");
    if (s->memory.cgroup.version)
        snprintf(c, sizeof c, "cgroup v%d (page cache included)", s->memory.cgroup.version);
    print_cgroup_usage(s, s->memory.cgroup.version ? c : "no cgroup found");

    byt(s->memory.scheduler.limit_bytes, a, sizeof a);
    byt(s->memory.scheduler.per_task_bytes, b, sizeof b);
    /* --mem is per node: a per-task figure exists only with --mem-per-cpu. */
    if (s->memory.scheduler.per_task_bytes == GOV_UNKNOWN &&
        s->memory.scheduler.limit_bytes != GOV_UNKNOWN)
        snprintf(b, sizeof b, "n/a");
    snprintf(v, sizeof v, "%s per node, %s per task", a, b);
    if (no_allocation(s))
        row("scheduler", "n/a", "no allocation");
    else
        row("scheduler", v, gov_sched_source_name(s->scheduler.source));

    byt(s->memory.effective.limit_bytes, a, sizeof a);
    byt(s->memory.effective.remaining_bytes, b, sizeof b);
    snprintf(v, sizeof v, "%s, %s remaining", a, b);
    snprintf(c, sizeof c, "bound by %s", or_unknown(gov_layer_name(s->memory.effective.binding)));
    row("effective", v, c);
    if (no_allocation(s))
        row("enforcement", "n/a", "no allocation to hold it to");
    else
        row("enforcement", gov_enforcement_name(s->enforcement.memory), "");
}

static void pct(double v, char *buf, size_t cap)
{
    if (gov_known_f(v))
        snprintf(buf, cap, "%.2f%%", v);
    else
        snprintf(buf, cap, "unknown");
}

/* The GPU device nodes that stand for GPUs here, and what the kernel lets
 * this process do with them. */
/* The GPU nodes that count are NVIDIA's when there are any, else the DRM
 * render nodes (gov__gpu_kind()). */
static bool nvidia_nodes(const gov_snapshot *s)
{
    return s->accel.nvidia_dev_nodes != GOV_UNKNOWN && s->accel.nvidia_dev_nodes > 0;
}

static void print_gpu_nodes(const gov_snapshot *s)
{
    bool nvidia = nvidia_nodes(s);
    char a[64], b[64], c[64], v[256];

    cnt(nvidia ? s->accel.nvidia_dev_nodes : s->accel.drm_render_nodes, a, sizeof a);
    cnt(nvidia ? s->accel.nvidia_dev_usable : s->accel.drm_render_usable, b, sizeof b);
    cnt(nvidia ? s->accel.nvidia_dev_denied : s->accel.drm_render_denied, c, sizeof c);
    snprintf(v, sizeof v, "%s %s: %s usable, %s denied", a, nvidia ? "nvidia" : "render", b, c);
    row("device nodes", v,
        s->accel.devices_confined == 1   ? "device cgroup"
        : s->accel.devices_confined == 0 ? "no device cgroup"
                                         : "kernel: access()");
}

/* Say what the plugin's verification rested on (docs/descriptor.md, "GPU
 * verification"): a node without GPU device nodes confirms a grant of none
 * with no device cgroup at all. */
static const char *gpu_verification(const gov_snapshot *s)
{
    uint64_t nodes = nvidia_nodes(s) ? s->accel.nvidia_dev_nodes : s->accel.drm_render_nodes;

    if (!s->scheduler.gpus_verified)
        return "unverified";
    return nodes == 0 ? "verified: the node has no GPU device nodes"
                      : "verified: the device cgroup admits exactly these";
}

static void print_rest(const gov_snapshot *s)
{
    char a[64], b[64], c[64], v[256];

    printf("PRESSURE\n");
    pct(s->pressure.cpu_some_avg10, a, sizeof a);
    pct(s->pressure.memory_some_avg10, b, sizeof b);
    pct(s->pressure.memory_full_avg10, c, sizeof c);
    snprintf(v, sizeof v, "cpu some %s, memory some %s full %s", a, b, c);
    row("psi avg10", v, or_unknown(gov_pressure_source_name(s->pressure.source)));

    printf("ACCELERATORS\n");
    cnt(s->accel.nvidia_gpus, a, sizeof a);
    cnt(s->accel.amd_gpus, b, sizeof b);
    cnt(s->accel.drm_render_nodes, c, sizeof c);
    snprintf(v, sizeof v, "nvidia %s, amd %s, render nodes %s", a, b, c);
    row("candidates", v, "driver and device files");
    print_gpu_nodes(s);
    cnt(s->scheduler.gpus_on_node, a, sizeof a);
    if (no_allocation(s))
        row("scheduler", "n/a", "no allocation");
    else
        row("scheduler", a, gpu_verification(s));
    /* A node without GPUs "enforces" its grant of none: say n/a to people. */
    if (no_gpu(s) && (s->scheduler.gpus_on_node == 0 || no_allocation(s)))
        row("enforcement", "n/a", "no GPU on this node");
    else
        row("enforcement", gov_enforcement_name(s->enforcement.gpu), "");

    printf("DISK (working filesystem)\n");
    byt(s->disk.capacity_bytes, a, sizeof a);
    byt(s->disk.avail_bytes, b, sizeof b);
    snprintf(v, sizeof v, "%s, %s available to you", a, b);
    row("capacity", v, s->disk.writable == 1 ? "writable" : s->disk.writable == 0 ? "read-only"
                                                                                : "unknown");
}

/* "not enforced" for people; the names are the JSON's. */
static const char *enforcement_words(gov_enforcement e)
{
    return e == GOV_NOT_ENFORCED ? "not enforced" : gov_enforcement_name(e);
}

/* The answer first: what this task may use, its share where a limit is
 * the step's and shared by its tasks, and whether the kernel holds it. */
static void print_summary(const gov_snapshot *s)
{
    uint64_t limit = s->memory.effective.limit_bytes;
    uint64_t share = gov__memory_task_share(s, limit);
    char cpu[96], mem[192], a[32], b[32];

    if (gov_known_f(s->cpu.effective.capacity_cores)) {
        cnt(s->cpu.effective.workers, a, sizeof a);
        snprintf(cpu, sizeof cpu, "%.2f cores (%s worker%s)", s->cpu.effective.capacity_cores,
                 a, s->cpu.effective.workers == 1 ? "" : "s");
    } else {
        snprintf(cpu, sizeof cpu, "an unknown number of CPUs");
    }
    byt(share, a, sizeof a);
    byt(limit, b, sizeof b);
    if (limit == GOV_UNKNOWN)
        snprintf(mem, sizeof mem, "an unknown amount of memory");
    else if (share != limit)
        snprintf(mem, sizeof mem, "%s of memory (its share of the %s the step's %llu tasks on "
                 "this node share)", a, b, (unsigned long long)s->scheduler.tasks_on_node);
    else if (s->memory.effective.binding == GOV_LAYER_HOST)
        snprintf(mem, sizeof mem, "%s of memory (the host's: no limit found)", b);
    else
        snprintf(mem, sizeof mem, "%s of memory", b);
    if (no_allocation(s))
        printf("this process may use %s and %s; no allocation to check them against\n", cpu,
               mem);
    else
        printf("this task may use %s and %s; CPU %s, memory %s\n", cpu, mem,
               enforcement_words(s->enforcement.cpu), enforcement_words(s->enforcement.memory));
}

/* The table's terms, once, under it. */
static void print_terms(void)
{
    static const char *const terms[][2] = {
        { "pkg, PUs", "packages (sockets); processing units (hardware threads)" },
        { "max, high", "cgroup memory.max: the kernel kills past it; memory.high: it throttles" },
        { "some, full", "PSI: the share of time some, or all, of the tasks waited" },
        { "inventory", "what the host has, not what this process may use" },
        { "n/a, unknown", "does not exist here; exists but could not be read" },
    };

    printf("TERMS\n");
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        printf("  %-16s %s\n", terms[i][0], terms[i][1]);
}

/* The members of the object at path (leaves "PATH.member..."), each once,
 * comma-separated, as many as fit in out. */
static void object_members(const gov_json_leaf *l, int n, const char *path, char *out, size_t cap)
{
    size_t pl = strlen(path), used = 0, last_len = 0;
    const char *last = NULL;

    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *m = l[i].path + pl + 1;
        size_t ml;
        if (strncmp(l[i].path, path, pl) || l[i].path[pl] != '.')
            continue;
        ml = strcspn(m, ".[");
        /* A member's leaves come together: one name per run of them. */
        if (last && ml == last_len && !strncmp(m, last, ml))
            continue;
        last = m;
        last_len = ml;
        if (used + ml + 3 >= cap)
            break;
        used += (size_t)snprintf(out + used, cap - used, "%s%.*s", used ? ", " : "", (int)ml, m);
    }
}

/* --get FIELD: the value of one member of the JSON snapshot, its path as
 * docs/snapshot.md writes it (a leading '.' allowed); an array prints one
 * element a line. */
static int print_field(const gov_snapshot *s, const char *field)
{
    enum { LEAVES_MAX = 1024 };
    gov_json_leaf *leaves = calloc(LEAVES_MAX, sizeof *leaves);
    char *text = NULL, want[64];
    size_t len = 0, found = 0, nulls = 0;
    int n = -1, rc = GOV_EXIT_OK;

    if (*field == '.')
        field++;
    if (leaves && !gov_snapshot_json(s, &text, &len))
        n = gov__json_leaves(text, len, leaves, LEAVES_MAX);
    if (n < 0) {
        fprintf(stderr, "governor: snapshot: cannot render the snapshot\n");
        free(leaves);
        free(text);
        return GOV_EXIT_FAILED;
    }
    snprintf(want, sizeof want, "%s", field);
    for (int i = 0; i < n; i++) {
        const gov_json_leaf *l = &leaves[i];
        size_t fl = strlen(want);
        if (strcmp(l->path, want) && !(strncmp(l->path, want, fl) == 0 &&
                                       !strcmp(l->path + fl, "[]")))
            continue;
        found++;
        if (l->type == GOV_JSON_NULL)
            nulls++;
        else
            printf("%.*s\n", (int)l->len, l->text);
    }
    if (!found) {
        char members[256];
        object_members(leaves, n, want, members, sizeof members);
        if (*members)
            fprintf(stderr, "governor: snapshot: --get: '%s' is an object; name one of its "
                            "members: %s\n", field, members);
        else
            fprintf(stderr, "governor: snapshot: --get: no field '%s'; 'governor snapshot "
                            "--json' shows them (docs/snapshot.md)\n", field);
        rc = GOV_EXIT_USAGE;
    } else if (nulls == found) {
        rc = GOV_EXIT_FAILED;   /* unknown: nothing printed, as scripts expect */
    }
    free(leaves);
    free(text);
    return rc;
}

static int snapshot_arg(int argc, char **argv, int *i, void *ctx)
{
    return gov__cmd_value_arg(argc, argv, i, "--get", "a field of the JSON snapshot",
                              (const char **)ctx);
}

int gov__cmd_snapshot(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    gov_snapshot snap;
    const char *field = NULL;

    int rc = gov__cmd_parse(argc, argv, "snapshot", usage, &o, snapshot_arg, &field);

    if (rc >= 0)
        return rc;
    if (field && o.json) {
        fprintf(stderr, "governor: snapshot: --get or --json, not both\n");
        return GOV_EXIT_USAGE;
    }
    if ((rc = gov__cmd_capture(&o, &snap)))
        return rc;
    if (field)
        return print_field(&snap, field);
    if (o.json) {
        char *text = NULL;
        return gov__cmd_put_json(gov_snapshot_json(&snap, &text, NULL), &text);
    }
    print_summary(&snap);
    printf("descriptor: %s", gov_descriptor_status_name(snap.descriptor.status));
    if (snap.descriptor.status == GOV_DESCRIPTOR_INVALID)
        printf(" (%s)", gov_strerror(snap.descriptor.reason));
    printf("; scheduler facts from: %s\n",
           snap.scheduler.source == GOV_SCHED_NONE ? "no scheduler"
                                                   : gov_sched_source_name(snap.scheduler.source));
    gov__cmd_print_container(&snap.descriptor);
    printf("\n");
    print_scheduler(&snap);
    print_cpu(&snap);
    print_topology(&snap);
    print_memory(&snap);
    print_rest(&snap);
    print_terms();
    return GOV_EXIT_OK;
}
