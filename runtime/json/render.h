/* render.h - every JSON schema the project prints, rendered here and
 * nowhere else, on the writer of json.h; the tool only prints what a
 * renderer returns.  Each renderer writes one object on one line into *out
 * (malloc'd, the caller frees it; *len its length unless len is NULL) and
 * returns 0, or GOV_ENOMEM.  governor.snapshot/1 is public API:
 * gov_snapshot_json() in governor.h, rendered by snapshot_json.c. */
#ifndef GOV_JSON_RENDER_H
#define GOV_JSON_RENDER_H

#include "governor.h"
#include "doctor/doctor.h"

#include <stddef.h>

#define GOV_PLAN_SCHEMA "governor.plan/1"
#define GOV_RUN_SCHEMA "governor.run/1"
#define GOV_WATCH_SCHEMA "governor.watch/1"
#define GOV_VERIFY_SCHEMA "governor.verify/1"
#define GOV_DOCTOR_SCHEMA "governor.doctor/1"

/* `governor plan --json`: the snapshot's capacity and binding layers, then
 * the plan's figures. */
int gov__plan_json(const gov_snapshot *s, const gov_plan *p, char **out, size_t *len);

/* `governor run --dry-run --json`: plan/1's head, the command's plan and
 * its pool's, the affinity, and every variable's decision. */
int gov__run_json(const gov_snapshot *s, const gov_runenv *env, char **out, size_t *len);

/* One line of `governor watch --json`, elapsed_ms since watch began; gate
 * is the PSI gate that holds new work (GOV_REASON_NONE: none); fired the
 * GOV_TRIGGER_* bits whose firing woke this line (0: the interval). */
int gov__watch_json(uint64_t elapsed_ms, const gov_snapshot *s, const gov_pressure_state *ps,
                    const gov_availability *a, gov_reason gate, unsigned fired, char **out,
                    size_t *len);

/* The GOV_TRIGGER_* bits as "memory,cpu,io" (a subset, in that order);
 * "" for none. */
const char *gov__trigger_names(unsigned bits, char *buf, size_t cap);

/* `governor verify --json`: the descriptor's status, reason and age. */
int gov__verify_json(const gov_snapshot_descriptor *d, char **out, size_t *len);

/* `governor doctor --json`: the findings and the exit status. */
int gov__doctor_json(const gov_doctor_report *rep, char **out, size_t *len);

#endif
