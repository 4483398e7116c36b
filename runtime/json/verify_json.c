/* verify_json.c - "governor.verify/1" (render.h): the descriptor's status,
 * the reason it is invalid, its age, how it came and what a container hid
 * of its binding; never an id. */
#include "json/render.h"
#include "base.h"

int gov__verify_json(const gov_snapshot_descriptor *d, char **out, size_t *len)
{
    bool invalid = d->status == GOV_DESCRIPTOR_INVALID;
    bool verified = d->status == GOV_DESCRIPTOR_VERIFIED;
    char ns[64], unchecked[64];
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
    gov__jw_string(&w, "via", gov_descriptor_via_name(d->via));
    gov__jw_string(&w, "unchecked",
                   verified ? gov__bits_format(d->unchecked, gov__binding_bits_name,
                                               GOV_BINDING_COUNT, unchecked, sizeof unchecked)
                            : NULL);
    gov__jw_string(&w, "namespaces",
                   d->namespaces_seen ? gov__bits_format(d->namespaces, gov__namespace_bits_name,
                                                         GOV_NAMESPACE_COUNT, ns, sizeof ns)
                                      : NULL);
    gov__jw_string(&w, "namespaces_unknown",
                   d->namespaces_seen ? gov__bits_format(d->namespaces_unknown,
                                                         gov__namespace_bits_name,
                                                         GOV_NAMESPACE_COUNT, ns, sizeof ns)
                                      : NULL);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
