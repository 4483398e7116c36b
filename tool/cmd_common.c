/* cmd_common.c - helpers shared by the tool's verbs (cmd_common.h). */
#include "cmd_common.h"
#include "cmd.h"
#include "base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether DIR holds sysfs's CPU topology, where hwloc reads it. */
static bool has_cpu_topology(const char *dir)
{
    char path[4096];
    struct stat st;

    return (size_t)snprintf(path, sizeof path, "%s/sys/devices/system/cpu", dir) < sizeof path &&
           stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A sysroot that is not a directory would read as "nothing known" and exit
 * 0 with an all-unknown answer: say so instead. */
static int set_sysroot(gov_cmd_opts *o, const char *dir)
{
    struct stat st;

    if (stat(dir, &st) != 0) {
        fprintf(stderr, "governor: --sysroot %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "governor: --sysroot %s: not a directory\n", dir);
        return -1;
    }
    if (gov__tool_point_hwloc(dir) != 0) {
        fprintf(stderr, "governor: --sysroot %s: cannot point hwloc at it: %s\n", dir,
                strerror(errno));
        return -1;
    }
    if (!has_cpu_topology(dir))
        fprintf(stderr, "governor: --sysroot %s: no sys/devices/system/cpu there, so the "
                        "host's cores, packages and NUMA nodes are unknown\n", dir);
    o->sysroot = dir;
    return 1;
}

int gov__cmd_value_arg(int argc, char **argv, int *i, const char *name, const char *what,
                       const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);

    if (strncmp(a, name, n) != 0 || (a[n] != '\0' && a[n] != '='))
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "governor: %s needs %s\n", name, what);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

/* --json, --sysroot DIR, --require-descriptor at argv[*i], with
 * gov_cmd_arg_fn's contract. */
static int common_arg(int argc, char **argv, int *i, gov_cmd_opts *o)
{
    const char *dir;
    int r;

    if (!strcmp(argv[*i], "--json")) {
        o->json = true;
        return 1;
    }
    if (!strcmp(argv[*i], "--require-descriptor")) {
        o->require_descriptor = true;
        return 1;
    }
    r = gov__cmd_value_arg(argc, argv, i, "--sysroot", "a directory", &dir);
    return r > 0 ? set_sysroot(o, dir) : r;
}

int gov__cmd_parse(int argc, char **argv, const char *verb, void (*usage)(FILE *f),
                   gov_cmd_opts *o, gov_cmd_arg_fn extra, void *ctx)
{
    for (int i = 1; i < argc; i++) {
        int r = common_arg(argc, argv, &i, o);
        if (r == 0 && extra)
            r = extra(argc, argv, &i, ctx);
        if (r < 0)
            return GOV_EXIT_USAGE;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return GOV_EXIT_OK;
        }
        fprintf(stderr, "governor: %s: unknown option '%s'; 'governor %s --help' lists them\n",
                verb, argv[i], verb);
        return GOV_EXIT_USAGE;
    }
    /* The descriptor binds to the live process, which a sysroot is not. */
    if (o->require_descriptor && o->sysroot) {
        fprintf(stderr, "governor: --require-descriptor needs the live process, not --sysroot\n");
        return GOV_EXIT_USAGE;
    }
    return -1;
}

int gov__cmd_put_json(int rc, char **text)
{
    if (rc) {
        fprintf(stderr, "governor: cannot render JSON: %s\n", gov_strerror(rc));
        return GOV_EXIT_FAILED;
    }
    printf("%s\n", *text);
    free(*text);
    *text = NULL;
    return GOV_EXIT_OK;
}

void gov__cmd_options(const gov_cmd_opts *o, gov_options *out)
{
    memset(out, 0, sizeof *out);
    out->sysroot = o->sysroot;
    out->trusted_uid = GOV_UID_NONE;
    if (o->require_descriptor)
        out->flags |= GOV_OPT_REQUIRE_DESCRIPTOR;
}

void gov__cmd_capture_error(const gov_cmd_opts *o, int rc, const gov_snapshot *snap)
{
    if (o->require_descriptor && snap && snap->descriptor.status != GOV_DESCRIPTOR_VERIFIED)
        fprintf(stderr, "governor: no verified descriptor (%s); --require-descriptor refuses "
                "the SLURM_* variables. Run it in a step with srun --governor\n",
                snap->descriptor.status == GOV_DESCRIPTOR_ABSENT
                    ? "none in GOVERNOR_DESCRIPTOR" : gov_strerror(rc));
    else
        fprintf(stderr, "governor: cannot capture a snapshot: %s\n", gov_strerror(rc));
}

int gov__cmd_capture(const gov_cmd_opts *o, gov_snapshot *snap)
{
    gov_options opts;
    gov_context *ctx;
    int rc;

    gov__cmd_options(o, &opts);
    rc = gov_context_create(&opts, &ctx);
    if (rc) {
        gov__cmd_capture_error(o, rc, NULL);
        return GOV_EXIT_FAILED;
    }
    rc = gov_snapshot_capture(ctx, snap);
    gov_context_destroy(ctx);
    if (rc) {
        gov__cmd_capture_error(o, rc, snap);
        return GOV_EXIT_FAILED;
    }
    return GOV_EXIT_OK;
}

