/* Fuzz the PSI reader (evidence.h), lenient and strict: never crash; every
 * average is NaN or a percentage; lenient succeeds exactly when an average
 * was read, strict only with a "some" total. */
#include "evidence.h"

#include "governor.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int percent_or_nan(double v)
{
    return isnan(v) || (v >= 0 && v <= 100);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gov_psi p;
    int rc = gov__psi_parse((const char *)data, size, 0, &p);

    if (!percent_or_nan(p.some_avg10) || !percent_or_nan(p.full_avg10))
        abort();
    if ((rc == 0) != (!isnan(p.some_avg10) || !isnan(p.full_avg10)))
        abort();
    if (gov__psi_parse((const char *)data, size, GOV_PSI_STRICT, &p) == 0 &&
        p.some_total_us == GOV_UNKNOWN)
        abort();
    return 0;
}
