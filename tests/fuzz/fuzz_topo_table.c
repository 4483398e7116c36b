/* Fuzz the topology table parser (the cache file slurmstepd reads): never
 * crash; what parses encodes back to the same text, summarises, and
 * counts a mask of every PU as the whole node. */
#include "topo.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Static: the table is about 170 KiB and the text buffer 1 MiB, and a
 * fresh allocation of each per input (mmap'd under ASan) cost ten times
 * the parse itself. */
static gov_topo_table table;
static char encoded[GOV_TOPO_MAX_BYTES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gov_topo_table *t = &table;
    char *text = encoded;
    gov_cpuset all;
    gov_desc_topology s;
    gov_snapshot_topology task;
    int n;

    if (gov__topo_parse((const char *)data, size, t) == 0) {
        n = gov__topo_encode(t, text, GOV_TOPO_MAX_BYTES);
        if (n < 0 || (size_t)n != size || memcmp(text, data, size))
            abort();
        memset(&all, 0xff, sizeof all);
        gov__topo_summarise(t, &all, &s);
        if (!s.present || s.cores != t->cores || s.pus < s.cores)
            abort();
        memset(&task, 0, sizeof task);
        gov__topo_task(t, &all, GOV_CPUSET_BITS, &task);
        if (task.task.pus != gov_cpuset_count(&t->pus) || task.task.cores != t->cores ||
            task.task_whole_cores != t->cores || task.task.packages != t->n_packages ||
            task.task.numa_nodes != t->n_numa || task.task.pus != s.pus)
            abort();
    }
    return 0;
}
