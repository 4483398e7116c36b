/* Fuzz the step report's reader (a line of DIR/steps.jsonl, which
 * `governor report` reads): never crash; a line it accepts encodes again
 * (unless it holds a figure too large to write back) and reads back the same. */
#include "step_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || fabs(a - b) <= 0.0005 + fabs(a) * 1e-9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gov_step_record r, back;
    char line[GOV_REPORT_LINE_MAX];
    int len;

    if (gov__step_record_decode((const char *)data, size, &r))
        return 0;
    len = gov__step_record_encode(&r, line, sizeof line);
    if (len < 0)
        return 0;
    if (gov__step_record_decode(line, (size_t)len - 1, &back))
        abort();
    if (back.job != r.job || strcmp(back.node, r.node) || strcmp(back.step, r.step) ||
        back.findings != r.findings || back.memory_peak_bytes != r.memory_peak_bytes ||
        back.told_tasks != r.told_tasks || !same(back.elapsed_s, r.elapsed_s))
        abort();
    return 0;
}
