/* knob_lists.c - the man pages' lists of the runtimes' variables, made at
 * build time from the one table of them (core/decide/knobs.c), so that a
 * new variable is one row there: copy IN to OUT with each
 *   {{CPU_KNOBS}}     the variables set to a thread count, "*NAME*, ..."
 *   {{MEMORY_KNOBS}}  the variables that carry a memory figure or an option,
 *   {{GPU_KNOBS}}     the variables sized to a shared GPU,
 * replaced, each name once, in the table's order.
 * usage: knob_lists IN OUT */
#include "decide.h"

#include <stdio.h>
#include <string.h>

/* Which list knob k is in. */
enum list { PLAIN, OTHER, GPU };

static enum list list_of(const gov_knob *k)
{
    if (k->kind == GOV_KNOB_GPU)
        return GPU;
    return k->kind == GOV_KNOB_CPU && !k->option ? PLAIN : OTHER;
}

/* Write the names of the knobs in list which, each once. */
static void names(FILE *out, enum list which)
{
    bool first = true;

    for (size_t i = 0; i < gov__knob_count; i++) {
        const gov_knob *k = &gov__knobs[i];
        size_t j;

        if (list_of(k) != which)
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
        enum list which;
    } lists[] = { { "{{CPU_KNOBS}}", PLAIN },
                  { "{{MEMORY_KNOBS}}", OTHER },
                  { "{{GPU_KNOBS}}", GPU } };
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
            names(out, lists[which].which);
            l = strlen(lists[which].token);
            p += best + l;
        }
    }
    if (ferror(in) || fclose(out))
        rc = 1;
    fclose(in);
    return rc;
}
