/* Fuzz text.c, under every parser: lines and records stay inside the text
 * and in order; numbers never exceed their bound; the flags only narrow
 * what a number parser accepts. */
#include "base.h"

#include "governor.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *end = text + size, *line, *k, *v, *last = text;
    gov_lines it = gov__lines_of(text, size, false);
    size_t n, kn, vn;
    uint64_t x, y;
    int rc;

    while (gov__line_next(&it, &line, &n)) {
        if (line < last || line + n > end)
            abort();
        last = line + n;
    }
    it = gov__lines_of(text, size, true);
    while ((rc = gov__record_next(&it, &k, &kn, &v, &vn)) == 1)
        if (kn == 0 || vn == 0 || k + kn + 1 != v || v + vn >= end || v[vn] != '\n')
            abort();
    if (rc != 0 && rc != GOV_EPARSE)
        abort();

    if (gov__parse_dec(text, size, 0, 1000, &x) == 0 && x > 1000)
        abort();
    if (gov__parse_dec(text, size, GOV_NUM_CANONICAL, UINT64_MAX, &x) == 0 &&
        (gov__parse_dec(text, size, 0, UINT64_MAX, &y) != 0 || x != y))
        abort();
    if (gov__parse_dec(text, size, 0, UINT64_MAX, &x) == 0 &&
        (gov__parse_dec(text, size, GOV_NUM_SPACE, UINT64_MAX, &y) != 0 || x != y))
        abort();
    if (gov__parse_hex(text, size, GOV_HEX_LOWER, &x) == 0 &&
        (gov__parse_hex(text, size, 0, &y) != 0 || x != y))
        abort();

    /* A directory entry's name (NUL-terminated, as readdir gives it): a
     * number after a prefix is what the decimal parser says it is. */
    if (size > 0 && size < 256) {
        char name[256];

        memcpy(name, text, size);
        name[size] = '\0';
        if (gov__name_number(name, "card", &x) &&
            (strncmp(name, "card", 4) != 0 ||
             gov__parse_dec(name + 4, strlen(name + 4), 0, UINT64_MAX, &y) != 0 || x != y))
            abort();
    }
    return 0;
}
