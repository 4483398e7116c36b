/* Fuzz the /proc/meminfo parser: never crash; known figures are whole kB. */
#include "evidence.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t total, avail;
    int rc = gov__meminfo_parse((const char *)data, size, &total, &avail);

    if (rc != 0 && rc != GOV_ENOENT)
        abort();
    if ((total != GOV_UNKNOWN && total % 1024) || (avail != GOV_UNKNOWN && avail % 1024))
        abort();
    if (rc == GOV_ENOENT && (total != GOV_UNKNOWN || avail != GOV_UNKNOWN))
        abort();
    return 0;
}
