/* Fuzz the --governor MODE parser: never crash; "off" never comes with
 * anything else. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    gov_mode m;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (gov__mode_parse(text, &m) == 0 && m.off && (m.threads || m.profile_set))
        abort();
    free(text);
    return 0;
}
