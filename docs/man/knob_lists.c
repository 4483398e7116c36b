/* knob_lists.c - the man pages' lists of the runtimes' variables, made at
 * build time from the one table of them (core/decide/knobs.c), so that a
 * new variable is one row there: copy IN to OUT with each
 *   {{CPU_KNOBS}}     the variables set to a thread count, "*NAME*, ..."
 *   {{MEMORY_KNOBS}}  the variables that carry a memory figure or an option,
 * replaced, each name once, in the table's order.
 * usage: knob_lists IN OUT */
#include "decide.h"

#include <stdio.h>
#include <string.h>

/* Write the names of the knobs that plain (a count in a variable of its
 * own) or not, each once. */
static void names(FILE *out, bool plain)
{
    bool first = true;

    for (size_t i = 0; i < gov__knob_count; i++) {
        const gov_knob *k = &gov__knobs[i];
        size_t j;

        if ((k->cpu && !k->option) != plain)
            continue;
        for (j = 0; j < i && strcmp(gov__knobs[j].name, k->name); j++)
            ;
        if (j < i)
            continue;
        fprintf(out, "%s*%s*", first ? "" : ", ", k->name);
        first = false;
    }
}

int main(int argc, char **argv)
{
    static const struct {
        const char *token;
        bool plain;
    } lists[] = { { "{{CPU_KNOBS}}", true }, { "{{MEMORY_KNOBS}}", false } };
    char line[4096];
    FILE *in, *out;
    int rc = 0;

    if (argc != 3 || !(in = fopen(argv[1], "r"))) {
        fprintf(stderr, "usage: knob_lists IN OUT\n");
        return 2;
    }
    if (!(out = fopen(argv[2], "w"))) {
        perror(argv[2]);
        fclose(in);
        return 1;
    }
    while (fgets(line, sizeof line, in)) {
        char *p = line;

        for (;;) {
            size_t l, best = strlen(p);
            int which = -1;
            for (size_t t = 0; t < sizeof lists / sizeof lists[0]; t++) {
                char *at = strstr(p, lists[t].token);
                if (at && (size_t)(at - p) < best) {
                    best = (size_t)(at - p);
                    which = (int)t;
                }
            }
            fwrite(p, 1, best, out);
            if (which < 0)
                break;
            names(out, lists[which].plain);
            l = strlen(lists[which].token);
            p += best + l;
        }
    }
    if (ferror(in) || fclose(out))
        rc = 1;
    fclose(in);
    return rc;
}
