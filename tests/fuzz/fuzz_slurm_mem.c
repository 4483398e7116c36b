/* Fuzz the Slurm memory quantity parser: never crash; a result is a whole
 * number of KiB. */
#include "evidence.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t bytes;

    if (gov_slurm_parse_mem((const char *)data, size, &bytes) == 0 && bytes % 1024)
        abort();
    return 0;
}
