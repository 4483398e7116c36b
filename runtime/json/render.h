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

#define GOV_DOCTOR_SCHEMA "governor.doctor/1"

/* `governor doctor --json`: the findings and the exit status. */
int gov_doctor_json(const gov_doctor_report *rep, char **out, size_t *len);

#endif
