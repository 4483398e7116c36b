/* cgroup_locate.c - where the process's cgroup for a controller is: its
 * hierarchy (v1, v2, or none on a hybrid host), mount point and path,
 * found through /proc/self/mountinfo and /proc/self/cgroup exactly as on a
 * live system (docs/cgroups.md); and the levels above it.  What each level
 * allows is cgroup_limits.c's. */
#include "evidence.h"
#include "base.h"

#include <stdlib.h>
#include <string.h>

/* mountinfo grows with every mount (containers, job tmpfs), up to this. */
#define MOUNTINFO_MAX (16u << 20)


/* No location.  Fields, not memset: a gov_cg_loc is 3 KiB, and a task may
 * locate its cgroups in a forked slurmstepd, where every page written is a
 * fault. */
static void loc_none(gov_cg_loc *loc)
{
    loc->version = 0;
    loc->mapped = false;
    loc->base[0] = loc->rel[0] = '\0';
}

static bool has_dotdot(const char *path)
{
    for (const char *p = path; *p; ) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return true;
        if (!e)
            break;
        p = e + 1;
    }
    return false;
}

/* Strip the mount root from the cgroup path component-wise ("/a" contains
 * "/a/b", not "/ab").  Fails when the path is outside the mount root or the
 * cgroup namespace ("/.."). */
static bool map_path(const gov_mount *m, const char *path, gov_cg_loc *loc)
{
    size_t rl = strlen(m->root), bl = strlen(m->mount_point);
    const char *rel;
    size_t relen;

    /* The mount point is known even when the path is not inside it: the
     * mount root's cgroup.controllers still tells which hierarchy governs. */
    while (bl > 0 && m->mount_point[bl - 1] == '/')
        bl--;
    if (bl >= sizeof loc->base)
        return false;
    memcpy(loc->base, m->mount_point, bl);
    loc->base[bl] = '\0';
    loc->rel[0] = '\0';
    if (has_dotdot(path) || has_dotdot(m->root))
        return false;
    while (rl > 0 && m->root[rl - 1] == '/')
        rl--;
    if (strncmp(path, m->root, rl) != 0 || (path[rl] != '\0' && path[rl] != '/'))
        return false;
    rel = path + rl;
    relen = strlen(rel);
    while (relen > 0 && rel[relen - 1] == '/')
        relen--;
    if (bl + relen + 1 >= GOV_CG_DIR_CAP)
        return false;
    memcpy(loc->rel, rel, relen);
    loc->rel[relen] = '\0';
    return true;
}

/* Pick the mount of `version` (and v1 controller) that holds `path`.  With
 * several mounts of one hierarchy (bind mounts), the first one whose root
 * contains the path wins.  Returns true when some mount matched at all. */
static bool find_mount(const gov_cg_text *t, int version, const char *controller,
                       const char *path, gov_cg_loc *loc)
{
    gov_lines it = gov__lines_of(t->mountinfo, t->mountinfo_len, false);
    const char *line;
    bool found = false;
    gov_mount m;
    size_t n;

    while (gov__line_next(&it, &line, &n)) {
        int rc = gov__mountinfo_find(line, n, version, controller, &m);
        if (rc == 0) {
            gov_cg_loc cand;
            loc_none(&cand);
            cand.mapped = map_path(&m, path, &cand);
            if (cand.mapped || !found)
                *loc = cand;
            found = true;
            if (cand.mapped)
                return true;
        } else if (rc == GOV_EPARSE) {
            loc->mapped = false;
            return false;    /* not a mountinfo: nothing in it is evidence */
        }
    }
    return found;
}

/* Build the directory of a level: base + the first `rel_len` bytes of rel. */
void gov__cg_level_dir(const gov_cg_loc *loc, size_t rel_len, char *dir)
{
    size_t bl = strlen(loc->base);

    memcpy(dir, loc->base, bl);
    memcpy(dir + bl, loc->rel, rel_len);
    dir[bl + rel_len] = '\0';
    if (dir[0] == '\0')
        strcpy(dir, "/");
}




/* Whether the v2 hierarchy carries a controller: the mount root's
 * cgroup.controllers lists every controller usable below it; without that
 * file, the presence of the controller's file in the process's cgroup. */
static bool v2_carries(const gov_root *root, const gov_cg_loc *loc,
                       const char *controller, const char *probe)
{
    char dir[GOV_CG_DIR_CAP], buf[512];
    size_t n;

    gov__cg_level_dir(loc, 0, dir);
    if (gov__read_file_in(root, dir, "cgroup.controllers", buf, sizeof buf, &n) == 0)
        return gov__words_have(buf, n, controller);
    if (!loc->mapped)
        return false;
    gov__cg_level_dir(loc, strlen(loc->rel), dir);
    return gov__exists_in(root, dir, probe);
}

