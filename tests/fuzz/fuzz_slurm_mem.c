/* Fuzz the Slurm memory quantity parser: never crash, and every accepted
 * value equals digits x unit computed in 128 bits (so nothing wraps). */
#include "evidence.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned __int128 v = 0, unit = (unsigned __int128)1 << 20;
    uint64_t bytes;
    size_t i = 0;

    if (gov__slurm_parse_mem((const char *)data, size, &bytes) != 0)
        return 0;
    for (; i < size && data[i] >= '0' && data[i] <= '9'; i++) {
        v = v * 10 + (data[i] - '0');
        if (v > UINT64_MAX)
            abort(); /* accepted a number that cannot fit */
    }
    if (i < size) {
        switch (data[i]) {
        case 'K': case 'k': unit = (unsigned __int128)1 << 10; break;
        case 'G': case 'g': unit = (unsigned __int128)1 << 30; break;
        case 'T': case 't': unit = (unsigned __int128)1 << 40; break;
        default: break;
        }
    }
    if (v * unit != bytes)
        abort();
    return 0;
}
