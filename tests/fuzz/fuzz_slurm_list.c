/* Fuzz the compressed Slurm count list ("1(x2),4"): never crash; a uniform
 * answer agrees with every index; values stay within the parser's bound. */
#include "evidence.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    uint64_t uniform, v;
    int rc_uniform = gov_slurm_list_resolve(text, size, GOV_UNKNOWN, &uniform);

    for (uint64_t i = 0; i < 8; i++) {
        int rc = gov_slurm_list_resolve(text, size, i, &v);
        if (rc == 0 && v > 1000000)
            abort();
        if (rc == 0 && rc_uniform == 0 && v != uniform)
            abort();
        if (rc == GOV_ENOENT)
            abort(); /* only the no-index query may say "not uniform" */
        if (i == 0 && rc_uniform == 0 && rc != 0)
            abort();
    }
    return 0;
}
