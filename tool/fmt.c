/* fmt.c - figures as the tool prints them for people (fmt.h). */
#include "fmt.h"

#include "governor.h"

#include <stdio.h>

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
