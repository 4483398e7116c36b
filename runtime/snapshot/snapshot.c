/* snapshot.c - the capture context and the capture itself: call each
 * collector once, map its evidence into the snapshot, then resolve. */
#include "collect/collect.h"
#include "evidence.h"
#include "clock.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern char **environ;

struct gov_context {
    gov_options opts;                 /* sysroot: NULL, it is `root` now */
    gov_root root;
    char *workdir, *munge_socket;     /* owned copies */
    hwloc_topology_t topo;            /* hwloc's reading of the root */
};

static int dup_opt(const char *in, char **out)
{
    *out = NULL;
    if (!in)
        return 0;
    *out = strdup(in);
    return *out ? 0 : GOV_ENOMEM;
}

/* Whether hwloc reads the same tree as the rest of the snapshot: the live
 * system, or a sysroot that HWLOC_FSROOT names (hwloc has no other way to
 * be pointed at a tree, and a library must not set the variable). */
static bool hwloc_reads(const char *sysroot)
{
    const char *fsroot = getenv("HWLOC_FSROOT");
    struct stat a, b;

    if (!sysroot || !strcmp(sysroot, "/"))
        return true;
    return fsroot && stat(sysroot, &a) == 0 && stat(fsroot, &b) == 0 &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino;
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
    gov__root_open(ctx->opts.sysroot, &ctx->root);
    ctx->opts.sysroot = NULL;
    /* Strict mode needs the live process's descriptor. */
    if ((ctx->opts.flags & GOV_OPT_REQUIRE_DESCRIPTOR) &&
        ((ctx->opts.flags & GOV_OPT_NO_DESCRIPTOR) || !gov__root_is_live(&ctx->root))) {
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
    /* A topology that cannot load only leaves the topology unknown. */
    if (hwloc_reads(opts ? opts->sysroot : NULL) && gov__inventory_load_topology(&ctx->topo) != 0)
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
    gov__root_close(&ctx->root);
    free(ctx->workdir);
    free(ctx->munge_socket);
    free(ctx);
}

/* Strict mode: a value the job's environment gave is refused even when root
 * sealed it, as the variables themselves are. */
static void drop_env_value(uint64_t *value, gov_sched_source *source)
{
    if (*source == GOV_SCHED_ENVIRONMENT) {
        *value = GOV_UNKNOWN;
        *source = GOV_SCHED_NONE;
    }
}

/* The library's hooks (gov__snapshot_assemble): everything through the
 * context's hwloc topology and root. */
struct capture_args {
    gov_context *ctx;
    const char *const *envp;
    bool strict;
};

static void capture_inventory(void *arg, gov_snapshot *out)
{
    const struct capture_args *c = arg;

    gov__inventory_collect(c->ctx->topo, &c->ctx->root, &out->cpu.host, &out->topology);
}

static void capture_topology(void *arg, const gov_cpuset *mask, uint64_t mask_count,
                             gov_snapshot_topology *out)
{
    const struct capture_args *c = arg;

    gov__topology_collect(c->ctx->topo, mask, mask_count, out);
}

static void capture_cgroups(void *arg, gov_cgroup_evidence *cg)
{
    const struct capture_args *c = arg;

    gov__cgroup_collect(&c->ctx->root, cg);
}

/* A verified descriptor outranks the variables any user can change;
 * strict mode never falls back to them. */
static void capture_scheduler(void *arg, gov_snapshot *out)
{
    const struct capture_args *c = arg;

    gov__descriptor_collect(&c->ctx->opts, &c->ctx->root, c->envp, out);
    if (out->scheduler.source != GOV_SCHED_DESCRIPTOR && !c->strict)
        gov__slurmenv_collect(c->envp, &out->scheduler);
    if (c->strict) {
        drop_env_value(&out->scheduler.gpus_on_node, &out->scheduler.gpus_on_node_source);
        drop_env_value(&out->scheduler.gpus_per_task, &out->scheduler.gpus_per_task_source);
        drop_env_value(&out->scheduler.mem_per_cpu_bytes, &out->scheduler.mem_per_cpu_source);
    }
}

static void capture_host_memory(void *arg, gov_snapshot *out)
{
    const struct capture_args *c = arg;

    gov__meminfo_collect(&c->ctx->root, &out->memory.host.total_bytes,
                         &out->memory.host.available_bytes);
}

static void capture_rest(void *arg, const gov_cgroup_evidence *cg, gov_snapshot *out)
{
    const struct capture_args *c = arg;
    const gov_root *root = &c->ctx->root;

    gov__pressure_collect(root, cg, &out->pressure);
    gov__accel_collect(root, c->envp, &out->accel);
    gov__accel_confinement(&out->accel, cg);
    gov__disk_collect(c->ctx->opts.workdir, &out->disk);
}

int gov_snapshot_capture(gov_context *ctx, gov_snapshot *out)
{
    struct capture_args c;
    gov_assembly a = {
        .arg = &c,
        .inventory = capture_inventory,
        .topology = capture_topology,
        .cgroups = capture_cgroups,
        .scheduler = capture_scheduler,
        .host_memory = capture_host_memory,
        .rest = capture_rest,
    };

    if (!ctx || !out)
        return GOV_EINVAL;
    c.ctx = ctx;
    c.envp = ctx->opts.envp ? ctx->opts.envp : (const char *const *)environ;
    c.strict = ctx->opts.flags & GOV_OPT_REQUIRE_DESCRIPTOR;
    a.root = &ctx->root;
    gov_snapshot_init(out);
    out->captured_ns = gov__monotonic_ns();
    gov__snapshot_assemble(&a, out);
    if (c.strict && out->descriptor.status != GOV_DESCRIPTOR_VERIFIED)
        return out->descriptor.status == GOV_DESCRIPTOR_INVALID ? out->descriptor.reason
                                                                : GOV_ENOENT;
    return 0;
}
