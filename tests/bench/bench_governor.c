/* bench_governor - median cost of one decide + reserve_available + release
 * cycle, single-threaded and with two threads on one governor, next to a bare
 * mutex lock/unlock cycle measured in the same run.  Target: under 250 ns
 * uncontended.  Prints figures and ratios; not a test. */
#include "bench_util.h"
#include "governor.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SAMPLES 101
#define CYCLES 2000


struct run {
    gov_governor *gov;
    pthread_mutex_t *mutex;
    pthread_barrier_t *start;
    double samples[SAMPLES];
    uint64_t begin, end;
    int failed;
};

/* A 16 GiB, 16-thread batch host, captured now. */
static void stamp(gov_snapshot *s)
{
    gov_snapshot_init(s);
    s->captured_ns = now_ns();
    s->cpu.host.logical = 16;
    s->cpu.effective.capacity_cores = 16.0;
    s->cpu.effective.workers = 16;
    s->memory.host.total_bytes = 16ull << 30;
    s->memory.host.available_bytes = 12ull << 30;
    s->memory.effective.limit_bytes = 16ull << 30;
    s->memory.effective.remaining_bytes = 12ull << 30;
    s->pressure.swap_in_pages = 0;
    s->pressure.swap_out_pages = 0;
    s->policy.present = 1;
    s->policy.profile = GOV_PROFILE_BATCH;
}

static void *governor_cycles(void *p)
{
    struct run *r = p;
    gov_estimate e = { .task_class = 1, .fixed_bytes = 1 << 20, .bytes_per_item = 1 << 16,
                       .cpu_threads = 2, .io_slots = 1, .batch_min = 1, .batch_max = 8 };
    gov_snapshot s;
    gov_decision d;
    gov_reservation res;

    if (r->start)
        pthread_barrier_wait(r->start);
    r->begin = now_ns();
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0;

        stamp(&s);
        t0 = now_ns();
        for (int c = 0; c < CYCLES; c++) {
            if (gov_governor_decide(r->gov, &s, &e, &d) != 0 ||
                gov_governor_reserve_available(r->gov, &s, &e, &d, &res) != 0) {
                r->failed = 1;
            } else if (d.reason == GOV_REASON_STALE_SNAPSHOT) {
                /* Over a second since the stamp: this thread was held up
                 * (a loaded machine), which slows the sample and fails
                 * nothing; a fresh stamp goes on.  (A test clock that
                 * never let the stamp age would leave clock_gettime out
                 * of the cost measured.) */
                stamp(&s);
            } else if (d.verdict != GOV_ADMIT || gov_governor_release(r->gov, res) != 0) {
                r->failed = 1;
            }
        }
        r->samples[i] = (double)(now_ns() - t0) / CYCLES;
    }
    r->end = now_ns();
    return NULL;
}

static void *mutex_cycles(void *p)
{
    struct run *r = p;

    if (r->start)
        pthread_barrier_wait(r->start);
    r->begin = now_ns();
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = now_ns();

        for (int c = 0; c < CYCLES; c++) {
            pthread_mutex_lock(r->mutex);
            pthread_mutex_unlock(r->mutex);
        }
        r->samples[i] = (double)(now_ns() - t0) / CYCLES;
    }
    r->end = now_ns();
    return NULL;
}

/* Median per-cycle ns over nthreads threads (1 or 2) running fn at once.
 * *overlap gets the threads' summed run time over the wall time: near 2
 * when two threads really ran at once, near 1 when the machine serialised
 * them (other load), which makes a two-thread figure meaningless.
 * *wall_per_cycle gets the wall time over all cycles of all threads: a
 * median can hide a thread that the lock starved, throughput cannot. */
static double measure(void *(*fn)(void *), int nthreads, gov_governor *gov,
                      pthread_mutex_t *mutex, int *failed, double *overlap,
                      double *wall_per_cycle)
{
    uint64_t first = UINT64_MAX, last = 0, busy = 0;
    struct run runs[2];
    pthread_t t[2];
    pthread_barrier_t start;
    double all[2 * SAMPLES];
    int n = 0;

    pthread_barrier_init(&start, NULL, (unsigned)nthreads);
    for (int i = 0; i < nthreads; i++) {
        runs[i] = (struct run){ .gov = gov, .mutex = mutex, .start = &start };
        pthread_create(&t[i], NULL, fn, &runs[i]);
    }
    for (int i = 0; i < nthreads; i++) {
        pthread_join(t[i], NULL);
        *failed |= runs[i].failed;
        busy += runs[i].end - runs[i].begin;
        first = runs[i].begin < first ? runs[i].begin : first;
        last = runs[i].end > last ? runs[i].end : last;
        for (int k = 0; k < SAMPLES; k++)
            all[n++] = runs[i].samples[k];
    }
    pthread_barrier_destroy(&start);
    *overlap = (double)busy / (double)(last - first);
    *wall_per_cycle = (double)(last - first) / ((double)nthreads * SAMPLES * CYCLES);
    return median(all, n);
}

int main(void)
{
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    gov_governor *gov;
    double g1, g2, m1, m2, ov_m1, ov_g1, ov_m2, ov_g2, w_m1, w_g1, w_m2, w_g2;
    int failed = 0, rc;

    rc = gov_governor_create(NULL, &gov);
    if (rc != 0) {
        fprintf(stderr, "bench_governor: cannot create a governor: %s\n", gov_strerror(rc));
        return 1;
    }
    m1 = measure(mutex_cycles, 1, NULL, &mutex, &failed, &ov_m1, &w_m1);
    g1 = measure(governor_cycles, 1, gov, NULL, &failed, &ov_g1, &w_g1);
    m2 = measure(mutex_cycles, 2, NULL, &mutex, &failed, &ov_m2, &w_m2);
    g2 = measure(governor_cycles, 2, gov, NULL, &failed, &ov_g2, &w_g2);
    gov_governor_destroy(gov);
    if (failed) {
        fprintf(stderr, "bench_governor: a cycle did not admit, reserve and release\n");
        return 1;
    }
    printf("median ns per cycle (%d samples x %d cycles per thread)\n", SAMPLES, CYCLES);
    printf("  mutex lock+unlock         1 thread  %8.1f\n", m1);
    printf("  decide+reserve+release    1 thread  %8.1f   ratio %5.1fx mutex  (target < 250 ns: %s)\n",
           g1, g1 / m1, g1 < 250.0 ? "met" : "missed");
    printf("  mutex lock+unlock         2 threads %8.1f   (threads overlapped %.2f of 2)\n",
           m2, ov_m2);
    printf("  decide+reserve+release    2 threads %8.1f   ratio %5.1fx mutex, %4.1fx 1 thread"
           "  (threads overlapped %.2f of 2)\n", g2, g2 / m2, g2 / g1, ov_g2);
    printf("wall ns per cycle, all threads together (throughput)\n");
    printf("  mutex 1 thread %.1f, 2 threads %.1f; governor 1 thread %.1f, 2 threads %.1f\n",
           w_m1, w_m2, w_g1, w_g2);
    return 0;
}
