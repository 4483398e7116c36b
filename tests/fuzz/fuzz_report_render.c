/* Fuzz `governor report`'s path from records to output: the lines of the
 * input that the reader accepts are grouped into steps with their totals,
 * sorted (by the key the input's length picks) and rendered; never crash,
 * and the --json outputs, of the steps, --by user and --by job, are always one valid
 * JSON document each (parsed back by the project's strict RFC 8259 reader,
 * json_read.c), whatever figures the accepted records hold. */
#define _GNU_SOURCE /* open_memstream */
#include "base.h"
#include "report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS 64
/* Every record and total is about 25 leaves. */
#define MAX_LEAVES (2 * MAX_RECORDS * 40)

static gov_json_leaf leaves[MAX_LEAVES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gov_step_record v[MAX_RECORDS];
    gov_report_step steps[MAX_RECORDS];
    const char *p = (const char *)data, *end = p + size;
    size_t n = 0, nsteps, duplicates = 0, len = 0;
    gov_report_sort key = (gov_report_sort)(size % GOV_REPORT_SORT_COUNT);
    char *out = NULL;
    FILE *f;
    int rc;

    while (p < end && n < MAX_RECORDS) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = (size_t)((nl ? nl : end) - p);
        if (l < GOV_REPORT_LINE_MAX && gov__step_record_decode(p, l, &v[n]) == 0)
            n++;
        p += l + (nl != NULL);
    }
    nsteps = gov__report_group(v, &n, steps, &duplicates);
    gov__report_sort(steps, nsteps, key);
    for (int by = -1; by <= GOV_REPORT_BY_JOB; by++) {
        f = open_memstream(&out, &len);
        if (!f)
            return 0;
        rc = by >= 0 ? gov__report_groups(f, steps, nsteps, (gov_report_by)by, false, key, true)
                     : gov__report_json(f, steps, nsteps);
        fclose(f);
        if (rc || gov__json_leaves(out, len, leaves, MAX_LEAVES) < 0)
            abort();
        free(out);
    }
    f = open_memstream(&out, &len);
    if (!f)
        return 0;
    gov__report_prometheus(f, steps, nsteps);
    gov__report_table(f, steps, nsteps, false);
    gov__report_advice(f, steps, nsteps);
    gov__report_groups(f, steps, nsteps, GOV_REPORT_BY_USER, false, GOV_REPORT_SORT_JOB, false);
    gov__report_groups(f, steps, nsteps, GOV_REPORT_BY_JOB, false, key, false);
    fclose(f);
    free(out);
    return 0;
}
