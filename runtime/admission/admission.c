/* admission.c - the runtime governor's public verbs: one lock around the
 * budget, reservations, pressure state and history; a condition variable on
 * the generation counter.  The rules live in admission_budget.c and
 * admission_pressure.c; docs/governor.md states them. */
#define _GNU_SOURCE
#include "snapshot/clock.h"
#include "admission/admission.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct gov_governor {
    pthread_mutex_t lock;
    pthread_cond_t changed;      /* CLOCK_MONOTONIC; signalled on generation bumps */
    gov_clock_fn clock;
    void *clock_arg;
    uint64_t first_id;
    uint64_t next_id;
    bool ids_exhausted;          /* UINT64_MAX was issued */
    uint64_t io_slots;
    gov_policy policy;
    gov_usage usage;
    gov_held_table held;
    gov_history_table history;
    gov_pressure_sm pressure;
    uint64_t generation;
    unsigned waiters;            /* threads in wait_for_change */
    /* gov_governor_follow_triggers(): the thread that sleeps on the
     * triggers' files, and the pipe that stops it. */
    gov_pressure_triggers *triggers;
    pthread_t follower;
    int stop[2];
    uint64_t triggers_fired;
};

static uint64_t default_clock(void *arg)
{
    (void)arg;
    return gov__monotonic_ns();
}

static void bump(gov_governor *gov)
{
    gov->generation++;
    /* Skip the broadcast when nobody waits: it is the hot path. */
    if (gov->waiters)
        pthread_cond_broadcast(&gov->changed);
}

int gov_governor_create(const gov_governor_options *opts, gov_governor **out)
{
    gov_governor_options o = opts ? *opts : (gov_governor_options){ 0 };
    pthread_condattr_t attr;
    gov_governor *gov;
    int rc;

    if (!out)
        return GOV_EINVAL;
    *out = NULL;
    gov = calloc(1, sizeof *gov);
    if (!gov)
        return GOV_ENOMEM;
    gov->clock = o.clock ? o.clock : default_clock;
    gov->clock_arg = o.clock_arg;
    gov->first_id = gov->next_id = o.first_reservation_id ? o.first_reservation_id : 1;
    gov->io_slots = o.io_slots ? o.io_slots : GOV_DEFAULT_IO_SLOTS;
    gov->policy = (gov_policy){ .mem_reserve_bytes = GOV_UNKNOWN,
                                .cpu_reserve_threads = GOV_UNKNOWN };
    gov__pressure_init(&gov->pressure);
    gov__pressure_note_batch_max(&gov->pressure, o.max_batch);

    rc = gov__held_init(&gov->held);
    if (rc == 0)
        rc = gov__history_init(&gov->history,
                               o.max_classes ? o.max_classes : GOV_DEFAULT_MAX_CLASSES);
    if (rc == 0) {
        pthread_mutexattr_t mattr;

        /* Spin briefly before sleeping: critical sections are tens of ns,
         * far shorter than a futex sleep and wake. */
        if (pthread_mutexattr_init(&mattr) != 0 ||
            pthread_mutexattr_settype(&mattr, PTHREAD_MUTEX_ADAPTIVE_NP) != 0 ||
            pthread_mutex_init(&gov->lock, &mattr) != 0)
            rc = GOV_ENOMEM;
        pthread_mutexattr_destroy(&mattr);
    }
    if (rc == 0) {
        if (pthread_condattr_init(&attr) != 0 ||
            pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) != 0 ||
            pthread_cond_init(&gov->changed, &attr) != 0) {
            pthread_mutex_destroy(&gov->lock);
            rc = GOV_ENOMEM;
        }
        pthread_condattr_destroy(&attr);
    }
    if (rc != 0) {
        gov__history_free(&gov->history);
        gov__held_free(&gov->held);
        free(gov);
        return rc;
    }
    *out = gov;
    return 0;
}

void gov_governor_destroy(gov_governor *gov)
{
    if (!gov)
        return;
    if (gov->triggers) {
        /* A byte on the pipe wakes the follower's poll(2). */
        while (write(gov->stop[1], "", 1) < 0 && errno == EINTR)
            ;
        pthread_join(gov->follower, NULL);
        close(gov->stop[0]);
        close(gov->stop[1]);
    }
    pthread_cond_destroy(&gov->changed);
    pthread_mutex_destroy(&gov->lock);
    gov__history_free(&gov->history);
    gov__held_free(&gov->held);
    free(gov);
}

