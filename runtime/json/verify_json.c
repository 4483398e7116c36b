/* verify_json.c - "governor.verify/1" (render.h): the descriptor's status,
 * the reason it is invalid, its age; never an id. */
#include "render.h"
#include "json.h"

int gov__verify_json(const gov_snapshot_descriptor *d, char **out, size_t *len)
{
    bool invalid = d->status == GOV_DESCRIPTOR_INVALID;
    gov_jw w;

    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_VERIFY_SCHEMA);
    gov__jw_string(&w, "status", gov_descriptor_status_name(d->status));
    gov__jw_string(&w, "reason", invalid ? gov_strerror(d->reason) : NULL);
    gov__jw_string(&w, "reason_code", invalid ? gov_err_name(d->reason) : NULL);
    gov__jw_u64(&w, "age_s", d->age_s);
    gov__jw_bool(&w, "replayed", d->replayed);
    gov__jw_bool(&w, "expired", d->expired);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