/* v1 when a v1 mount carries the controller and /proc/self/cgroup names it;
 * else v2 when the v2 hierarchy carries it; else none. */
void gov__cg_locate(const gov_root *root, const gov_cg_text *t, const char *controller,
                    const char *probe_v2, gov_cg_loc *loc)
{
    char path[GOV_CG_DIR_CAP];

    loc_none(loc);
    if (gov__proc_cgroup_find(t->proc, t->proc_len, controller, path, sizeof path) == 0 &&
        find_mount(t, 1, controller, path, loc)) {
        loc->version = 1;
        return;
    }
    loc_none(loc);
    if (gov__proc_cgroup_find(t->proc, t->proc_len, NULL, path, sizeof path) == 0 &&
        find_mount(t, 2, NULL, path, loc) && v2_carries(root, loc, controller, probe_v2)) {
        loc->version = 2;
        return;
    }
    loc_none(loc);
}

/* Cut the last component of rel[0..*len); false past the mount root. */
bool gov__cg_up(const gov_cg_loc *loc, size_t *len)
{
    if (*len == 0)
        return false;
    while (*len > 0 && loc->rel[*len - 1] != '/')
        (*len)--;
    if (*len > 0)
        (*len)--;
    return true;
}

/* mountinfo grows with every mount (containers, job tmpfs): read it whole. */
int gov__mountinfo_read(const gov_root *root, char **text, size_t *len)
{
    size_t cap = 65536;
    char *b = NULL;

    for (;;) {
        int rc;
        char *bigger = realloc(b, cap);
        if (!bigger) {
            free(b);
            return GOV_ENOMEM;
        }
        b = bigger;
        rc = gov__read_file(root, "/proc/self/mountinfo", b, cap, len);
        if (rc == 0) {
            *text = b;
            return 0;
        }
        if (rc != GOV_ENOSPC || cap >= MOUNTINFO_MAX) {
            free(b);
            return rc;
        }
        cap *= 2;
    }
}

bool gov__cg_read_texts_of(const gov_root *root, const char *proc_cgroup, gov_cg_text *t)
{
    if (gov__read_file(root, proc_cgroup, t->proc, sizeof t->proc, &t->proc_len))
        return false;
    free(t->mountinfo);
    t->mountinfo = NULL;
    return gov__mountinfo_read(root, &t->mountinfo, &t->mountinfo_len) == 0;
}

bool gov__cg_read_texts(const gov_root *root, gov_cg_text *t)
{
    return gov__cg_read_texts_of(root, "/proc/self/cgroup", t);
}

void gov__cg_pressure_dir(const gov_root *root, const gov_cg_text *t,
                                 gov_cgroup_evidence *out)
{
    static const char *const files[] = { "cpu.pressure", "memory.pressure", "io.pressure" };
    char path[GOV_CG_DIR_CAP];
    gov_cg_loc loc;

    loc_none(&loc);
    if (gov__proc_cgroup_find(t->proc, t->proc_len, NULL, path, sizeof path) ||
        !find_mount(t, 2, NULL, path, &loc) || !loc.mapped)
        return;
    gov__cg_level_dir(&loc, strlen(loc.rel), path);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (gov__exists_in(root, path, files[i])) {
            strcpy(out->pressure_dir, path);
            out->has_pressure_dir = true;
            /* The hierarchy's root (no cgroup.type; a hybrid host keeps every
             * process there) accounts the whole system, not the process. */
            out->pressure_dir_is_root = loc.rel[0] == '\0' &&
                                        !gov__exists_in(root, path, "cgroup.type");
            return;
        }
    }
}

/* v1 only: the devices controller's cgroup below the root means a device
 * allowlist (Slurm's ConstrainDevices); the root cgroup allows every
 * device.  v2 keeps device rules in eBPF programs that an unprivileged
 * process cannot list, so there it stays unknown. */
int gov__cg_devices_confined(const gov_cg_text *t)
{
    char path[GOV_CG_DIR_CAP];
    gov_cg_loc loc;

    loc_none(&loc);
    if (gov__proc_cgroup_find(t->proc, t->proc_len, "devices", path, sizeof path) ||
        !find_mount(t, 1, "devices", path, &loc))
        return -1;
    return strcmp(path, "/") != 0;
}

int gov__cgroup_devices_confined(const gov_root *root)
{
    gov_cg_text *t = calloc(1, sizeof *t);
    int confined = -1;

    if (t && gov__cg_read_texts(root, t))
        confined = gov__cg_devices_confined(t);
    if (t)
        free(t->mountinfo);
    free(t);
    return confined;
}
