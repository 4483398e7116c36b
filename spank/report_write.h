/*
 * report_write.h - a step report's record written to the site's file
 * (report_write.c): the one way a record reaches it, from the step's end
 * (report_gather.c) and from the job's epilog for a step whose slurmstepd
 * was lost (step_recovery.c).
 */
#ifndef GOV_SPANK_REPORT_WRITE_H
#define GOV_SPANK_REPORT_WRITE_H

#include "parse.h"
#include "step_report.h"

/* Judge rec (report_min_s) and append it to the site's report file; a
 * failure is logged for the site, and the step is not affected. */
void gov__report_write(const gov_spank_policy *site, gov_step_record *rec);

#endif /* GOV_SPANK_REPORT_WRITE_H */
