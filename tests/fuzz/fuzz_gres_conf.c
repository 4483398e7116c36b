/* fuzz_gres_conf - gres.conf, which the plugin reads in slurmstepd for a
 * GPU share's denominators (spank/parse/gres_conf.c): any text, any node
 * name, no crash and the counts within the GPUs it found. */
#include "parse.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gov_gres_node node;
    const char *text = (const char *)data;
    const char *nl = memchr(text, '\n', size);
    char name[64] = "node1";

    /* The first line, when short, is the node's name. */
    if (nl && (size_t)(nl - text) < sizeof name) {
        memcpy(name, text, (size_t)(nl - text));
        name[nl - text] = '\0';
    }
    gov__gres_conf_parse(text, size, name, &node);
    if (node.ngpus > GOV_GRES_GPUS_MAX)
        __builtin_trap();
    gov__hostlist_has(text, size, name);
    return 0;
}
