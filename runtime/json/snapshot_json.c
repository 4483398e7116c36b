/* snapshot_json.c - the "governor.snapshot/1" rendering: the stable contract
 * of docs/snapshot.md, written from the field table (snapshot_base.h).
 * It writes counts and quantities only: never an id, a name, a path or an
 * environment value. */
#include "snapshot_base.h"
#include "base.h"

int gov_snapshot_json(const gov_snapshot *s, char **out, size_t *len)
{
    const gov_field *fields;
    size_t n;
    gov_jw w;

    if (!s || !out)
        return GOV_EINVAL;
    fields = gov__snapshot_fields(&n);
    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_SNAPSHOT_SCHEMA);
    gov__fields_json(&w, fields, n, s);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