/* A positive decimal count for option `name`; prints a message. */
static int parse_count(const char *name, const char *text, uint64_t *out)
{
    uint64_t v;

    if (gov__parse_dec(text, strlen(text), 0, 1000000, &v) || v == 0) {
        fprintf(stderr, "governor: %s takes a whole number from 1 to 1000000\n", name);
        return GOV_EPARSE;
    }
    *out = v;
    return 0;
}

int gov__cmd_count_arg(int argc, char **argv, int *i, const char *name, uint64_t *out)
{
    const char *v;
    int r = gov__cmd_value_arg(argc, argv, i, name, "a number", &v);

    if (r <= 0)
        return r;
    return parse_count(name, v, out) ? -1 : 1;
}

int gov__cmd_shape_arg(int argc, char **argv, int *i, gov_cmd_shape *s)
{
    const char *v;
    int r;

    if (!strcmp(argv[*i], "--per-core")) {
        s->plan_flags |= GOV_PLAN_PER_CORE;
        return 1;
    }
    r = gov__cmd_value_arg(argc, argv, i, "--workers", "a number or 'numa'", &v);
    if (r <= 0)
        return r;
    if (!strcmp(v, "numa")) {
        s->plan_flags |= GOV_PLAN_WORKERS_NUMA;
        s->workers = 0;
        return 1;
    }
    s->plan_flags &= ~GOV_PLAN_WORKERS_NUMA;
    return parse_count("--workers", v, &s->workers) ? -1 : 1;
}

void gov__cmd_shape_error(const char *verb, const gov_snapshot *snap)
{
    if (snap->topology.task.numa_nodes == GOV_UNKNOWN)
        fprintf(stderr, "governor: %s: --workers numa needs the task's topology, and hwloc "
                        "could not read it here; give a number of workers instead\n", verb);
    else
        fprintf(stderr, "governor: %s: --workers numa: the task spans %llu NUMA nodes, more "
                        "than the %d a plan lists; give a number of workers instead\n",
                verb, (unsigned long long)snap->topology.task.numa_nodes,
                GOV_TOPOLOGY_NUMA_MAX);
}

void gov__fmt_plan_memory(const gov_plan *p, char *buf, size_t cap)
{
    char limit[32], free_[32];

    if (p->memory_limit_per_worker == GOV_UNKNOWN && p->memory_remaining_per_worker == GOV_UNKNOWN) {
        snprintf(buf, cap, "unknown");
        return;
    }
    gov__fmt_bytes(p->memory_limit_per_worker, limit, sizeof limit);
    gov__fmt_bytes(p->memory_remaining_per_worker, free_, sizeof free_);
    snprintf(buf, cap, "%s, %s of it free", limit, free_);
}

void gov__fmt_memory_high(const gov_snapshot *s, char *buf, size_t cap)
{
    /* v1 has no memory.high; on v2 only a finite one is kept. */
    if (s->memory.cgroup.version == 1)
        snprintf(buf, cap, "n/a");
    else if (s->memory.cgroup.high_bytes != GOV_UNKNOWN)
        gov__fmt_bytes(s->memory.cgroup.high_bytes, buf, cap);
    else if (s->memory.cgroup.version == 2 && s->memory.cgroup.status != GOV_LIMIT_UNKNOWN)
        snprintf(buf, cap, "none");
    else
        snprintf(buf, cap, "unknown");
}

bool gov__fmt_plan_reserve(const gov_snapshot *s, const gov_plan *p, char *buf, size_t cap)
{
    char mem[32] = "", threads[32] = "";

    if (!p->reserve_threads && !p->reserve_memory_bytes)
        return false;
    if (p->reserve_threads)
        snprintf(threads, sizeof threads, "%llu thread%s", (unsigned long long)p->reserve_threads,
                 p->reserve_threads == 1 ? "" : "s");
    if (p->reserve_memory_bytes)
        gov__fmt_bytes(p->reserve_memory_bytes, mem, sizeof mem);
    snprintf(buf, cap, "%s%s%s (profile %s, as governor watch keeps)", threads,
             *threads && *mem ? " and " : "", mem, gov_profile_name(s->policy.profile));
    return true;
}

void gov__cmd_print_container(const gov_snapshot_descriptor *d)
{
    char buf[64];

    if (d->status == GOV_DESCRIPTOR_VERIFIED)
        printf("via: %s\n", d->via == GOV_DESCRIPTOR_VIA_FILE
                                ? "the step's file (GOVERNOR_DESCRIPTOR_FILE)"
                                : "MUNGE (GOVERNOR_DESCRIPTOR)");
    if (d->namespaces_seen && d->namespaces)
        printf("container: namespaces of its own: %s%s\n",
               gov__bits_format(d->namespaces, gov__namespace_bits_name, GOV_NAMESPACE_COUNT, buf,
                                sizeof buf),
               d->namespaces & (1u << GOV_NAMESPACE_CGROUP)
                   ? " (the step's cgroup limits are hidden above its root)"
                   : "");
    if (d->namespaces_seen && d->namespaces_unknown)
        printf("container: namespaces it cannot name (/proc/self/ns hidden), counted as its "
               "own: %s\n",
               gov__bits_format(d->namespaces_unknown, gov__namespace_bits_name,
                                GOV_NAMESPACE_COUNT, buf, sizeof buf));
    if (d->status == GOV_DESCRIPTOR_VERIFIED && d->unchecked)
        printf("not checked in this container: %s\n",
               gov__bits_format(d->unchecked, gov__binding_bits_name, GOV_BINDING_COUNT, buf,
                                sizeof buf));
}
