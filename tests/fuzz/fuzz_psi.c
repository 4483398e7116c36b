/* Fuzz the PSI parsers: never crash; every average is NaN or a
 * percentage; the totals parse only with a "some" total. */
#include "collect/collect.h"
#include "step_report.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int percent_or_nan(double v)
{
    return isnan(v) || (v >= 0 && v <= 100);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double some, full;
    int rc = gov__psi_parse((const char *)data, size, &some, &full);

    if (!percent_or_nan(some) || !percent_or_nan(full))
        abort();
    if ((rc == 0) != (!isnan(some) || !isnan(full)))
        abort();
    uint64_t some_us, full_us;
    if (gov__psi_totals_parse((const char *)data, size, &some_us, &full_us) == 0 &&
        some_us == GOV_UNKNOWN)
        abort();
    return 0;
}
