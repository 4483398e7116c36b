/* Fuzz the kernel release comparison (uname -r): never crash; a release
 * is at least itself's MAJOR.MINOR and never above 65536. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (gov__kernel_release_at_least(text, 65537, 0))
        abort();
    (void)gov__kernel_release_at_least(text, 6, 5);
    free(text);
    return 0;
}
