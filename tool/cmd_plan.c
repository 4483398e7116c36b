/* cmd_plan.c - `governor plan [--json] [--workers N|numa] [--per-core]`:
 * ceilings, not promises. */
#include "cmd.h"
#include "cmd_common.h"
#include "json/render.h"
#include "snapshot_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: governor plan [--json] [--workers N|numa] [--per-core] [--require-descriptor]\n"
               "                     [--sysroot DIR]\n"
               "  Ceilings for a workload in this allocation: by default one process\n"
               "  whose native threads (OpenMP, BLAS) use every CPU; with --workers N, N\n"
               "  process workers whose threads together stay within capacity.  Memory\n"
               "  per worker is this process's share of the allocation, divided among\n"
               "  the workers.  --workers numa: one worker per NUMA node of the task's\n"
               "  CPUs, each sized to that node's CPUs and local memory.  --per-core: one\n"
               "  thread per physical core (SMT siblings idle), for BLAS and OpenMP codes\n"
               "  that lose with SMT.  Also the CPU-bound worker ceiling and a size for\n"
               "  I/O-bound pools.  Benchmark the real workload before going higher.\n");
}

static int shape_arg(int argc, char **argv, int *i, void *shape)
{
    return gov__cmd_shape_arg(argc, argv, i, shape);
}

/* The topology the plan covers, and each NUMA worker. */
static void print_topology(const gov_snapshot *s, const gov_plan *p)
{
    char a[32], b[32], list[96];

    gov__fmt_count(p->cores, a, sizeof a);
    gov__fmt_count(p->numa_nodes, b, sizeof b);
    printf("cores, NUMA nodes:   %s, %s", a, b);
    if (p->flags & GOV_PLAN_PER_CORE)
        printf(" (one thread per core, %llu PUs idle)", (unsigned long long)p->idle_pus);
    printf("\n");
    for (uint32_t i = 0; i < p->numa_workers; i++) {
        gov__fmt_bytes(p->worker[i].memory_limit_bytes, a, sizeof a);
        if (gov_cpuset_format(&s->topology.numa[i].cpus, list, sizeof list) < 0)
            snprintf(list, sizeof list, "...");
        printf("  worker on NUMA %u: %llu threads, %s, CPUs %s\n", s->topology.numa[i].os_index,
               (unsigned long long)p->worker[i].threads, a, list);
    }
}

/* The GPU grant, where there is one: a share says so. */
static void print_gpu(const gov_snapshot *s)
{
    char share[160], mem[32];
    const char *text = gov__gpu_share_text(s, share, sizeof share);

    if (s->scheduler.gpu_share_kind == GOV_GPU_SHARE_NONE)
        return;
    gov__fmt_bytes(s->scheduler.gpu_memory_bytes, mem, sizeof mem);
    if (text)
        printf("GPU:                 %s", text);
    else
        printf("GPU:                 %llu whole", (unsigned long long)s->scheduler.gpus_on_node);
    if (s->scheduler.gpu_memory_bytes != GOV_UNKNOWN)
        printf(" (%s of GPU memory)", mem);
    printf("\n");
}

int gov__cmd_plan(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    int rc;
    gov_cmd_shape shape = { 0 };
    gov_snapshot snap;
    gov_plan plan;
    char mem[96];

    rc = gov__cmd_parse(argc, argv, "plan", usage, &o, shape_arg, &shape);
    if (rc >= 0)
        return rc;
    if ((rc = gov__cmd_capture(&o, &snap)))
        return rc;
    if (gov_plan_compute(&snap, shape.workers, shape.plan_flags, &plan) != 0) {
        gov__cmd_shape_error("plan", &snap);
        return GOV_EXIT_FAILED;
    }
    if (o.json) {
        char *text = NULL;
        return gov__cmd_put_json(gov__plan_json(&snap, &plan, &text, NULL), &text);
    }
    printf("capacity: ");
    if (gov_known_f(snap.cpu.effective.capacity_cores))
        printf("%.2f cores (bound by %s)\n", snap.cpu.effective.capacity_cores,
               gov_layer_name(snap.cpu.effective.binding));
    else
        printf("unknown (planning for 1 worker)\n");
    printf("CPU-bound workers:   at most %llu\n", (unsigned long long)plan.cpu_workers);
    printf("workers x threads:   %llu x %llu\n", (unsigned long long)plan.workers,
           (unsigned long long)plan.threads_per_worker);
    gov__fmt_plan_memory(&plan, mem, sizeof mem);
    printf("memory per worker:   %s", mem);
    if (plan.memory_limit_per_worker != GOV_UNKNOWN)
        printf(" (bound by %s)", gov_layer_name(snap.memory.effective.binding));
    printf("\n");
    printf("I/O-bound pool:      about %llu\n", (unsigned long long)plan.io_workers);
    print_gpu(&snap);
    if (gov__fmt_plan_reserve(&snap, &plan, mem, sizeof mem))
        printf("kept back:           %s\n", mem);
    print_topology(&snap, &plan);
    if (plan.oversubscribed)
        printf("warning: %llu workers exceed the CPU ceiling of %llu: expect throttling\n",
               (unsigned long long)plan.workers, (unsigned long long)plan.cpu_workers);
    printf("These are ceilings, not promises: benchmark the real workload.\n");
    return GOV_EXIT_OK;
}
