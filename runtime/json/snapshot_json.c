/* snapshot_json.c - the "governor.snapshot/1" rendering: the stable contract
 * of docs/snapshot.md, printed from the field table (snapshot_base.h).
 * It prints counts and quantities only: never an id, a name, a path or an
 * environment value. */
#include "snapshot_base.h"
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The objects open along a path: "memory.cgroup" as its components. */
typedef struct open_path {
    size_t depth;
    const char *part[4];
    size_t len[4];
} open_path;

/* Close and open objects so that the ones open are the directories of
 * path; return its last component. */
static const char *enter(gov_jw *w, open_path *open, const char *path, char *key, size_t cap)
{
    const char *part[4], *p = path, *dot;
    size_t len[4], n = 0, same = 0;

    while ((dot = strchr(p, '.')) && n < 4) {
        part[n] = p;
        len[n++] = (size_t)(dot - p);
        p = dot + 1;
    }
    while (same < n && same < open->depth && len[same] == open->len[same] &&
           !memcmp(part[same], open->part[same], len[same]))
        same++;
    for (; open->depth > same; open->depth--)
        gov__jw_object_end(w);
    for (; open->depth < n; open->depth++) {
        snprintf(key, cap, "%.*s", (int)len[open->depth], part[open->depth]);
        gov__jw_object_begin(w, key);
        open->part[open->depth] = part[open->depth];
        open->len[open->depth] = len[open->depth];
    }
    return p;
}

/* One object per NUMA node listed: null while the task part is unknown. */
static void put_numa(gov_jw *w, const char *key, const gov_field *f, const gov_snapshot *s)
{
    const gov_topology_numa *e = (const gov_topology_numa *)(const void *)((const char *)s + f->offset);
    uint32_t n;

    memcpy(&n, (const char *)s + f->aux, sizeof n);
    if (s->topology.task.numa_nodes == GOV_UNKNOWN) {
        gov__jw_null(w, key);
        return;
    }
    gov__jw_array_begin(w, key);
    for (uint32_t i = 0; i < n && i < GOV_TOPOLOGY_NUMA_MAX; i++) {
        gov__jw_object_begin(w, NULL);
        gov__jw_u64(w, "os_index", e[i].os_index);
        gov__jw_u64(w, "pus", e[i].pus);
        gov__jw_u64(w, "cores", e[i].cores);
        gov__jw_u64(w, "local_memory_bytes", e[i].local_memory_bytes);
        gov__jw_cpuset(w, "cpus", &e[i].cpus);
        gov__jw_object_end(w);
    }
    gov__jw_array_end(w);
}

static void put_field(gov_jw *w, const char *key, const gov_field *f, const gov_snapshot *s)
{
    const char *at = (const char *)s + f->offset;
    char buf[64];
    uint64_t u64;
    uint32_t u32;
    unsigned e;
    double d;
    int i;

    switch (f->kind) {
    case GOV_FIELD_COUNT:
        memcpy(&u64, at, sizeof u64);
        gov__jw_u64(w, key, u64);
        break;
    case GOV_FIELD_FRACTION:
        memcpy(&d, at, sizeof d);
        gov__jw_double(w, key, d);
        break;
    case GOV_FIELD_FLAG:
        memcpy(&i, at, sizeof i);
        gov__jw_bool(w, key, i != 0);
        break;
    case GOV_FIELD_TRISTATE:
        memcpy(&i, at, sizeof i);
        if (i < 0)
            gov__jw_null(w, key);
        else
            gov__jw_bool(w, key, i != 0);
        break;
    case GOV_FIELD_INDEX:
        memcpy(&i, at, sizeof i);
        if (i < 0)
            gov__jw_null(w, key);
        else
            gov__jw_int(w, key, i);
        break;
    case GOV_FIELD_PERCENT:
        memcpy(&u32, at, sizeof u32);
        gov__jw_int(w, key, u32);
        break;
    case GOV_FIELD_VERSION:
        memcpy(&i, at, sizeof i);
        if (i == 1 || i == 2)
            gov__jw_int(w, key, i);
        else
            gov__jw_null(w, key);
        break;
    case GOV_FIELD_NAME:
        memcpy(&e, at, sizeof e);
        gov__jw_string(w, key, f->name(e));
        break;
    case GOV_FIELD_CPUSET:
        memcpy(&u64, (const char *)s + f->aux, sizeof u64);
        if (u64 == GOV_UNKNOWN)
            gov__jw_null(w, key);
        else
            gov__jw_cpuset(w, key, (const gov_cpuset *)(const void *)at);
        break;
    case GOV_FIELD_DERIVED:
        gov__jw_string(w, key, f->derive(s, buf, sizeof buf));
        break;
    case GOV_FIELD_NUMA_LIST:
        put_numa(w, key, f, s);
        break;
    }
}

int gov_snapshot_json(const gov_snapshot *s, char **out, size_t *len)
{
    open_path open = { 0 };
    const gov_field *fields;
    size_t n;
    gov_jw w;
    char key[64];

    if (!s || !out)
        return GOV_EINVAL;
    fields = gov__snapshot_fields(&n);
    gov__jw_init(&w);
    gov__jw_object_begin(&w, NULL);
    gov__jw_string(&w, "schema", GOV_SNAPSHOT_SCHEMA);
    for (size_t i = 0; i < n; i++)
        if (!fields[i].hidden)
            put_field(&w, enter(&w, &open, fields[i].path, key, sizeof key), &fields[i], s);
    for (; open.depth; open.depth--)
        gov__jw_object_end(&w);
    gov__jw_object_end(&w);
    return gov__jw_finish(&w, out, len);
}
