/* fmt.c - figures as the tool prints them for people (fmt.h). */
#include "fmt.h"

#include "governor.h"

#include <math.h>
#include <pwd.h>
#include <stdio.h>
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
