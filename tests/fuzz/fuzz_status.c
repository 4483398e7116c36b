/* Fuzz the Cpus_allowed_list lookup in /proc/PID/status: never crash; a
 * parsed set formats to a list that parses back to the same set. */
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gov_cpuset a, b;
    static char buf[GOV_CPUSET_BITS * 6];
    int n;

    if (gov__status_parse_cpus_allowed((const char *)data, size, &a) != 0) {
        if (gov_cpuset_count(&a) != 0)
            abort();
        return 0;
    }
    n = gov_cpuset_format(&a, buf, sizeof buf);
    if (n < 0 || gov_cpuset_parse(buf, (size_t)n, &b) != 0 || memcmp(&a, &b, sizeof a))
        abort();
    return 0;
}
