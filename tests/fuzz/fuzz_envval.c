/* Fuzz the parsers of runtime settings users put in the environment
 * (base.h): never crash, and what they report lies inside the text. */
#include "base.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "--max-old-space-size", "--max_old_space_size",
                                         "-XX:MaxRAM=", "-Xmx" };
    const char *text = (const char *)data;
    gov_envval_option o;
    uint64_t v;

    if (gov__envval_count(text, size, &v) == 0 && v == 0)
        abort();
    (void)gov__envval_go_bytes(text, size, &v);
    (void)gov__envval_java_size(text, size, &v);
    (void)gov__envval_fraction(text, size, &v);
    (void)gov__envval_percent(text, size, &v);
    (void)gov__envval_mps_limit(text, size, &v);
    (void)gov__envval_size(text, size, &v);
    if (gov__envval_find_option(text, size, names, 4, &o) == 0) {
        if (o.which >= 4 || o.start + o.len > size || o.value < o.start ||
            o.value + o.value_len > o.start + o.len)
            abort();
    }
    return 0;
}
