/*
 * drain_queue.c - drain a queue of work items under the governor.
 *
 * Two worker threads share a queue of ITEMS items.  Each item needs
 * ITEM_MIB MiB of working memory.  For every batch a worker captures a fresh
 * snapshot, asks the governor for the largest batch that fits now
 * (gov_governor_reserve_available), runs it, records what it measured
 * (gov_governor_record_batch) and releases the reservation.  On WAIT it
 * sleeps until the governor's state changes or 200 ms pass, then tries again
 * with a new snapshot.  docs/governor.md explains every figure it prints.
 *
 * Build against an installed libgovernor:
 *   cc -O2 -o drain_queue contrib/examples/drain_queue.c \
 *      $(pkg-config --cflags --libs governor) -pthread
 * Run:  ./drain_queue [ITEMS [ITEM_MIB]]        (defaults: 200 items, 8 MiB)
 */
#include <governor.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WORKERS 2
#define MIB (1024.0 * 1024.0)

struct queue {
    pthread_mutex_t lock;
    uint64_t next, total;           /* items handed out, items in all */
    int failed;                     /* a worker hit REJECT or an error */
    gov_context *ctx;
    gov_governor *gov;
    gov_estimate est;               /* immutable: one description for all batches */
    uint64_t waits[GOV_REASON_BATCH_CEILING + 1];
    uint64_t batches, largest_batch, done;
    uint64_t pages;                 /* pages touched: keeps the work observable */
};

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Take up to n items; returns how many were taken. */
static uint64_t take(struct queue *q, uint64_t n)
{
    uint64_t got;

    pthread_mutex_lock(&q->lock);
    got = q->total - q->next < n ? q->total - q->next : n;
    q->next += got;
    pthread_mutex_unlock(&q->lock);
    return got;
}

static int queue_empty(struct queue *q)
{
    int empty;

    pthread_mutex_lock(&q->lock);
    empty = q->next == q->total || q->failed;
    pthread_mutex_unlock(&q->lock);
    return empty;
}

/* The "work": touch every byte of each item's buffer once. */
static uint64_t run_batch(const struct queue *q, uint64_t items, uint64_t *peak)
{
    size_t bytes = (size_t)(items * q->est.bytes_per_item);
    unsigned char *buf = malloc(bytes ? bytes : 1);
    uint64_t sum = 0;

    if (!buf)
        return 0;
    memset(buf, 1, bytes);
    for (size_t i = 0; i < bytes; i += 4096)
        sum += buf[i];
    free(buf);
    /* A real program would measure its peak (getrusage, cgroup memory.peak);
     * this one knows what it allocated. */
    *peak = q->est.fixed_bytes + bytes;
    return sum;
}

static void *worker(void *arg)
{
    struct queue *q = arg;
    static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
    while (!queue_empty(q)) {
        gov_snapshot snap;
        gov_decision d;
        gov_reservation res;
        gov_availability av;
        gov_batch_record rec = { 0 };
        uint64_t gen = gov_governor_generation(q->gov), items, t0, pages;
        int rc = gov_snapshot_capture(q->ctx, &snap);

        if (rc == 0)
            rc = gov_governor_reserve_available(q->gov, &snap, &q->est, &d, &res);
        if (rc != 0 || d.verdict == GOV_REJECT) {
            int first;

            pthread_mutex_lock(&q->lock);
            first = !q->failed;
            q->failed = 1;
            pthread_mutex_unlock(&q->lock);
            if (first && rc != 0)
                fprintf(stderr, "drain_queue: %s\n", gov_strerror(rc));
            else if (first)
                fprintf(stderr, "drain_queue: the estimate can never fit this budget (%s)\n",
                        gov_reason_name(d.reason));
            break;
        }
        if (d.verdict == GOV_WAIT) {
            pthread_mutex_lock(&q->lock);
            q->waits[d.reason]++;
            pthread_mutex_unlock(&q->lock);
            gov_governor_wait_for_change(q->gov, gen, 200, NULL);
            continue;
        }
        items = take(q, d.batch);
        t0 = now_ns();
        pages = run_batch(q, items, &rec.peak_memory_bytes);
        rec.items = items;
        rec.duration_ns = now_ns() - t0;
        gov_governor_availability(q->gov, &snap, &av);
        pthread_mutex_lock(&print_lock);
        printf("batch %3llu items (admitted %3llu)  threads %llu  reserved %8.1f MiB  "
               "%-6s ceiling %3llu  free %9.1f MiB\n",
               (unsigned long long)items, (unsigned long long)d.batch,
               (unsigned long long)d.threads, (double)d.ram_bytes / MIB,
               gov_pressure_level_name(d.pressure), (unsigned long long)d.ceiling,
               av.ram_bytes == GOV_UNKNOWN ? -1.0 : (double)av.ram_bytes / MIB);
        pthread_mutex_unlock(&print_lock);
        if (items)
            gov_governor_record_batch(q->gov, q->est.task_class, &rec);
        gov_governor_release(q->gov, res);
        pthread_mutex_lock(&q->lock);
        q->done += items;
        q->pages += pages;
        if (items) {
            q->batches++;
            if (items > q->largest_batch)
                q->largest_batch = items;
        }
        pthread_mutex_unlock(&q->lock);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    struct queue q = { .lock = PTHREAD_MUTEX_INITIALIZER, .total = 200 };
    uint64_t item_mib = 8, waited = 0, t0;
    gov_pressure_state ps;
    pthread_t t[WORKERS];
    int rc;

    if (argc > 1)
        q.total = strtoull(argv[1], NULL, 10);
    if (argc > 2)
        item_mib = strtoull(argv[2], NULL, 10);
    if (argc > 3 || q.total == 0 || item_mib == 0 || item_mib > 1u << 20) {
        fprintf(stderr, "usage: drain_queue [ITEMS [ITEM_MIB]]  (ITEMS >= 1, 1 <= ITEM_MIB <= 1048576)\n");
        return 2;
    }
    q.est = (gov_estimate){ .task_class = 1, .fixed_bytes = 16ull << 20,
                            .bytes_per_item = item_mib << 20, .cpu_threads = 4,
                            .io_slots = 1, .batch_min = 1, .batch_max = 32 };
    rc = gov_context_create(NULL, &q.ctx);
    if (rc == 0)
        rc = gov_governor_create(NULL, &q.gov);
    if (rc != 0) {
        fprintf(stderr, "drain_queue: cannot start: %s\n", gov_strerror(rc));
        return 1;
    }
    t0 = now_ns();
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, &q);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    gov_governor_pressure(q.gov, NULL, &ps);

    printf("\nitems done %llu of %llu in %llu batches (largest %llu) in %.2f s, %.0f MiB touched\n",
           (unsigned long long)q.done, (unsigned long long)q.total,
           (unsigned long long)q.batches, (unsigned long long)q.largest_batch,
           (double)(now_ns() - t0) / 1e9, (double)q.pages * 4096.0 / MIB);
    printf("waits:");
    for (int r = 1; r <= GOV_REASON_BATCH_CEILING; r++) {
        if (q.waits[r])
            printf(" %s %llu", gov_reason_name((gov_reason)r), (unsigned long long)q.waits[r]);
        waited += q.waits[r];
    }
    printf("%s\nfinal pressure %s, ceiling %llu, %llu observations\n",
           waited ? "" : " none", gov_pressure_level_name(ps.level),
           (unsigned long long)ps.ceiling, (unsigned long long)ps.observations);
    gov_governor_destroy(q.gov);
    gov_context_destroy(q.ctx);
    return q.failed ? 1 : 0;
}
