/* doctor_json.c - the "governor.doctor/1" rendering of a doctor report
 * (render.h): each finding with the unit and the holding layers the text
 * output also shows, then the exit status. */
#include "json/render.h"
#include "base.h"

int gov__doctor_json(const gov_doctor_report *rep, char **out, size_t *len)
{
    gov_jw w;
    char held[64];

    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_DOCTOR_SCHEMA);
    gov__jw_array_begin(&w, "findings");
    for (size_t i = 0; i < rep->count; i++) {
        const gov_doctor_finding *f = &rep->findings[i];
        gov__jw_object_begin(&w, NULL);
        gov__jw_string(&w, "id", f->id);
        gov__jw_string(&w, "severity", gov__doctor_severity_name(f->severity));
        gov__jw_string(&w, "resource", f->resource);
        gov__jw_u64(&w, "allocation", f->allocation);
        gov__jw_string(&w, "unit", gov__doctor_unit(f));
        gov__doctor_held_names(f, held, sizeof held);
        gov__jw_string(&w, "enforced_by", f->assessed ? held : NULL);
        gov__jw_string(&w, "summary", f->summary);
        gov__jw_string(&w, "fix", f->fix);
        gov__jw_object_end(&w);
    }
    gov__jw_array_end(&w);
    gov__jw_int(&w, "exit", rep->exit_status);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
