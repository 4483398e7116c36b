/*
 * admission.h - the parts of the runtime governor (admission.c locks
 * and dispatches; the others are plain functions on plain state, called with
 * the governor's lock held, so each is testable through the public API).
 */
#ifndef GOV_ADMISSION_H
#define GOV_ADMISSION_H

#include "governor.h"
#include "evidence.h"

#include <poll.h>
#include <stdbool.h>

/* ---- budget (admission_budget.c) ----------------------------------------- */

/* Resources held by active reservations. */
typedef struct gov_usage {
    uint64_t ram_bytes;
    uint64_t gpu_bytes;      /* on a discrete card only */
    uint64_t threads;
    uint64_t io_slots;
    uint64_t gpu_slots;
    uint64_t count;
} gov_usage;

/* What the snapshot and the policies allow, before subtracting usage. */
typedef struct gov_budget {
    gov_profile profile;
    uint64_t detected_ram;   /* GOV_UNKNOWN when no bound is known */
    uint64_t detected_threads;
    uint64_t observed_free;  /* min(MemAvailable, physical, remaining) */
    uint64_t ram_reserve;
    uint64_t thread_reserve;
    uint64_t ram_capacity;   /* min(physical, effective limit) - reserve */
    uint64_t thread_capacity;
    uint64_t io_capacity;
    uint64_t gpu_capacity;   /* 0 or 1 */
    bool gpu_unified;
    uint64_t gpu_total;      /* discrete card: total bytes, GOV_UNKNOWN */
    uint64_t gpu_used;       /* discrete card: used bytes, GOV_UNKNOWN */
} gov_budget;

void gov__budget_compute(const gov_snapshot *snap, const gov_policy *caller,
                         uint64_t io_slots, gov_budget *out);

/* Free amounts now: never negative; GOV_UNKNOWN when no bound is known. */
uint64_t gov__budget_free_ram(const gov_budget *b, const gov_usage *u);
uint64_t gov__budget_free_threads(const gov_budget *b, const gov_usage *u);
uint64_t gov__budget_free_gpu_bytes(const gov_budget *b, const gov_usage *u);

/* Bytes of a batch of n items at per_item bytes each; UINT64_MAX on overflow. */
uint64_t gov__batch_bytes(uint64_t fixed, uint64_t per_item, uint64_t n);

/* The admission rules after snapshot validity and observation: fills
 * verdict, reason, batch, threads, ram_bytes.  want = 0 asks for the largest
 * batch that fits, else exactly want items. */
void gov__budget_decide(const gov_budget *b, const gov_usage *u,
                        const gov_snapshot *snap, const gov_estimate *est,
                        uint64_t per_item, uint64_t ceiling, uint64_t want,
                        gov_decision *out);

/* ---- pressure state machine (admission_pressure.c) ------------------------ */

typedef struct gov_pressure_sm {
    gov_pressure_level level;
    uint64_t ceiling;
    uint64_t largest_batch;  /* largest batch_max any class asked for */
    uint32_t step;           /* healthy observations in the current group */
    uint32_t healthy_streak;
    uint32_t swap_streak;
    uint64_t observations;
    bool have_last;
    bool last_ram_unknown;   /* the last observation knew no RAM bound */
    bool last_gated;         /* the last observation's PSI held new admissions */
    uint64_t last_ns;        /* captured_ns of the last observation */
    uint64_t last_swap;      /* pswpin + pswpout then, GOV_UNKNOWN */
} gov_pressure_sm;

void gov__pressure_init(gov_pressure_sm *sm);

/* Whether the snapshot's PSI holds new admissions (GOV_PSI_CPU_GATE_PCT,
 * GOV_PSI_MEMORY_GATE_PCT); unknown PSI holds nothing. */
bool gov__psi_gate_closed(const gov_snapshot *snap);

/* Feed one valid snapshot.  Returns true when level or ceiling changed.
 * Snapshots not newer than the last observation are ignored. */
bool gov__pressure_observe(gov_pressure_sm *sm, const gov_snapshot *snap,
                           const gov_budget *b);

/* Let the ceiling grow up to a class's batch_max. */
void gov__pressure_note_batch_max(gov_pressure_sm *sm, uint64_t batch_max);

/* Why the ceiling is where it is now. */
gov_ceiling_reason gov__pressure_ceiling_reason(const gov_pressure_sm *sm);

/* ---- history (admission_history.c) ---------------------------------------- */

typedef struct gov_history {
    uint32_t task_class;
    uint32_t count;          /* entries filled, <= GOV_HISTORY_LEN */
    uint32_t next;           /* ring slot the next record overwrites */
    gov_batch_record ring[GOV_HISTORY_LEN];
} gov_history;

typedef struct gov_history_table {
    gov_history *classes;
    uint32_t used, cap;
} gov_history_table;

int gov__history_init(gov_history_table *t, uint32_t cap);
void gov__history_free(gov_history_table *t);
int gov__history_record(gov_history_table *t, uint32_t task_class,
                        const gov_batch_record *rec);
/* Bytes per item to plan with: the estimate's, raised to the largest that
 * the class's known-peak records imply (never lowered). */
uint64_t gov__history_per_item(const gov_history_table *t, const gov_estimate *est);

/* ---- active reservations (admission_reservations.c) ----------------------- */

typedef struct gov_held {
    uint64_t id;             /* 0 = empty slot */
    uint64_t ram_bytes, gpu_bytes, threads, io_slots, gpu_slots;
} gov_held;

/* Open addressing with linear probing and backward-shift deletion. */
typedef struct gov_held_table {
    gov_held *slots;
    size_t cap, count;       /* cap a power of two */
} gov_held_table;

int gov__held_init(gov_held_table *t);
void gov__held_free(gov_held_table *t);
/* Make room for one more entry (may grow): 0 or GOV_ENOMEM. */
int gov__held_reserve_room(gov_held_table *t);
/* Insert (room must have been made). */
void gov__held_insert(gov_held_table *t, const gov_held *h);
/* Remove id into *out: true when it was present. */
bool gov__held_remove(gov_held_table *t, uint64_t id, gov_held *out);
bool gov__held_contains(const gov_held_table *t, uint64_t id);

/* ---- pressure triggers (admission_triggers.c) ----------------------------- */

/* t's open files as pollfds asking POLLPRI, kind[i] the GOV_TRIGGER_* bit
 * of fds[i] (both at least GOV_PRESSURE_KINDS long, evidence.h).
 * Returns the count. */
size_t gov__triggers_pollfds(const gov_pressure_triggers *t, struct pollfd *fds,
                             unsigned *kind);

/* After poll(2): *fired gets the bits whose file polled POLLPRI.  Returns 0,
 * or -ENODEV when a file polled an error (its cgroup is gone). */
int gov__triggers_fired(const struct pollfd *fds, const unsigned *kind, size_t n,
                        unsigned *fired);

#endif
