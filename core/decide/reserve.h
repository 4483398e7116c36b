/* reserve.h - what the profile in force and the reserves keep back from
 * a step's budget (docs/governor.md, "Budget" and "Profiles").  The planner
 * and the governor both start from it, so that `governor plan`, `governor
 * run` and `governor watch` keep the same back. */
#ifndef GOV_RESERVE_H
#define GOV_RESERVE_H

#include "governor.h"

typedef struct gov_reserve {
    gov_profile profile;       /* the profile in force */
    uint64_t detected_ram;     /* min(physical, effective limit); GOV_UNKNOWN */
    uint64_t detected_threads; /* effective workers, else host PUs; GOV_UNKNOWN */
    uint64_t ram;              /* bytes kept back (0 when detected is unknown) */
    uint64_t threads;          /* threads kept back */
} gov_reserve;

/* The smaller of two bounds where both are known, else the known one;
 * GOV_UNKNOWN when neither is. */
uint64_t gov__min_known(uint64_t a, uint64_t b);

/* The site's profile and reserves from snap->policy, tightened by the
 * caller's (NULL: none).  Never fails. */
void gov__reserve_compute(const gov_snapshot *snap, const gov_policy *caller,
                          gov_reserve *out);

#endif
