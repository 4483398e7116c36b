/* cmd_plan.c - `governor plan [--json] [--workers N]`: ceilings, not promises. */
#include "cmd.h"
#include "cmd_common.h"
#include "json/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: governor plan [--json] [--workers N] [--require-descriptor] [--sysroot DIR]\n"
               "  Ceilings for a workload in this allocation: by default one process\n"
               "  whose native threads (OpenMP, BLAS) use every CPU; with --workers N, N\n"
               "  process workers whose threads together stay within capacity.  Memory\n"
               "  per worker is this process's share of the allocation, divided among\n"
               "  the workers.  Also the CPU-bound worker ceiling and a size for I/O-bound\n"
               "  pools.  Benchmark the real workload before going higher.\n");
}

static int workers_arg(int argc, char **argv, int *i, void *workers)
{
    return gov_cmd_count_arg(argc, argv, i, "--workers", workers);
}

int gov_cmd_plan(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    int rc;
    uint64_t workers = 0;
    gov_snapshot snap;
    gov_plan plan;
    char mem[96];

    rc = gov_cmd_parse(argc, argv, "plan", usage, &o, workers_arg, &workers);
    if (rc >= 0)
        return rc;
    if ((rc = gov_cmd_capture(&o, &snap)))
        return rc;
    gov_plan_compute(&snap, workers, &plan);
    if (o.json) {
        char *text = NULL;
        return gov_cmd_put_json(gov_plan_json(&snap, &plan, &text, NULL), &text);
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
    gov_fmt_plan_memory(&plan, mem, sizeof mem);
    printf("memory per worker:   %s", mem);
    if (plan.memory_limit_per_worker != GOV_UNKNOWN)
        printf(" (bound by %s)", gov_layer_name(snap.memory.effective.binding));
    printf("\n");
    printf("I/O-bound pool:      about %llu\n", (unsigned long long)plan.io_workers);
    if (plan.oversubscribed)
        printf("warning: %llu workers exceed the CPU ceiling of %llu: expect throttling\n",
               (unsigned long long)plan.workers, (unsigned long long)plan.cpu_workers);
    printf("These are ceilings, not promises: benchmark the real workload.\n");
    return GOV_EXIT_OK;
}