int gov_governor_set_policy(gov_governor *gov, const gov_policy *policy)
{
    if (!gov || !policy || policy->mem_reserve_pct > 100 || policy->cpu_reserve_pct > 100 ||
        (policy->profile_set && policy->profile != GOV_PROFILE_BATCH &&
         policy->profile != GOV_PROFILE_INTERACTIVE))
        return GOV_EINVAL;
    pthread_mutex_lock(&gov->lock);
    gov->policy = *policy;
    bump(gov);
    pthread_mutex_unlock(&gov->lock);
    return 0;
}

static bool estimate_ok(const gov_estimate *est)
{
    return est->batch_min >= 1 && est->batch_min <= est->batch_max;
}

/* Snapshot validity against the governor clock: age 0..1000 ms inclusive. */
static gov_reason snapshot_reason(const gov_snapshot *snap, uint64_t now)
{
    if (snap->captured_ns > now)
        return GOV_REASON_FUTURE_SNAPSHOT;
    if (now - snap->captured_ns > GOV_SNAPSHOT_MAX_AGE_NS)
        return GOV_REASON_STALE_SNAPSHOT;
    return GOV_REASON_NONE;
}

enum govern_mode { DECIDE_ONLY, RESERVE };

/* decide, reserve and reserve_available: one pass under the lock, so what
 * is decided is what is reserved.  want = 0 asks for the largest batch. */
static int govern(gov_governor *gov, const gov_snapshot *snap, const gov_estimate *est,
                  uint64_t want, enum govern_mode mode, gov_decision *out,
                  gov_reservation *res)
{
    gov_budget budget;
    gov_reason stale;
    uint64_t now;
    bool changed;
    int rc = 0;

    if (!gov || !snap || !est || !out || (mode == RESERVE && !res) || !estimate_ok(est) ||
        (want && (want < est->batch_min || want > est->batch_max)))
        return GOV_EINVAL;
    if (res)
        res->id = 0;
    /* Up to the reserved words, which no one reads (governor.h, "ABI"):
     * zeroing all 128 bytes took a rep stos, 10 % of a decision. */
    memset(out, 0, offsetof(gov_decision, reserved));
    now = gov->clock(gov->clock_arg);

    pthread_mutex_lock(&gov->lock);
    if (mode == RESERVE) {
        if (gov->ids_exhausted) {
            rc = GOV_EOVERFLOW;
            goto unlock;
        }
        rc = gov__held_reserve_room(&gov->held);
        if (rc != 0)
            goto unlock;
    }
    stale = snapshot_reason(snap, now);
    if (stale != GOV_REASON_NONE) {
        out->verdict = GOV_WAIT;
        out->reason = stale;
        out->bytes_per_item = gov__history_per_item(&gov->history, est);
        out->ram_needed_bytes = gov__batch_bytes(est->fixed_bytes, out->bytes_per_item,
                                                 want ? want : est->batch_min);
        out->ram_free_bytes = GOV_UNKNOWN;
    } else {
        gov__pressure_note_batch_max(&gov->pressure, est->batch_max);
        gov__budget_compute(snap, &gov->policy, gov->io_slots, &budget);
        changed = gov__pressure_observe(&gov->pressure, snap, &budget);
        gov__budget_decide(&budget, &gov->usage, snap, est,
                           gov__history_per_item(&gov->history, est),
                           gov->pressure.ceiling, want, out);
        if (mode == RESERVE && out->verdict == GOV_ADMIT) {
            gov_held h = {
                .id = gov->next_id,
                .ram_bytes = out->ram_bytes,
                .gpu_bytes = est->gpu_slots && !budget.gpu_unified ? out->ram_bytes : 0,
                .threads = out->threads,
                .io_slots = est->io_slots,
                .gpu_slots = est->gpu_slots,
            };
            gov__held_insert(&gov->held, &h);
            gov->usage.ram_bytes += h.ram_bytes;
            gov->usage.gpu_bytes += h.gpu_bytes;
            gov->usage.threads += h.threads;
            gov->usage.io_slots += h.io_slots;
            gov->usage.gpu_slots += h.gpu_slots;
            gov->usage.count++;
            res->id = h.id;
            if (h.id == UINT64_MAX)
                gov->ids_exhausted = true;
            else
                gov->next_id++;
            changed = true;
        }
        if (changed)
            bump(gov);
    }
    out->pressure = gov->pressure.level;
    out->ceiling = gov->pressure.ceiling;
    out->ceiling_reason = gov__pressure_ceiling_reason(&gov->pressure);
unlock:
    pthread_mutex_unlock(&gov->lock);
    return rc;
}

