/* plugstack_keys.c - print the plugstack.conf keys governor.so knows, one a
 * line, taken from its own message for an unknown key (which spank/parse/policy.c
 * builds from its table), for test_plugstack_keys.sh. */
#include "parse.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char known[] = "known keys: ";
    const char *argv[] = { "?" };
    gov_spank_policy p;
    char err[512];       /* as plugin.c's: a list that outgrows it fails the test */
    const char *k;

    if (gov__spank_policy_parse(1, argv, &p, err, sizeof err) != GOV_EPARSE ||
        !(k = strstr(err, known)))
        return 1;
    for (k += strlen(known); *k; k += strspn(k, ", ")) {
        size_t n = strcspn(k, ",");
        printf("%.*s\n", (int)n, k);
        k += n;
    }
    return 0;
}
