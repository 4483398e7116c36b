/* cmd_run.c - `governor run [--workers N] [--force] -- CMD ...`: apply the
 * plan to the environment of CMD and exec it, so that N process workers
 * times each one's native threads stays within the step's capacity. */
#include "cmd.h"
#include "cmd_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The thread-count variables of the common native runtimes. */
static const char *const gov_thread_vars[] = {
    "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS",
};

static void usage(FILE *f)
{
    fprintf(f, "usage: governor run [--workers N] [--force] [--verbose] [--sysroot DIR] -- CMD [ARG...]\n"
               "  Run CMD with native thread pools sized to this allocation: sets\n"
               "  OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS, BLIS_NUM_THREADS,\n"
               "  VECLIB_MAXIMUM_THREADS and NUMEXPR_NUM_THREADS where unset (all of them\n"
               "  with --force) to the threads of one process using every CPU, or of each\n"
               "  of N process workers; GOVERNOR_WORKERS and GOVERNOR_THREADS_PER_WORKER\n"
               "  size a pool (N, else the CPU ceiling).\n"
               "  Exit status: CMD's, or 127 when CMD cannot be run, 2 for a usage error.\n");
}

static int set_count(const char *name, uint64_t v, int overwrite)
{
    char buf[32];

    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return setenv(name, buf, overwrite);
}

int gov_cmd_run(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    uint64_t workers = 0;
    int force = 0, verbose = 0, i;
    gov_snapshot snap;
    gov_plan plan, pool;

    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        r = gov_cmd_common_arg(argc, argv, &i, &o);
        if (r < 0)
            return 2;
        if (r > 0 && o.json) {
            fprintf(stderr, "governor: run: --json does not apply to run\n");
            return 2;
        }
        if (r > 0)
            continue;
        if (argv[i][0] != '-') {
            fprintf(stderr, "governor: run: put the command after '--'\n");
            return 2;
        }
        r = gov_cmd_count_arg(argc, argv, &i, "--workers", &workers);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--force")) {
            force = 1;
        } else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
            verbose = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "governor: run: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "governor: run: no command given\n");
        usage(stderr);
        return 2;
    }
    if (gov_cmd_capture(&o, &snap))
        return 1;
    gov_plan_compute(&snap, workers, &plan);
    /* Without --workers the command is one process using every CPU; a
     * pool it starts still finds its ceiling in GOVERNOR_WORKERS. */
    gov_plan_compute(&snap, workers ? workers : plan.cpu_workers, &pool);
    for (size_t v = 0; v < sizeof gov_thread_vars / sizeof gov_thread_vars[0]; v++)
        if (set_count(gov_thread_vars[v], plan.threads_per_worker, force) != 0)
            goto env_failed;
    if (set_count("GOVERNOR_WORKERS", pool.workers, 1) != 0 ||
        set_count("GOVERNOR_THREADS_PER_WORKER", pool.threads_per_worker, 1) != 0)
        goto env_failed;
    if (plan.oversubscribed)
        fprintf(stderr, "governor: warning: %llu workers exceed the CPU ceiling of %llu\n",
                (unsigned long long)plan.workers, (unsigned long long)plan.cpu_workers);
    if (verbose)
        fprintf(stderr, "governor: %llu workers x %llu threads (capacity %.2f cores)\n",
                (unsigned long long)plan.workers, (unsigned long long)plan.threads_per_worker,
                snap.cpu.effective.capacity_cores);
    gov_tool_restore_env();
    execvp(argv[i], argv + i);
    fprintf(stderr, "governor: run: cannot run the command: %s\n", strerror(errno));
    return 127;
env_failed:
    fprintf(stderr, "governor: run: cannot set the environment: %s\n", strerror(errno));
    return 1;
}
