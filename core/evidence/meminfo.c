/* meminfo.c - host memory from /proc/meminfo (MemTotal, MemAvailable). */
#include "evidence.h"
#include "base.h"

#include <string.h>

/* "Key:   123 kB" -> bytes; GOV_UNKNOWN when malformed or too large. */
static uint64_t kb_value(const char *p, const char *eol)
{
    const char *unit = eol;
    uint64_t kb;

    while (unit > p && (unit[-1] == ' ' || unit[-1] == '\t' || unit[-1] == '\r'))
        unit--;
    if (unit - p < 3 || memcmp(unit - 3, " kB", 3) != 0)
        return GOV_UNKNOWN;
    if (gov__parse_u64(p, (size_t)(unit - 3 - p), &kb) || kb > UINT64_MAX / 1024)
        return GOV_UNKNOWN;
    return kb * 1024;
}

int gov__meminfo_parse(const char *text, size_t len, uint64_t *total_bytes,
                       uint64_t *available_bytes)
{
    gov_lines it = gov__lines_of(text, len, false);
    const char *p;
    size_t n;

    if (!total_bytes || !available_bytes || (!text && len))
        return GOV_EINVAL;
    *total_bytes = *available_bytes = GOV_UNKNOWN;
    while (gov__line_next(&it, &p, &n)) {
        const char *v;
        if (gov__prefix(p, n, "MemTotal:", &v, NULL))
            *total_bytes = kb_value(v, p + n);
        else if (gov__prefix(p, n, "MemAvailable:", &v, NULL))
            *available_bytes = kb_value(v, p + n);
    }
    if (*total_bytes == GOV_UNKNOWN && *available_bytes == GOV_UNKNOWN)
        return GOV_ENOENT;
    return 0;
}

void gov__meminfo_collect(const gov_root *root, uint64_t *total_bytes,
                          uint64_t *available_bytes)
{
    char buf[16384];
    size_t len;

    *total_bytes = *available_bytes = GOV_UNKNOWN;
    if (gov__read_file(root, "/proc/meminfo", buf, sizeof buf, &len) == 0)
        gov__meminfo_parse(buf, len, total_bytes, available_bytes);
}
