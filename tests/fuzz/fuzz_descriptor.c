/* Fuzz the descriptor parser (and the /proc/PID/stat parser the binding
 * uses): never crash; an accepted descriptor of any version re-encodes, as
 * the current version, to text that parses back to the same descriptor but
 * for what that version no longer carries (the plugin's GPU check). */
#include "descriptor.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[GOV_DESC_MAX_BYTES + 1];
    gov_descriptor a, b;
    uint64_t ppid, start;
    int n;

    (void)gov__proc_stat_parse((const char *)data, size, &ppid, &start);
    if (gov__descriptor_parse((const char *)data, size, &a) != 0)
        return 0;
    n = gov__descriptor_encode(&a, buf, sizeof buf);
    if (n < 0)
        abort();
    a.version = GOV_DESC_VERSION;
    a.gpus_verified = false;
    a.gpus_usable = GOV_UNKNOWN;
    if (gov__descriptor_parse(buf, (size_t)n, &b) != 0 || memcmp(&a, &b, sizeof a) != 0)
        abort();
    return 0;
}
