/* doctor_json.c - the "governor.doctor/1" rendering of a doctor report
 * (render.h): each finding with the unit and the holding layers the text
 * output also shows, then the exit status. */
#include "render.h"
#include "json.h"

int gov_doctor_json(const gov_doctor_report *rep, char **out, size_t *len)
{
    gov_jw w;
    char held[64];

    gov_jw_init(&w);
    gov_jw_object_begin(&w, NULL);
    gov_jw_string(&w, "schema", GOV_DOCTOR_SCHEMA);
    gov_jw_array_begin(&w, "findings");
    for (size_t i = 0; i < rep->count; i++) {
        const gov_doctor_finding *f = &rep->findings[i];
        gov_jw_object_begin(&w, NULL);
        gov_jw_string(&w, "id", f->id);
        gov_jw_string(&w, "severity", gov_doctor_severity_name(f->severity));
        gov_jw_string(&w, "resource", f->resource);
        gov_jw_u64(&w, "allocation", f->allocation);
        gov_jw_string(&w, "unit", gov_doctor_unit(f));
        gov_doctor_held_names(f, held, sizeof held);
        gov_jw_string(&w, "enforced_by", f->assessed ? held : NULL);
        gov_jw_string(&w, "summary", f->summary);
        gov_jw_string(&w, "fix", f->fix);
        gov_jw_object_end(&w);
    }
    gov_jw_array_end(&w);
    gov_jw_int(&w, "exit", rep->exit_status);
    gov_jw_object_end(&w);
    return gov_jw_finish(&w, out, len);
}
