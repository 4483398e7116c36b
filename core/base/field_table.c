/* field_table.c - the one walker of a field table (base.h): a struct's
 * rows written as JSON members, read back leaf by leaf, started unknown. */
#include "base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The objects open along the last path written: "memory.cgroup" as its
 * components. */
#define DEPTH_MAX 4
typedef struct open_path {
    size_t depth;
    const char *part[DEPTH_MAX];
    size_t len[DEPTH_MAX];
} open_path;

/* Close and open objects so that the ones open are the directories of
 * path; return its last component (into key). */
static const char *enter(gov_jw *w, open_path *open, const char *path, char *key, size_t cap)
{
    const char *part[DEPTH_MAX], *p = path, *dot;
    size_t len[DEPTH_MAX], n = 0, same = 0;

    while ((dot = strchr(p, '.')) && n < DEPTH_MAX) {
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
    snprintf(key, cap, "%s", p);
    return key;
}

static void put(gov_jw *w, const char *key, const gov_field *f, const void *obj)
{
    const char *at = (const char *)obj + f->offset;
    char buf[64];
    uint64_t u64;
    uint32_t u32;
    unsigned e;
    double d;
    bool b;
    int i;

    switch (f->kind) {
    case GOV_FIELD_COUNT:
        memcpy(&u64, at, sizeof u64);
        gov__jw_u64(w, key, u64);
        break;
    case GOV_FIELD_FRACTION:
        memcpy(&d, at, sizeof d);
        if (f->decimals)
            gov__jw_fixed(w, key, d, (int)f->decimals);
        else
            gov__jw_double(w, key, d);
        break;
    case GOV_FIELD_FLAG:
        memcpy(&i, at, sizeof i);
        gov__jw_bool(w, key, i != 0);
        break;
    case GOV_FIELD_BOOL:
        memcpy(&b, at, sizeof b);
        gov__jw_bool(w, key, b);
        break;
    case GOV_FIELD_TRISTATE:
    case GOV_FIELD_INDEX:
        memcpy(&i, at, sizeof i);
        if (i < 0)
            gov__jw_null(w, key);
        else if (f->kind == GOV_FIELD_INDEX)
            gov__jw_int(w, key, i);
        else
            gov__jw_bool(w, key, i != 0);
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
    case GOV_FIELD_TEXT:
        gov__jw_string(w, key, at);
        break;
    case GOV_FIELD_CPUSET:
        memcpy(&u64, (const char *)obj + f->aux, sizeof u64);
        if (u64 == GOV_UNKNOWN)
            gov__jw_null(w, key);
        else
            gov__jw_cpuset(w, key, (const gov_cpuset *)(const void *)at);
        break;
    case GOV_FIELD_DERIVED:
        gov__jw_string(w, key, f->derive(obj, buf, sizeof buf));
        break;
    case GOV_FIELD_CUSTOM:
        f->put(w, key, obj);
        break;
    case GOV_FIELD_SECTION:
        break;
    }
}

void gov__fields_json(gov_jw *w, const gov_field *f, size_t n, const void *obj)
{
    open_path open = { 0 };
    char key[64];

    for (size_t i = 0; i < n; i++)
        if (!f[i].hidden && f[i].kind != GOV_FIELD_SECTION)
            put(w, enter(w, &open, f[i].path, key, sizeof key), &f[i], obj);
    for (; open.depth; open.depth--)
        gov__jw_object_end(w);
}

/* Whether leaf path is row f's: the same, or below a CUSTOM row's
 * ("told.tasks", "findings[]"). */
static bool is_row(const gov_field *f, const char *path)
{
    size_t len;

    if (f->hidden || f->kind == GOV_FIELD_SECTION)
        return false;
    if (!strcmp(f->path, path))
        return true;
    len = strlen(f->path);
    return f->kind == GOV_FIELD_CUSTOM && !strncmp(f->path, path, len) &&
           (path[len] == '.' || path[len] == '[');
}

size_t gov__fields_find(const gov_field *f, size_t n, const char *path, size_t next)
{
    if (next < n && is_row(&f[next], path))
        return next;
    for (size_t i = 0; i < n; i++)
        if (is_row(&f[i], path))
            return i;
    return n;
}

/* The largest figure a table reads back: about 31 million years in
 * seconds, far past any step, and small enough that every accepted figure
 * writes back in a few digits that read again the same. */
#define FIGURE_MAX 1e15

static int get_double(const gov_json_leaf *l, double *v)
{
    char tmp[64], *end;

    if (l->type == GOV_JSON_NULL) {
        *v = NAN;
        return 0;
    }
    if (l->type != GOV_JSON_NUMBER || l->len >= sizeof tmp)
        return GOV_EPARSE;
    memcpy(tmp, l->text, l->len);
    tmp[l->len] = '\0';
    *v = strtod(tmp, &end);
    return *end || !(*v >= 0 && *v <= FIGURE_MAX) ? GOV_EPARSE : 0;
}

int gov__field_get(const gov_field *f, const gov_json_leaf *l, void *obj)
{
    char *at = (char *)obj + f->offset;
    uint64_t u64;
    double d;
    bool b;
    int i;

    switch (f->kind) {
    case GOV_FIELD_COUNT:
        if (l->type == GOV_JSON_NULL)
            u64 = GOV_UNKNOWN;
        else if (l->type != GOV_JSON_NUMBER ||
                 gov__parse_dec(l->text, l->len, 0, GOV_UNKNOWN - 1, &u64))
            return GOV_EPARSE;
        memcpy(at, &u64, sizeof u64);
        return 0;
    case GOV_FIELD_FRACTION:
        if (get_double(l, &d))
            return GOV_EPARSE;
        memcpy(at, &d, sizeof d);
        return 0;
    case GOV_FIELD_FLAG:
    case GOV_FIELD_BOOL:
        if (l->type != GOV_JSON_BOOL)
            return GOV_EPARSE;
        b = gov__token_eq(l->text, l->len, "true");
        i = b;
        if (f->kind == GOV_FIELD_BOOL)
            memcpy(at, &b, sizeof b);
        else
            memcpy(at, &i, sizeof i);
        return 0;
    case GOV_FIELD_TEXT:
        if (l->type != GOV_JSON_STRING || !l->plain || l->len == 0 || l->len >= f->aux)
            return GOV_EPARSE;
        memcpy(at, l->text, l->len);
        at[l->len] = '\0';
        return 0;
    case GOV_FIELD_DERIVED:
    case GOV_FIELD_CUSTOM:
        return f->get ? f->get(l, obj) : 0;
    default:
        /* No table reads these back. */
        return GOV_EPARSE;
    }
}

void gov__fields_set_unknown(const gov_field *f, size_t n, void *part, size_t offset,
                             size_t size)
{
    memset(part, 0, size);
    for (size_t i = 0; i < n; i++) {
        char *at;
        uint64_t u = GOV_UNKNOWN;
        double d = NAN;
        int minus = -1;

        if (f[i].kind == GOV_FIELD_DERIVED || f[i].kind == GOV_FIELD_CUSTOM ||
            f[i].kind == GOV_FIELD_SECTION || f[i].offset < offset ||
            f[i].offset >= offset + size)
            continue;
        at = (char *)part + (f[i].offset - offset);
        switch (f[i].kind) {
        case GOV_FIELD_COUNT:
            memcpy(at, &u, sizeof u);
            break;
        case GOV_FIELD_FRACTION:
            memcpy(at, &d, sizeof d);
            break;
        case GOV_FIELD_TRISTATE:
        case GOV_FIELD_INDEX:
            memcpy(at, &minus, sizeof minus);
            break;
        default:
            break; /* 0: no flag, no percentage, no cgroup, every enum's "none" */
        }
    }
}
