/* Fuzz the PSI parser: never crash; every figure is NaN or a percentage. */
#include "collect/collect.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int percent_or_nan(double v)
{
    return isnan(v) || (v >= 0 && v <= 100);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double some, full;
    int rc = gov_psi_parse((const char *)data, size, &some, &full);

    if (!percent_or_nan(some) || !percent_or_nan(full))
        abort();
    if ((rc == 0) != (!isnan(some) || !isnan(full)))
        abort();
    return 0;
}
