/* Fuzz the topology table parser (the cache file slurmstepd reads): never
 * crash; what parses encodes back to the same text, and summarises. */
#include "topology.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gov_topo_table *t = malloc(sizeof *t);
    char *text = malloc(GOV_TOPO_MAX_BYTES);
    gov_cpuset all;
    gov_desc_topology s;
    int n;

    if (!t || !text)
        abort();
    if (gov_topo_parse((const char *)data, size, t) == 0) {
        n = gov_topo_encode(t, text, GOV_TOPO_MAX_BYTES);
        if (n < 0 || (size_t)n != size || memcmp(text, data, size))
            abort();
        memset(&all, 0xff, sizeof all);
        gov_topo_summarise(t, &all, &s);
        if (!s.present || s.cores != t->cores || s.pus < s.cores)
            abort();
    }
    free(t);
    free(text);
    return 0;
}