int gov_governor_decide(gov_governor *gov, const gov_snapshot *snap,
                        const gov_estimate *est, gov_decision *out)
{
    return govern(gov, snap, est, 0, DECIDE_ONLY, out, NULL);
}

int gov_governor_reserve(gov_governor *gov, const gov_snapshot *snap,
                         const gov_estimate *est, uint64_t items,
                         gov_decision *out, gov_reservation *res)
{
    if (items == 0)
        return GOV_EINVAL;
    return govern(gov, snap, est, items, RESERVE, out, res);
}

int gov_governor_reserve_available(gov_governor *gov, const gov_snapshot *snap,
                                   const gov_estimate *est, gov_decision *out,
                                   gov_reservation *res)
{
    return govern(gov, snap, est, 0, RESERVE, out, res);
}

static bool issued(const gov_governor *gov, uint64_t id)
{
    return id != 0 && id >= gov->first_id && (gov->ids_exhausted || id < gov->next_id);
}

int gov_governor_release(gov_governor *gov, gov_reservation res)
{
    gov_held h;
    int rc = 0;

    if (!gov)
        return GOV_EINVAL;
    pthread_mutex_lock(&gov->lock);
    if (gov__held_remove(&gov->held, res.id, &h)) {
        gov->usage.ram_bytes -= h.ram_bytes;
        gov->usage.gpu_bytes -= h.gpu_bytes;
        gov->usage.threads -= h.threads;
        gov->usage.io_slots -= h.io_slots;
        gov->usage.gpu_slots -= h.gpu_slots;
        gov->usage.count--;
        bump(gov);
    } else {
        rc = issued(gov, res.id) ? GOV_EALREADY : GOV_EINVAL;
    }
    pthread_mutex_unlock(&gov->lock);
    return rc;
}

int gov_governor_reservation_is_valid(gov_governor *gov, gov_reservation res)
{
    int valid;

    if (!gov)
        return 0;
    pthread_mutex_lock(&gov->lock);
    valid = gov__held_contains(&gov->held, res.id);
    pthread_mutex_unlock(&gov->lock);
    return valid;
}

int gov_governor_availability(gov_governor *gov, const gov_snapshot *snap,
                              gov_availability *out)
{
    gov_budget b;
    uint64_t now;

    if (!gov || !snap || !out)
        return GOV_EINVAL;
    now = gov->clock(gov->clock_arg);
    pthread_mutex_lock(&gov->lock);
    gov__budget_compute(snap, &gov->policy, gov->io_slots, &b);
    *out = (gov_availability){
        .snapshot_valid = snapshot_reason(snap, now) == GOV_REASON_NONE,
        .profile = b.profile,
        .detected_ram_bytes = b.detected_ram,
        .detected_threads = b.detected_threads,
        .ram_bytes = gov__budget_free_ram(&b, &gov->usage),
        .ram_reserve_bytes = b.ram_reserve,
        .ram_reserved_bytes = gov->usage.ram_bytes,
        .threads = gov__budget_free_threads(&b, &gov->usage),
        .threads_reserve = b.thread_reserve,
        .threads_reserved = gov->usage.threads,
        .io_slots = b.io_capacity > gov->usage.io_slots ? b.io_capacity - gov->usage.io_slots : 0,
        .io_reserved = gov->usage.io_slots,
        .gpu_slots = b.gpu_capacity > gov->usage.gpu_slots
            ? b.gpu_capacity - gov->usage.gpu_slots : 0,
        .gpu_free_bytes = gov__budget_free_gpu_bytes(&b, &gov->usage),
        .active_reservations = gov->usage.count,
        .pressure = gov->pressure.level,
        .ceiling = gov->pressure.ceiling,
        .generation = gov->generation,
    };
    pthread_mutex_unlock(&gov->lock);
    return 0;
}

