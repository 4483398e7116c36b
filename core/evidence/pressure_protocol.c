/* pressure_protocol.c - the pressure hand-off's variables and their
 * base64 trigger (evidence.h). */
#include "evidence.h"

#include "governor.h"
#include "base.h"

#include <stdio.h>
#include <string.h>

const gov_pressure_kind gov__pressure_kinds[GOV_PRESSURE_KINDS] = {
    { "memory", "MEMORY_PRESSURE_WATCH", "MEMORY_PRESSURE_WRITE", "memory.pressure" },
    { "cpu", "CPU_PRESSURE_WATCH", "CPU_PRESSURE_WRITE", "cpu.pressure" },
    { "io", "IO_PRESSURE_WATCH", "IO_PRESSURE_WRITE", "io.pressure" },
};

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int gov__pressure_write_encode(uint32_t threshold_us, uint32_t window_us, char *b64, size_t cap)
{
    char text[GOV_PRESSURE_TRIGGER_MAX];
    int n;
    size_t o = 0;

    if (!b64 || !threshold_us || threshold_us >= window_us)
        return GOV_EINVAL;
    n = snprintf(text, sizeof text, "some %u %u", threshold_us, window_us);
    if ((size_t)(n + 2) / 3 * 4 + 1 > cap)
        return GOV_ENOSPC;
    for (int i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)(unsigned char)text[i] << 16;

        if (i + 1 < n)
            v |= (uint32_t)(unsigned char)text[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)text[i + 2];
        b64[o++] = b64_alphabet[v >> 18 & 63];
        b64[o++] = b64_alphabet[v >> 12 & 63];
        b64[o++] = i + 1 < n ? b64_alphabet[v >> 6 & 63] : '=';
        b64[o++] = i + 2 < n ? b64_alphabet[v & 63] : '=';
    }
    b64[o] = '\0';
    return 0;
}

/* The kernel's trigger grammar: "some|full THRESHOLD WINDOW" (us). */
static bool is_trigger(const char *s, size_t len)
{
    const char *p = s, *end = s + len;
    uint64_t v;

    while (end > p && (end[-1] == '\0' || end[-1] == '\n'))
        end--;
    if (!gov__prefix(p, (size_t)(end - p), "some ", &p, NULL) &&
        !gov__prefix(p, (size_t)(end - p), "full ", &p, NULL))
        return false;
    if (gov__scan_dec(&p, end, UINT32_MAX, &v) || p == end || *p++ != ' ' ||
        gov__scan_dec(&p, end, UINT32_MAX, &v))
        return false;
    return p == end;
}

static int b64_value(char c)
{
    const char *at = c ? strchr(b64_alphabet, c) : NULL;

    return at ? (int)(at - b64_alphabet) : -1;
}

int gov__pressure_write_decode(const char *b64, char *out, size_t cap, size_t *len)
{
    size_t n, o = 0;
    uint32_t acc = 0;
    unsigned bits = 0;

    if (!b64 || !out || !len)
        return GOV_EPARSE;
    n = strlen(b64);
    while (n && b64[n - 1] == '=')
        n--;
    if (!n || strlen(b64) - n > 2 || n % 4 == 1)
        return GOV_EPARSE;
    for (size_t i = 0; i < n; i++) {
        int v = b64_value(b64[i]);

        if (v < 0)
            return GOV_EPARSE;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o + 1 >= cap)
                return GOV_ENOSPC;
            out[o++] = (char)(acc >> bits & 0xff);
        }
    }
    out[o] = '\0';
    if (!is_trigger(out, o))
        return GOV_EPARSE;
    *len = o;
    return 0;
}
