/* Fuzz the per-file cgroup parsers (cpu.max, memory.max/high, v1
 * limit_in_bytes): never crash; success gives exactly one of a finite value
 * or "unlimited", and failure never says "unlimited". */
#include "evidence.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    double ratio;
    uint64_t bytes;
    bool unl;
    int rc;

    rc = gov_parse_cpu_max(text, size, &ratio, &unl);
    if (rc == 0 ? (unl == !isnan(ratio) || (!unl && !(ratio > 0))) : (unl || !isnan(ratio)))
        abort();

    rc = gov_parse_memory_value(text, size, &bytes, &unl);
    if (rc == 0 ? (unl != (bytes == GOV_UNKNOWN)) : (unl || bytes != GOV_UNKNOWN))
        abort();

    rc = gov_parse_v1_limit(text, size, &bytes, &unl);
    if (rc == 0 ? (unl != (bytes == GOV_UNKNOWN)) : (unl || bytes != GOV_UNKNOWN))
        abort();
    return 0;
}
