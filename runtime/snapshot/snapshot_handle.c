/* snapshot_handle.c - heap snapshots for bindings that must not depend on
 * the layout of gov_snapshot (the Python binding holds them opaquely). */
#include "base.h"

#include <stdlib.h>

int gov_snapshot_new(gov_snapshot **out)
{
    gov_snapshot *snap;

    if (!out)
        return GOV_EINVAL;
    *out = NULL;
    snap = malloc(sizeof *snap);
    if (!snap)
        return GOV_ENOMEM;
    gov_snapshot_init(snap);
    *out = snap;
    return 0;
}

void gov_snapshot_free(gov_snapshot *snap)
{
    free(snap);
}
