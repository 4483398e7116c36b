/* Fuzz /proc/self/cgroup parsing: never crash; a found path is an absolute
 * path that fits the buffer and occurs in the input. */
#define _GNU_SOURCE
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const ctl[] = { NULL, "cpu", "cpuset", "memory", "name=systemd" };
    const char *text = (const char *)data;
    char path[64];

    for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; i++) {
        int rc = gov__proc_cgroup_find(text, size, ctl[i], path, sizeof path);
        if (rc == 0) {
            size_t n = strlen(path);
            if (path[0] != '/' || n >= sizeof path || !memmem(text, size, path, n))
                abort();
        } else if (rc != GOV_ENOENT && rc != GOV_EPARSE && rc != GOV_ENOSPC) {
            abort();
        }
    }
    return 0;
}
