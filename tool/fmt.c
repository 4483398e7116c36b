/* fmt.c - figures as the tool prints them for people (fmt.h). */
#include "fmt.h"

#include "governor.h"

#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gov__fmt_bytes(uint64_t v, char *buf, size_t cap)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double d = (double)v;
    int u = 0;

    if (v == GOV_UNKNOWN) {
        snprintf(buf, cap, "-");
        return;
    }
    while (d >= 1024.0 && u < 6) {
        d /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, cap, "%llu B", (unsigned long long)v);
    else
        snprintf(buf, cap, "%.1f %s", d, units[u]);
}

void gov__fmt_count(uint64_t v, char *buf, size_t cap)
{
    if (v == GOV_UNKNOWN)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%llu", (unsigned long long)v);
}

void gov__fmt_percent(double r, char *buf, size_t cap)
{
    if (!isfinite(r))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.0f%%", r * 100);
}

void gov__fmt_seconds(double s, char *buf, size_t cap)
{
    if (isnan(s))
        snprintf(buf, cap, "-");
    else if (s < 600)
        snprintf(buf, cap, "%.1f s", s);
    else
        snprintf(buf, cap, "%.0f min", s / 60);
}

void gov__fmt_user(uint64_t uid, bool names, char *buf, size_t cap)
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
    struct passwd *pw = names && uid <= (uint64_t)(uid_t)-1 ? getpwuid((uid_t)uid) : NULL;

    if (pw && *pw->pw_name && strspn(pw->pw_name, ok) == strlen(pw->pw_name))
        snprintf(buf, cap, "%s", pw->pw_name);
    else
        gov__fmt_count(uid, buf, cap);
}

struct gov_user_name {
    uint64_t uid;
    char name[64];
};

void gov__fmt_user_cached(gov_user_cache *c, uint64_t uid, bool names, char *buf, size_t cap)
{
    size_t lo = 0, hi = c->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->v[mid].uid < uid)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->n && c->v[lo].uid == uid) {
        snprintf(buf, cap, "%s", c->v[lo].name);
        return;
    }
    gov__fmt_user(uid, names, buf, cap);
    if (c->n == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 64;
        struct gov_user_name *v = realloc(c->v, ncap * sizeof *v);
        if (!v)
            return;
        c->v = v;
        c->cap = ncap;
    }
    memmove(&c->v[lo + 1], &c->v[lo], (c->n - lo) * sizeof *c->v);
    c->v[lo].uid = uid;
    snprintf(c->v[lo].name, sizeof c->v[lo].name, "%s", buf);
    c->n++;
}

void gov__fmt_users_free(gov_user_cache *c)
{
    free(c->v);
    c->v = NULL;
    c->n = c->cap = 0;
}
