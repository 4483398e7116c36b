/* Fuzz the per-file cgroup parsers (cpu.max, memory.max/high, v1
 * limit_in_bytes, memory.stat): never crash; success gives exactly one of a
 * finite value or "unlimited", and failure never says "unlimited"; a
 * memory.stat value lies inside the text, on a complete line. */
#include "evidence.h"
#include "base.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const stat_keys[] = {
    "inactive_file", "total_inactive_file", "hierarchical_memory_limit",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    double ratio;
    uint64_t bytes;
    bool unl;
    int rc;

    rc = gov__parse_cpu_max(text, size, &ratio, &unl);
    if (rc == 0 ? (unl == !isnan(ratio) || (!unl && !(ratio > 0))) : (unl || !isnan(ratio)))
        abort();

    rc = gov__parse_memory_value(text, size, &bytes, &unl);
    if (rc == 0 ? (unl != (bytes == GOV_UNKNOWN)) : (unl || bytes != GOV_UNKNOWN))
        abort();

    rc = gov__parse_v1_limit(text, size, &bytes, &unl);
    if (rc == 0 ? (unl != (bytes == GOV_UNKNOWN)) : (unl || bytes != GOV_UNKNOWN))
        abort();

    for (size_t k = 0; k < sizeof stat_keys / sizeof stat_keys[0]; k++) {
        const char *val;
        size_t vlen;
        if (gov__memory_stat_find(text, size, stat_keys[k], &val, &vlen) != 0)
            continue;
        if (val < text || val + vlen >= text + size || val[vlen] != '\n')
            abort();
        (void)gov__parse_u64(val, vlen, &bytes);
    }
    return 0;
}
