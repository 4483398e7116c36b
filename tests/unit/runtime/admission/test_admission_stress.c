/* Several threads decide, reserve, release and record at random for about
 * two seconds, and at least MIN_OPS operations each, against one governor,
 * while a checker verifies that the accounting always adds up; afterwards
 * every reservation has been released exactly once and availability is
 * back where it started. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "admission_test_util.h"

#define WORKERS 4
#define HELD_MAX 16
#define RUN_NS (2000 * MS)
/* Two seconds are no amount of work on a starved machine (a background lane
 * under SCHED_IDLE, sanitizers): each worker also runs this many operations,
 * about a quarter of them reservations, however long they take. */
#define MIN_OPS 2000

struct stress {
    gov_governor *g;
    uint64_t start_ns;
    atomic_int stop;
    atomic_ullong reserved, released, double_refused;
    uint64_t ram_total, threads_total;
};

/* cmocka's asserts may only fail on the main thread: workers count
 * failures and remember the first line, the main thread asserts on them. */
static atomic_int failures;
static atomic_int first_failed_line;
#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond) && atomic_fetch_add(&failures, 1) == 0)           \
            atomic_store(&first_failed_line, __LINE__);               \
    } while (0)

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A fresh snapshot of a fixed 16 GiB, 16-thread batch host, sometimes
 * under PSI pressure (which only gates new admissions). */
static gov_snapshot fresh(unsigned *seed)
{
    test_clock now = { mono_ns() };
    gov_snapshot s = make_snapshot(&now, 16 * GIB, 12 * GIB);

    set_site_batch(&s);
    s.pressure.swap_in_pages = 0;
    s.pressure.swap_out_pages = 0;
    s.pressure.cpu_some_avg10 = rand_r(seed) % 10 == 0 ? 50.0 : 0.0;
    return s;
}

static void *worker(void *p)
{
    struct stress *st = p;
    unsigned seed = (unsigned)(uintptr_t)&seed;
    gov_reservation held[HELD_MAX];
    int n = 0;

    for (long ops = 0; ops < MIN_OPS || mono_ns() - st->start_ns < RUN_NS; ops++) {
        gov_snapshot s = fresh(&seed);
        gov_estimate e = make_estimate((uint32_t)(rand_r(&seed) % 4),
                                       (uint64_t)(rand_r(&seed) % 512) * MIB,
                                       (uint64_t)(rand_r(&seed) % 64) * MIB,
                                       (uint64_t)(1 + rand_r(&seed) % 12), 1,
                                       (uint64_t)(1 + rand_r(&seed) % 16));
        gov_batch_record rec = { .items = (uint64_t)(rand_r(&seed) % 8),
                                 .peak_memory_bytes = (uint64_t)(rand_r(&seed) % 3) * GIB,
                                 .duration_ns = 1000 };
        gov_decision d;
        gov_reservation r;
        int op = rand_r(&seed) % 4, rc;

        if (op == 0) {
            CHECK(gov_governor_decide(st->g, &s, &e, &d) == 0);
        } else if (op == 1 && n < HELD_MAX) {
            rc = rand_r(&seed) % 2
                ? gov_governor_reserve_available(st->g, &s, &e, &d, &r)
                : gov_governor_reserve(st->g, &s, &e, 1, &d, &r);
            CHECK(rc == 0);
            if (d.verdict == GOV_ADMIT) {
                CHECK(r.id != 0);
                held[n++] = r;
                atomic_fetch_add(&st->reserved, 1);
            } else {
                CHECK(r.id == 0);
            }
        } else if (op == 2 && n > 0) {
            int i = rand_r(&seed) % n;

            r = held[i];
            held[i] = held[--n];
            CHECK(gov_governor_release(st->g, r) == 0);
            atomic_fetch_add(&st->released, 1);
            if (gov_governor_release(st->g, r) == GOV_EALREADY)
                atomic_fetch_add(&st->double_refused, 1);
        } else if (op == 3) {
            rc = gov_governor_record_batch(st->g, e.task_class, &rec);
            CHECK(rc == 0);
        }
    }
    while (n > 0) {
        CHECK(gov_governor_release(st->g, held[--n]) == 0);
        atomic_fetch_add(&st->released, 1);
        if (gov_governor_release(st->g, held[n]) == GOV_EALREADY)
            atomic_fetch_add(&st->double_refused, 1);
    }
    return NULL;
}

/* While workers run: free + held always equals the budget (never negative,
 * never overcommitted). */
static void *checker(void *p)
{
    struct stress *st = p;
    unsigned seed = 7;
    gov_availability a;

    while (!atomic_load(&st->stop)) {
        gov_snapshot s = fresh(&seed);

        CHECK(gov_governor_availability(st->g, &s, &a) == 0);
        CHECK(a.ram_reserved_bytes <= st->ram_total);
        CHECK(a.ram_bytes + a.ram_reserved_bytes == st->ram_total);
        CHECK(a.threads_reserved <= st->threads_total);
        CHECK(a.threads + a.threads_reserved == st->threads_total);
        CHECK(a.io_reserved <= GOV_DEFAULT_IO_SLOTS);
    }
    return NULL;
}

static void test_stress(void **state)
{
    struct stress st = { 0 };
    pthread_t w[WORKERS], c;
    gov_availability before, after;
    unsigned seed = 1;
    gov_snapshot s;

    assert_int_equal(gov_governor_create(NULL, &st.g), 0);
    s = fresh(&seed);
    s.pressure.cpu_some_avg10 = 0.0;
    assert_int_equal(gov_governor_availability(st.g, &s, &before), 0);
    st.ram_total = before.ram_bytes;
    st.threads_total = before.threads;
    assert_int_equal(st.ram_total, 12 * GIB);
    st.start_ns = mono_ns();
    assert_int_equal(pthread_create(&c, NULL, checker, &st), 0);
    for (int i = 0; i < WORKERS; i++)
        assert_int_equal(pthread_create(&w[i], NULL, worker, &st), 0);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(w[i], NULL);
    atomic_store(&st.stop, 1);
    pthread_join(c, NULL);
    if (atomic_load(&failures))
        fail_msg("%d checks failed, first at line %d", atomic_load(&failures),
                 atomic_load(&first_failed_line));

    assert_true(atomic_load(&st.reserved) > 0);
    assert_int_equal(atomic_load(&st.reserved), atomic_load(&st.released));
    assert_int_equal(atomic_load(&st.released), atomic_load(&st.double_refused));
    s = fresh(&seed);
    assert_int_equal(gov_governor_availability(st.g, &s, &after), 0);
    assert_int_equal(after.active_reservations, 0);
    assert_int_equal(after.ram_bytes, before.ram_bytes);
    assert_int_equal(after.ram_reserved_bytes, 0);
    assert_int_equal(after.threads, before.threads);
    assert_int_equal(after.io_slots, before.io_slots);
    assert_int_equal(after.gpu_slots, before.gpu_slots);
    print_message("reservations made and released: %llu\n",
                  (unsigned long long)atomic_load(&st.reserved));
    gov_governor_destroy(st.g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
