/* Fuzz the decoder of $MEMORY_PRESSURE_WRITE (evidence.h), which
 * a process reads from its environment: never crash; what it accepts is a
 * trigger that encodes back to a value the decoder takes again. */
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), out[GOV_PRESSURE_TRIGGER_MAX];
    size_t len = 0;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (gov__pressure_write_decode(text, out, sizeof out, &len) == 0 &&
        (len >= sizeof out || strlen(out) > len || (strncmp(out, "some ", 5) &&
                                                    strncmp(out, "full ", 5))))
        abort();
    free(text);
    return 0;
}
