/*
 * psi.h - one reader of a PSI file (/proc/pressure/memory and the others, a cgroup v2
 * *.pressure): "some avg10=0.25 avg60=0.10 avg300=0.00 total=12" and, since
 * 5.13 for cpu too, a "full" line.  The snapshot reads the averages and
 * takes what it can; the step report reads the totals and takes a file
 * only whole (GOV_PSI_STRICT).
 */
#ifndef GOV_PSI_H
#define GOV_PSI_H

#include <stddef.h>
#include <stdint.h>

typedef struct gov_psi {
    double some_avg10, full_avg10;          /* percent; NaN when absent */
    uint64_t some_total_us, full_total_us;  /* GOV_UNKNOWN when absent */
} gov_psi;

/* Every line "some ..." or "full ...", each at most once, each with a
 * total=; and a "some" line. */
#define GOV_PSI_STRICT 0x1u

/* Parse text[0..len) under flags.  Without GOV_PSI_STRICT other lines are
 * skipped and a malformed field is absent; it fails only when no avg10 is
 * left.  On GOV_EPARSE *out holds what was read before the fault (every
 * field absent without a line).  Returns 0, GOV_EPARSE or GOV_EINVAL. */
int gov__psi_parse(const char *text, size_t len, unsigned flags, gov_psi *out);

#endif /* GOV_PSI_H */
