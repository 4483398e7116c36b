/* watch_json.c - "governor.watch/1" (render.h): one observation of
 * `governor watch`, the governor's pressure state and what is free. */
#include "json/render.h"
#include "base.h"
#include "evidence.h"

#include <stdio.h>

const char *gov__trigger_names(unsigned bits, char *buf, size_t cap)
{
    size_t o = 0;

    buf[0] = '\0';
    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++)
        if (bits & 1u << k && o < cap)
            o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? "," : "",
                                  gov__pressure_kinds[k].name);
    return buf;
}

int gov__watch_json(uint64_t elapsed_ms, const gov_snapshot *s, const gov_pressure_state *ps,
                    const gov_availability *a, gov_reason gate, unsigned fired, char **out,
                    size_t *len)
{
    char woke[32];
    gov_jw w;

    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_WATCH_SCHEMA);
    gov__jw_u64(&w, "elapsed_ms", elapsed_ms);
    gov__jw_string(&w, "profile", gov_profile_name(a->profile));
    gov__jw_string(&w, "pressure", gov_pressure_level_name(ps->level));
    gov__jw_u64(&w, "ceiling", ps->ceiling);
    gov__jw_string(&w, "ceiling_reason", gov_ceiling_reason_name(ps->ceiling_reason));
    gov__jw_u64(&w, "healthy_streak", ps->healthy_streak);
    gov__jw_u64(&w, "swap_streak", ps->swap_streak);
    gov__jw_object_begin(&w, "ram");
    gov__jw_u64(&w, "detected_bytes", a->detected_ram_bytes);
    gov__jw_u64(&w, "free_bytes", a->ram_bytes);
    gov__jw_u64(&w, "reserve_bytes", a->ram_reserve_bytes);
    gov__jw_object_end(&w);
    gov__jw_object_begin(&w, "threads");
    gov__jw_u64(&w, "detected", a->detected_threads);
    gov__jw_u64(&w, "free", a->threads);
    gov__jw_u64(&w, "reserve", a->threads_reserve);
    gov__jw_object_end(&w);
    gov__jw_u64(&w, "io_slots_free", a->io_slots);
    gov__jw_u64(&w, "gpu_slots_free", a->gpu_slots);
    gov__jw_u64(&w, "gpu_free_bytes", a->gpu_free_bytes);
    gov__jw_object_begin(&w, "psi");
    gov__jw_double(&w, "cpu_some_avg10", s->pressure.cpu_some_avg10);
    gov__jw_double(&w, "memory_some_avg10", s->pressure.memory_some_avg10);
    gov__jw_string(&w, "gate", gate == GOV_REASON_NONE ? NULL : gov_reason_name(gate));
    gov__jw_string(&w, "trigger", fired ? gov__trigger_names(fired, woke, sizeof woke) : NULL);
    gov__jw_object_end(&w);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
