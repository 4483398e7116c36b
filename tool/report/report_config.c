/* report_config.c - the report directory this machine's Slurm is set up
 * with, for `governor report` given no file: slurm.conf ($SLURM_CONF, else
 * /etc/slurm/slurm.conf) names the plugstack file (PlugStackConfig, else
 * plugstack.conf beside it); its line that loads governor.so, directly or
 * through an `include` of a glob, carries report=DIR.  Read as SPANK reads
 * them: one directive a line, '#' starts a comment, keys case-insensitive
 * in slurm.conf. */
#include "report.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_SLURM_CONF "/etc/slurm/slurm.conf"
/* include may nest; SPANK itself refuses no depth, a loop must end. */
#define INCLUDE_DEPTH 8

/* The words of a line, comments cut, in place; returns how many (at most
 * cap). */
static size_t words(char *line, char **w, size_t cap)
{
    size_t n = 0;
    char *save = NULL;

    line[strcspn(line, "#\n")] = '\0';
    for (char *t = strtok_r(line, " \t", &save); t && n < cap; t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    return n;
}

static bool is_governor(const char *path)
{
    const char *base = strrchr(path, '/');

    base = base ? base + 1 : path;
    return !strcmp(base, "governor.so");
}

static int find_in(const char *plugstack, unsigned depth, char *dir, size_t cap);

/* Every file an include's glob names, in order. */
static int find_included(const char *pattern, unsigned depth, char *dir, size_t cap)
{
    glob_t g;
    int rc = GOV_ENOENT;

    if (glob(pattern, 0, NULL, &g))
        return GOV_ENOENT;
    for (size_t i = 0; i < g.gl_pathc && rc == GOV_ENOENT; i++)
        rc = find_in(g.gl_pathv[i], depth + 1, dir, cap);
    globfree(&g);
    return rc;
}

static int find_in(const char *plugstack, unsigned depth, char *dir, size_t cap)
{
    char line[4096], *w[64];
    FILE *f;
    int rc = GOV_ENOENT;

    if (depth > INCLUDE_DEPTH || !(f = fopen(plugstack, "re")))
        return GOV_ENOENT;
    while (rc == GOV_ENOENT && fgets(line, sizeof line, f)) {
        size_t n = words(line, w, 64);
        if (n >= 2 && !strcmp(w[0], "include")) {
            rc = find_included(w[1], depth, dir, cap);
            continue;
        }
        if (n < 2 || !is_governor(w[1]))
            continue;
        for (size_t i = 2; i < n; i++)
            if (!strncmp(w[i], "report=", 7) && w[i][7]) {
                rc = strlen(w[i] + 7) < cap ? 0 : GOV_ENOSPC;
                if (!rc)
                    strcpy(dir, w[i] + 7);
            }
    }
    fclose(f);
    return rc;
}

/* PlugStackConfig from slurm.conf, else plugstack.conf in its directory. */
static void plugstack_path(const char *conf, char *out, size_t cap)
{
    char line[4096], *w[64];
    const char *slash = strrchr(conf, '/');
    FILE *f = fopen(conf, "re");

    snprintf(out, cap, "%.*s/plugstack.conf", slash ? (int)(slash - conf) : 1,
             slash ? conf : ".");
    while (f && fgets(line, sizeof line, f)) {
        size_t n = words(line, w, 64);
        if (n >= 1 && !strncasecmp(w[0], "PlugStackConfig=", 16) && w[0][16])
            snprintf(out, cap, "%s", w[0] + 16);
    }
    if (f)
        fclose(f);
}

int gov__report_configured_dir(char *dir, size_t cap, char *plugstack, size_t pcap)
{
    const char *conf = getenv("SLURM_CONF");

    plugstack_path(conf && *conf ? conf : DEFAULT_SLURM_CONF, plugstack, pcap);
    return find_in(plugstack, 0, dir, cap);
}
