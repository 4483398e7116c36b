/* mountinfo.c - find cgroup mounts in /proc/self/mountinfo and a process's
 * cgroup paths in /proc/self/cgroup (both formats: proc(5)). */
#include "evidence.h"
#include "base.h"

#include <string.h>

static bool is_octal(char c)
{
    return c >= '0' && c <= '7';
}

size_t gov__unescape_octal(char *s, size_t len)
{
    size_t r = 0, w = 0;

    while (r < len) {
        /* The kernel escapes space, tab, newline and backslash as \ooo.
         * Anything else, and \000 (which would cut a C string), stays.
         * A shortened string gets a NUL after its new end. */
        if (s[r] == '\\' && len - r >= 4 && s[r + 1] >= '0' && s[r + 1] <= '3' &&
            is_octal(s[r + 2]) && is_octal(s[r + 3])) {
            unsigned v = (unsigned)(s[r + 1] - '0') * 64 +
                         (unsigned)(s[r + 2] - '0') * 8 + (unsigned)(s[r + 3] - '0');
            if (v != 0) {
                s[w++] = (char)v;
                r += 4;
                continue;
            }
        }
        s[w++] = s[r++];
    }
    if (w < len)
        s[w] = '\0';
    return w;
}

/* Next space-separated field of [*p, end); NULL at the end of the line. */
static const char *next_field(const char **p, const char *end, size_t *flen)
{
    const char *s = *p, *e;

    if (s >= end)
        return NULL;
    e = memchr(s, ' ', (size_t)(end - s));
    if (!e)
        e = end;
    *flen = (size_t)(e - s);
    *p = e < end ? e + 1 : end;
    return s;
}

/* Whether the comma-separated list [s, s+len) holds exactly `word`. */
static bool list_has(const char *s, size_t len, const char *word)
{
    size_t wl = strlen(word);
    const char *end = s + len;

    for (;;) {
        const char *c = memchr(s, ',', (size_t)(end - s));
        if (!c)
            c = end;
        if ((size_t)(c - s) == wl && memcmp(s, word, wl) == 0)
            return true;
        if (c == end)
            return false;
        s = c + 1;
    }
}

static int copy_decoded(char *dst, size_t cap, const char *src, size_t len)
{
    if (len >= cap)
        return GOV_ENOSPC;
    memcpy(dst, src, len);
    dst[len] = '\0';
    gov__unescape_octal(dst, len);
    return 0;
}

/* One mountinfo line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS...] -
 * FSTYPE SOURCE SUPEROPTS".  Returns 1 on a match, 0 on none, or an error. */
static int match_line(const char *p, const char *end, int version,
                      const char *controller, gov_mount *out)
{
    const char *f[6], *fs, *src, *sup, *t;
    size_t fl[6], fsl, srcl, supl, tl;
    int v, rc;

    for (int i = 0; i < 6; i++) {
        f[i] = next_field(&p, end, &fl[i]);
        if (!f[i] || fl[i] == 0)
            return GOV_EPARSE;
    }
    do {
        t = next_field(&p, end, &tl);
        if (!t || tl == 0)
            return GOV_EPARSE;
    } while (!(tl == 1 && t[0] == '-'));
    fs = next_field(&p, end, &fsl);
    src = next_field(&p, end, &srcl);
    sup = next_field(&p, end, &supl);
    if (!fs || !src || !sup || fsl == 0 || p != end)
        return GOV_EPARSE;
    if (f[3][0] != '/' || f[4][0] != '/')
        return GOV_EPARSE;

    if (gov__token_eq(fs, fsl, "cgroup2"))
        v = 2;
    else if (gov__token_eq(fs, fsl, "cgroup"))
        v = 1;
    else
        return 0;
    if (v != version)
        return 0;
    if (v == 1 && !(controller && list_has(sup, supl, controller)))
        return 0;

    rc = copy_decoded(out->root, sizeof out->root, f[3], fl[3]);
    if (!rc)
        rc = copy_decoded(out->mount_point, sizeof out->mount_point, f[4], fl[4]);
    if (!rc)
        rc = copy_decoded(out->options, sizeof out->options, sup, supl);
    if (rc)
        return rc;
    out->version = v;
    return 1;
}

int gov__mountinfo_find(const char *text, size_t len, int version,
                        const char *controller, gov_mount *out)
{
    gov_lines it = gov__lines_of(text, len, false);
    const char *p;
    size_t n;

    if (!out || (!text && len) || (version != 1 && version != 2) ||
        (version == 1 && !controller))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    while (gov__line_next(&it, &p, &n)) {
        int rc = n ? match_line(p, p + n, version, controller, out) : 0;
        if (rc == 1)
            return 0;
        if (rc < 0) {
            memset(out, 0, sizeof *out);
            return rc;
        }
    }
    return GOV_ENOENT;
}

int gov__proc_cgroup_find(const char *text, size_t len, const char *controller,
                          char *path, size_t cap)
{
    gov_lines it = gov__lines_of(text, len, false);
    const char *p;
    size_t n;

    if (!path || cap == 0 || (!text && len))
        return GOV_EINVAL;
    path[0] = '\0';
    while (gov__line_next(&it, &p, &n)) {
        const char *le = p + n;
        const char *c1, *c2, *ctl, *cg;
        size_t ctll, cgl;

        if (n == 0)
            continue;
        /* "ID:CONTROLLERS:PATH"; the path itself may contain ':'. */
        c1 = memchr(p, ':', (size_t)(le - p));
        c2 = c1 ? memchr(c1 + 1, ':', (size_t)(le - c1 - 1)) : NULL;
        if (!c1 || !c2 || c1 == p)
            return GOV_EPARSE;
        for (const char *d = p; d < c1; d++)
            if (*d < '0' || *d > '9')
                return GOV_EPARSE;
        cg = c2 + 1;
        cgl = (size_t)(le - cg);
        if (cgl == 0 || cg[0] != '/')
            return GOV_EPARSE;
        ctl = c1 + 1;
        ctll = (size_t)(c2 - ctl);
        if (controller ? (ctll > 0 && list_has(ctl, ctll, controller))
                       : (ctll == 0 && c1 - p == 1 && p[0] == '0')) {
            if (cgl >= cap)
                return GOV_ENOSPC;
            memcpy(path, cg, cgl);
            path[cgl] = '\0';
            return 0;
        }
    }
    return GOV_ENOENT;
}
