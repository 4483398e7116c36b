/* cmd_plan.c - `governor plan [--json] [--workers N]`: ceilings, not promises. */
#include "cmd.h"
#include "cmd_common.h"
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: governor plan [--json] [--workers N] [--require-descriptor] [--sysroot DIR]\n"
               "  Ceilings for a workload in this allocation: CPU-bound process workers,\n"
               "  native threads per worker (OpenMP, BLAS) so that workers x threads stays\n"
               "  within capacity, and a size for I/O-bound pools.  Benchmark the real\n"
               "  workload before going higher.\n");
}

static int print_json(const gov_snapshot *s, const gov_plan *p)
{
    gov_jw w;
    char *text;

    gov_jw_init(&w);
    gov_jw_object_begin(&w, NULL);
    gov_jw_string(&w, "schema", "governor.plan/1");
    gov_jw_double(&w, "capacity_cores", s->cpu.effective.capacity_cores);
    gov_jw_string(&w, "binding", gov_layer_name(s->cpu.effective.binding));
    gov_jw_u64(&w, "cpu_workers", p->cpu_workers);
    gov_jw_u64(&w, "workers", p->workers);
    gov_jw_u64(&w, "threads_per_worker", p->threads_per_worker);
    gov_jw_u64(&w, "io_workers", p->io_workers);
    gov_jw_bool(&w, "oversubscribed", p->oversubscribed);
    gov_jw_object_end(&w);
    return gov_cmd_put_json(gov_jw_finish(&w, &text, NULL), &text);
}

int gov_cmd_plan(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    uint64_t workers = 0;
    gov_snapshot snap;
    gov_plan plan;

    for (int i = 1; i < argc; i++) {
        int r = gov_cmd_common_arg(argc, argv, &i, &o);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        r = gov_cmd_count_arg(argc, argv, &i, "--workers", &workers);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "governor: plan: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (gov_cmd_capture(&o, &snap))
        return 1;
    gov_plan_compute(&snap, workers, &plan);
    if (o.json)
        return print_json(&snap, &plan);
    printf("capacity: ");
    if (gov_known_f(snap.cpu.effective.capacity_cores))
        printf("%.2f cores (bound by %s)\n", snap.cpu.effective.capacity_cores,
               gov_layer_name(snap.cpu.effective.binding));
    else
        printf("unknown (planning for 1 worker)\n");
    printf("CPU-bound workers:   at most %llu\n", (unsigned long long)plan.cpu_workers);
    printf("workers x threads:   %llu x %llu\n", (unsigned long long)plan.workers,
           (unsigned long long)plan.threads_per_worker);
    printf("I/O-bound pool:      about %llu\n", (unsigned long long)plan.io_workers);
    if (plan.oversubscribed)
        printf("warning: %llu workers exceed the CPU ceiling of %llu: expect throttling\n",
               (unsigned long long)plan.workers, (unsigned long long)plan.cpu_workers);
    printf("These are ceilings, not promises: benchmark the real workload.\n");
    return 0;
}
