/* snapshot.c - the capture context and the capture itself: each part of
 * the evidence read once, then the snapshot assembled from it
 * (core/assemble/assemble.c). */
#include "collect/collect.h"
#include "evidence.h"
#include "snapshot/clock.h"

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

/* The evidence of the context's root, each part once: the affinity mask
 * before the task's topology is counted on it, the cgroups before the
 * pressure and accelerators that look at them. */
static void read_evidence(gov_context *ctx, const char *const *envp, gov_evidence *e)
{
    const gov_root *root = &ctx->root;

    e->captured_ns = gov__monotonic_ns();
    e->strict = ctx->opts.flags & GOV_OPT_REQUIRE_DESCRIPTOR;
    gov__inventory_collect(ctx->topo, root, &e->host, &e->topology);
    if (gov__affinity_collect(root, &e->mask, &e->mask_count))
        e->mask_count = GOV_UNKNOWN;
    gov__topology_collect(ctx->topo, &e->mask, e->mask_count, &e->topology);
    gov__cgroup_collect(root, &e->cgroups);
    gov__descriptor_collect(&ctx->opts, root, envp, e);
    if (!e->have_descriptor && !e->strict)
        gov__slurmenv_collect(envp, &e->variables);
    gov__meminfo_collect(root, &e->host_total_bytes, &e->host_available_bytes);
    gov__pressure_collect(root, &e->cgroups, &e->pressure);
    gov__accel_collect(root, envp, &e->accel);
    gov__accel_confinement(&e->accel, &e->cgroups);
    gov__disk_collect(ctx->opts.workdir, &e->disk);
}

int gov_snapshot_capture(gov_context *ctx, gov_snapshot *out)
{
    gov_evidence *e;

    if (!ctx || !out)
        return GOV_EINVAL;
    /* 40 KiB: the heap, not a caller's thread stack. */
    e = malloc(sizeof *e);
    if (!e)
        return GOV_ENOMEM;
    gov__evidence_init(e);
    read_evidence(ctx, ctx->opts.envp ? ctx->opts.envp : (const char *const *)environ, e);
    gov__snapshot_assemble(e, out);
    free(e);
    if ((ctx->opts.flags & GOV_OPT_REQUIRE_DESCRIPTOR) &&
        out->descriptor.status != GOV_DESCRIPTOR_VERIFIED)
        return out->descriptor.status == GOV_DESCRIPTOR_INVALID ? out->descriptor.reason
                                                                : GOV_ENOENT;
    return 0;
}
