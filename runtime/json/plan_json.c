/* plan_json.c - "governor.plan/1" and "governor.run/1" (render.h): run/1
 * opens as plan/1 does and carries two plans, the command's and its
 * pool's, before the variables. */
#include "json/render.h"
#include "base.h"

/* The GPU grant the plan works within, null without one: what it is,
 * the share of one GPU, its memory and whether anything holds the tasks
 * to it (docs/snapshot.md, "GPU shares"). */
static void gpu_member(gov_jw *w, const gov_snapshot *s)
{
    const gov_snapshot_scheduler *sc = &s->scheduler;

    if (sc->gpu_share_kind == GOV_GPU_SHARE_NONE) {
        gov__jw_null(w, "gpu");
        return;
    }
    gov__jw_object_begin(w, "gpu");
    gov__jw_string(w, "kind", gov_gpu_share_kind_name(sc->gpu_share_kind));
    gov__jw_double(w, "share", sc->gpu_share);
    gov__jw_u64(w, "memory_bytes", sc->gpu_memory_bytes);
    gov__jw_string(w, "enforcement", gov_enforcement_name(s->enforcement.gpu_share));
    gov__jw_object_end(w);
}

/* The schema, then the snapshot's CPU capacity and binding layers, and its
 * GPU grant. */
static void head(gov_jw *w, const char *schema, const gov_snapshot *s)
{
    gov__jw_init(w);
    gov__jw_object_begin(w, NULL);
    gov__jw_string(w, "schema", schema);
    gov__jw_double(w, "capacity_cores", s->cpu.effective.capacity_cores);
    gov__jw_string(w, "binding", gov_layer_name(s->cpu.effective.binding));
    gov__jw_string(w, "memory_binding", gov_layer_name(s->memory.effective.binding));
    gov__jw_string(w, "profile", gov_profile_name(s->policy.profile));
    gpu_member(w, s);
}

/* The topology the plan covers, and one object per NUMA worker. */
static void topology_members(gov_jw *w, const gov_snapshot *s, const gov_plan *p)
{
    gov__jw_u64(w, "cores", p->cores);
    gov__jw_u64(w, "numa_nodes", p->numa_nodes);
    gov__jw_bool(w, "per_core", p->flags & GOV_PLAN_PER_CORE);
    gov__jw_u64(w, "idle_pus", p->idle_pus);
    if (!(p->flags & GOV_PLAN_WORKERS_NUMA)) {
        gov__jw_null(w, "numa_workers");
        return;
    }
    gov__jw_array_begin(w, "numa_workers");
    for (uint32_t i = 0; i < p->numa_workers; i++) {
        gov__jw_object_begin(w, NULL);
        gov__jw_u64(w, "os_index", s->topology.numa[i].os_index);
        gov__jw_u64(w, "threads", p->worker[i].threads);
        gov__jw_u64(w, "memory_limit_bytes", p->worker[i].memory_limit_bytes);
        gov__jw_cpuset(w, "cpus", &s->topology.numa[i].cpus);
        gov__jw_object_end(w);
    }
    gov__jw_array_end(w);
}

static void plan_members(gov_jw *w, const gov_plan *p)
{
    gov__jw_u64(w, "cpu_workers", p->cpu_workers);
    gov__jw_u64(w, "reserve_threads", p->reserve_threads);
    gov__jw_u64(w, "reserve_memory_bytes", p->reserve_memory_bytes);
    gov__jw_u64(w, "workers", p->workers);
    gov__jw_u64(w, "threads_per_worker", p->threads_per_worker);
    gov__jw_u64(w, "memory_limit_per_worker_bytes", p->memory_limit_per_worker);
    gov__jw_u64(w, "memory_remaining_per_worker_bytes", p->memory_remaining_per_worker);
    gov__jw_u64(w, "io_workers", p->io_workers);
    gov__jw_bool(w, "oversubscribed", p->oversubscribed);
}

int gov__plan_json(const gov_snapshot *s, const gov_plan *p, char **out, size_t *len)
{
    gov_jw w;

    head(&w, GOV_PLAN_SCHEMA, s);
    plan_members(&w, p);
    topology_members(&w, s, p);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}

static void plan_object(gov_jw *w, const char *key, const gov_plan *p)
{
    gov__jw_object_begin(w, key);
    plan_members(w, p);
    gov__jw_object_end(w);
}

static void variable(gov_jw *w, const gov_runenv_entry *e)
{
    gov__jw_object_begin(w, NULL);
    gov__jw_string(w, "name", e->name);
    gov__jw_string(w, "option", e->option);
    gov__jw_string(w, "action", gov_runenv_action_name(e->action));
    gov__jw_string(w, "reason", gov_runenv_reason_name(e->reason));
    gov__jw_string(w, "setting", e->action == GOV_RUNENV_SKIP ? NULL : e->setting);
    gov__jw_string(w, "unit", e->gpu ? (e->bytes ? "gpu_bytes" : "gpu_thousandths")
                              : e->bytes ? "bytes" : "count");
    gov__jw_u64(w, "planned", e->planned);
    gov__jw_u64(w, "user", e->user);
    gov__jw_bool(w, "exceeds", e->exceeds);
    gov__jw_u64(w, "basis", e->basis);
    gov__jw_string(w, "runtime", e->runtime);
    gov__jw_object_end(w);
}

int gov__run_json(const gov_snapshot *s, const gov_runenv *env, char **out, size_t *len)
{
    gov_jw w;

    head(&w, GOV_RUN_SCHEMA, s);
    plan_object(&w, "plan", &env->plan);
    plan_object(&w, "pool", &env->pool);
    gov__jw_object_begin(&w, "affinity");
    gov__jw_string(&w, "action", env->affinity_count ? "narrow" : "keep");
    gov__jw_u64(&w, "from", env->affinity_from);
    gov__jw_u64(&w, "cpus", env->affinity_count ? env->affinity_count : env->affinity_from);
    gov__jw_object_end(&w);
    gov__jw_array_begin(&w, "variables");
    for (size_t i = 0; i < env->count; i++)
        variable(&w, &env->entries[i]);
    gov__jw_array_end(&w);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
