/* report_write.c - a record judged, encoded and appended (report_write.h). */
#include "report_write.h"
#include "run_dir.h"

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include <string.h>

void gov__report_write(const gov_spank_policy *site, gov_step_record *rec)
{
    char line[GOV_REPORT_LINE_MAX];
    const char *why = "";
    int len, rc;

    gov__step_record_judge(rec, site->report_min_s);
    len = gov__step_record_encode(rec, line, sizeof line);
    if (len < 0) {
        slurm_error("governor: cannot encode the step report's record: %s", gov_strerror(len));
        return;
    }
    rc = gov__report_append(site->report_dir, line, (size_t)len, &why);
    if (rc)
        /* Every code here is an errno's (run_dir.c, report_file.c).  Info,
         * not error: slurmstepd forwards errors to the user's terminal,
         * and this is the site's to fix. */
        slurm_info("governor: no step report for this step: %s (%s); the step is not "
                   "affected, see the admin guide's step report section", why, strerror(-rc));
}
