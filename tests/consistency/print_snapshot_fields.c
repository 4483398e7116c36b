/* print_snapshot_fields - print the JSON path of every field the snapshot prints
 * (core/snapshot/snapshot_fields.c), one per line, as docs/snapshot.md writes them:
 * ".memory.cgroup.limit_bytes".  For test_snapshot_fields.sh. */
#include "snapshot_base.h"

#include <stdio.h>

int main(void)
{
    size_t n;
    const gov_field *f = gov__snapshot_fields(&n);

    for (size_t i = 0; i < n; i++)
        if (!f[i].hidden && f[i].kind != GOV_FIELD_SECTION)
            printf(".%s\n", f[i].path);
    return 0;
}
