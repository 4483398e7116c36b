/* pressure_follow.c - libgovernor's governor following the pressure
 * triggers a step's task was handed (gov_governor_follow_triggers), run
 * in a Slurm step: waits for a change of the governor's generation and
 * prints one line, exit 0:
 *   "woken by a trigger after S s (fired N)"
 *   "not woken within S s"
 *   "no triggers: ERROR" (or "none handed")
 * usage: pressure_follow SECONDS */
#include "governor.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    gov_pressure_triggers *t = NULL;
    gov_governor *gov = NULL;
    gov_pressure_state ps;
    struct timespec a, b;
    char *end;
    unsigned long secs;
    int rc;

    if (argc != 2 || !(secs = strtoul(argv[1], &end, 10)) || *end) {
        fprintf(stderr, "usage: pressure_follow SECONDS\n");
        return 2;
    }
    rc = gov_pressure_triggers_open(&t);
    if (rc || !gov_pressure_triggers_kinds(t)) {
        printf("no triggers: %s\n", rc ? gov_strerror(rc) : "none handed");
        gov_pressure_triggers_close(t);
        return 0;
    }
    rc = gov_governor_create(NULL, &gov);
    if (!rc)
        rc = gov_governor_follow_triggers(gov, t);
    if (rc) {
        fprintf(stderr, "pressure_follow: %s\n", gov_strerror(rc));
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    rc = gov_governor_wait_for_change(gov, gov_governor_generation(gov), secs * 1000u, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    gov_governor_pressure(gov, NULL, &ps);
    if (rc == 0)
        printf("woken by a trigger after %.1f s (fired %llu)\n",
               (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
               (unsigned long long)ps.triggers_fired);
    else
        printf("not woken within %lu s\n", secs);
    gov_governor_destroy(gov);
    gov_pressure_triggers_close(t);
    return 0;
}
