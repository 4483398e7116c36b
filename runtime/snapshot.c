/* snapshot.c - the capture context and the capture itself: call each
 * collector once, map its evidence into the snapshot, then resolve. */
#include "evidence.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

struct gov_context {
    gov_options opts;                 /* sysroot: NULL, it is `root` now */
    gov_root root;
    char *workdir, *munge_socket;     /* owned copies */
    hwloc_topology_t topo;            /* live system only */
};

static int dup_opt(const char *in, char **out)
{
    *out = NULL;
    if (!in)
        return 0;
    *out = strdup(in);
    return *out ? 0 : GOV_ENOMEM;
}

int gov_context_create(const gov_options *opts, gov_context **out)
{
    gov_context *ctx;

    if (!out)
        return GOV_EINVAL;
    *out = NULL;
    ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return GOV_ENOMEM;
    if (opts)
        ctx->opts = *opts;
    else
        ctx->opts.trusted_uid = GOV_UID_NONE;
    gov_root_open(ctx->opts.sysroot, &ctx->root);
    ctx->opts.sysroot = NULL;
    /* Strict mode needs the live process's descriptor. */
    if ((ctx->opts.flags & GOV_OPT_REQUIRE_DESCRIPTOR) &&
        ((ctx->opts.flags & GOV_OPT_NO_DESCRIPTOR) || !gov_root_is_live(&ctx->root))) {
        gov_context_destroy(ctx);
        return GOV_EINVAL;
    }
    if (dup_opt(ctx->opts.workdir, &ctx->workdir) ||
        dup_opt(ctx->opts.munge_socket, &ctx->munge_socket)) {
        gov_context_destroy(ctx);
        return GOV_ENOMEM;
    }
    ctx->opts.workdir = ctx->workdir;
    ctx->opts.munge_socket = ctx->munge_socket;
    /* A topology that cannot load only leaves the host counts unknown. */
    if (gov_root_is_live(&ctx->root) && gov_inventory_load_topology(&ctx->topo) != 0)
        ctx->topo = NULL;
    *out = ctx;
    return 0;
}

void gov_context_destroy(gov_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->topo)
        hwloc_topology_destroy(ctx->topo);
    gov_root_close(&ctx->root);
    free(ctx->workdir);
    free(ctx->munge_socket);
    free(ctx);
}

static void map_cgroup(const gov_cgroup_evidence *cg, gov_snapshot *s)
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

static void map_sched(const gov_sched_evidence *e, gov_snapshot *s)
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
}

int gov_snapshot_capture(gov_context *ctx, gov_snapshot *out)
{
    const gov_root *root;
    const char *const *envp;
    gov_inventory inv;
    gov_cgroup_evidence cg;
    gov_sched_evidence env_sched, desc_sched;
    bool strict;

    if (!ctx || !out)
        return GOV_EINVAL;
    strict = ctx->opts.flags & GOV_OPT_REQUIRE_DESCRIPTOR;
    root = &ctx->root;
    envp = ctx->opts.envp ? ctx->opts.envp : (const char *const *)environ;

    gov_snapshot_init(out);
    out->captured_ns = gov_monotonic_ns();

    gov_inventory_collect(ctx->topo, root, &inv);
    out->cpu.host.logical = inv.logical;
    out->cpu.host.physical = inv.physical;
    out->cpu.host.packages = inv.packages;
    out->cpu.host.numa_nodes = inv.numa_nodes;
    out->cpu.host.online = inv.online;

    if (gov_affinity_collect(root, &out->cpu.affinity.set, &out->cpu.affinity.count) != 0)
        out->cpu.affinity.count = GOV_UNKNOWN;

    gov_cgroup_collect(root, &cg);
    map_cgroup(&cg, out);

    /* A verified descriptor outranks the variables any user can change;
     * strict mode never falls back to them. */
    gov_slurmenv_collect(envp, &env_sched);
    memset(&desc_sched, 0, sizeof desc_sched);
    gov_descriptor_collect(&ctx->opts, root, envp, &desc_sched, &out->descriptor, &out->policy);
    if (desc_sched.source == GOV_SCHED_DESCRIPTOR)
        map_sched(&desc_sched, out);
    else if (!strict)
        map_sched(&env_sched, out);

    gov_meminfo_collect(root, &out->memory.host.total_bytes, &out->memory.host.available_bytes);
    gov_pressure_collect(root, &cg, &out->pressure);
    gov_accel_collect(root, envp, &out->accel);
    gov_accel_confinement(&out->accel, &cg);
    gov_disk_collect(ctx->opts.workdir, &out->disk);

    gov_snapshot_resolve(out);
    if (strict && out->descriptor.status != GOV_DESCRIPTOR_VERIFIED)
        return out->descriptor.status == GOV_DESCRIPTOR_INVALID ? out->descriptor.reason
                                                                : GOV_ENOENT;
    return 0;
}
