/* Fuzz what `governor doctor --runtimes` reads of a runtime's output
 * (tool/runtime_probes.c): every probe's translation of a runtime's own
 * text (the JVM's) and the figures and version read from it; never crash,
 * never read or write past a buffer, and a figure is what its kind says. */
#include "runtime_probes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *out = malloc(CAP), version[80];

    if (!text || !out) {
        free(text);
        free(out);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    for (size_t i = 0; i < gov__runtime_probe_count; i++) {
        const gov_runtime_probe *p = &gov__runtime_probes[i];
        const char *read = text;
        if (p->translate) {
            p->translate(text, out, CAP);
            if (strnlen(out, CAP) == CAP)
                abort();
            read = out;
        }
        if (gov__probe_answer(read, "version", version, sizeof version) &&
            strnlen(version, sizeof version) == sizeof version)
            abort();
        for (size_t k = 0; k < GOV_PROBE_DECISIONS_MAX && p->decisions[k].key; k++) {
            gov_probe_figure f = gov__probe_figure(read, p->decisions[k].key);
            if ((f.kind == GOV_PROBE_VALUE) != (f.v > 0))
                abort();
        }
    }
    free(text);
    free(out);
    return 0;
}
