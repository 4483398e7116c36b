/* Fuzz mountinfo parsing: never crash; a found mount has a decoded,
 * NUL-terminated root and mount point that start with '/', and decoding
 * never grows a string. */
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const ctl[] = { "cpu", "cpuset", "memory", "name=systemd" };
    const char *text = (const char *)data;
    gov_mount m;
    char *copy;

    for (int v = 1; v <= 2; v++) {
        for (size_t i = 0; i < (v == 1 ? 4u : 1u); i++) {
            int rc = gov__mountinfo_find(text, size, v, v == 1 ? ctl[i] : NULL, &m);
            if (rc == 0 && (m.version != v || m.root[0] != '/' || m.mount_point[0] != '/' ||
                            strnlen(m.options, sizeof m.options) == sizeof m.options))
                abort();
            if (rc != 0 && rc != GOV_ENOENT && rc != GOV_EPARSE && rc != GOV_ENOSPC)
                abort();
        }
    }
    copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    if (gov__unescape_octal(copy, size) > size)
        abort();
    free(copy);
    return 0;
}
