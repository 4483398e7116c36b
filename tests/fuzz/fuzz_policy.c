/* Fuzz the plugstack.conf argument parser: the input's lines become the
 * plugin's arguments.  Never crash; an error message always names a key. */
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *argv[16];
    char *text = malloc(size + 1), *p;
    char err[256];
    gov_spank_policy pol;
    int argc = 0, rc;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (p = text; argc < 16; ) {
        char *nl = strchr(p, '\n');
        argv[argc++] = p;
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    rc = gov__spank_policy_parse(argc, argv, &pol, err, sizeof err);
    if ((unsigned)gov__spank_policy_on_init_error(argc, argv) > GOV_INIT_ERROR_DRAIN_NODE)
        abort();
    if (rc != 0 && (rc != GOV_EPARSE || !strstr(err, "plugstack.conf")))
        abort();
    if (rc == 0 && (pol.ttl_s > 3600 || pol.site.mem_reserve_pct > 100 || pol.site.cpu_reserve_pct > 100))
        abort();
    if (rc == 0) {
        /* The words offered never include one the site then refuses. */
        static const char *const words[] = { "batch", "interactive", "threads", "runtimes",
                                             "noruntimes", "pressure", "off" };
        char help[GOV_MODE_HELP_MAX], msg[GOV_MODE_HELP_MAX];
        gov_mode m;
        gov__spank_mode_help(&pol, help, sizeof help);
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
            char quoted[32];
            if (gov__mode_parse(words[i], &m))
                abort();
            snprintf(quoted, sizeof quoted, " %s,", words[i]);
            if (gov__spank_mode_refused(&pol, &m, msg, sizeof msg) == (strstr(help, quoted) != NULL))
                abort();
        }
    }
    free(text);
    return 0;
}