int gov_governor_record_batch(gov_governor *gov, uint32_t task_class,
                              const gov_batch_record *rec)
{
    int rc;

    if (!gov || !rec)
        return GOV_EINVAL;
    pthread_mutex_lock(&gov->lock);
    rc = gov__history_record(&gov->history, task_class, rec);
    if (rc == 0)
        bump(gov);
    pthread_mutex_unlock(&gov->lock);
    return rc;
}

uint64_t gov_governor_generation(gov_governor *gov)
{
    uint64_t g;

    if (!gov)
        return 0;
    pthread_mutex_lock(&gov->lock);
    g = gov->generation;
    pthread_mutex_unlock(&gov->lock);
    return g;
}

int gov_governor_wait_for_change(gov_governor *gov, uint64_t seen,
                                 uint64_t timeout_ms, uint64_t *now_gen)
{
    struct timespec deadline;
    uint64_t secs;
    int rc = 0;

    if (!gov)
        return GOV_EINVAL;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    /* Cap at about 136 years so the addition cannot overflow time_t. */
    secs = timeout_ms / 1000 > (uint64_t)UINT32_MAX ? UINT32_MAX : timeout_ms / 1000;
    deadline.tv_sec += (time_t)secs;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&gov->lock);
    gov->waiters++;
    while (gov->generation == seen && rc == 0)
        if (pthread_cond_timedwait(&gov->changed, &gov->lock, &deadline) == ETIMEDOUT)
            rc = GOV_ETIMEDOUT;
    gov->waiters--;
    if (gov->generation != seen)
        rc = 0;
    if (now_gen)
        *now_gen = gov->generation;
    pthread_mutex_unlock(&gov->lock);
    return rc;
}

/* The follower: each firing counts and wakes the waiters; it ends at the
 * stop byte, or when a file polls an error (the cgroup is gone). */
static void *follow(void *arg)
{
    gov_governor *gov = arg;
    struct pollfd fds[GOV_PRESSURE_KINDS + 1];
    unsigned kind[GOV_PRESSURE_KINDS], fired;
    size_t n = gov__triggers_pollfds(gov->triggers, fds, kind);

    fds[n] = (struct pollfd){ .fd = gov->stop[0], .events = POLLIN };
    for (;;) {
        if (poll(fds, n + 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (fds[n].revents || gov__triggers_fired(fds, kind, n, &fired))
            break;
        if (!fired)
            continue;
        pthread_mutex_lock(&gov->lock);
        gov->triggers_fired++;
        bump(gov);
        pthread_mutex_unlock(&gov->lock);
    }
    return NULL;
}

int gov_governor_follow_triggers(gov_governor *gov, gov_pressure_triggers *t)
{
    int rc = 0;

    if (!gov || !gov_pressure_triggers_kinds(t))
        return GOV_EINVAL;
    pthread_mutex_lock(&gov->lock);
    if (gov->triggers) {
        rc = GOV_EALREADY;
    } else if (pipe2(gov->stop, O_CLOEXEC)) {
        rc = GOV_ENOMEM;
    } else {
        gov->triggers = t;
        if (pthread_create(&gov->follower, NULL, follow, gov)) {
            gov->triggers = NULL;
            close(gov->stop[0]);
            close(gov->stop[1]);
            rc = GOV_ENOMEM;
        }
    }
    pthread_mutex_unlock(&gov->lock);
    return rc;
}

int gov_governor_pressure(gov_governor *gov, const gov_snapshot *snap,
                          gov_pressure_state *out)
{
    gov_budget b;
    uint64_t now;

    if (!gov || !out)
        return GOV_EINVAL;
    now = snap ? gov->clock(gov->clock_arg) : 0;
    pthread_mutex_lock(&gov->lock);
    if (snap && snapshot_reason(snap, now) == GOV_REASON_NONE) {
        gov__budget_compute(snap, &gov->policy, gov->io_slots, &b);
        if (gov__pressure_observe(&gov->pressure, snap, &b))
            bump(gov);
    }
    *out = (gov_pressure_state){
        .level = gov->pressure.level,
        .ceiling = gov->pressure.ceiling,
        .ceiling_reason = gov__pressure_ceiling_reason(&gov->pressure),
        .healthy_streak = gov->pressure.healthy_streak,
        .swap_streak = gov->pressure.swap_streak,
        .observations = gov->pressure.observations,
        .triggers_fired = gov->triggers_fired,
    };
    pthread_mutex_unlock(&gov->lock);
    return 0;
}
