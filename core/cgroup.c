/* cgroup.c - CPU quota, cpuset and memory limits of the process's cgroups
 * (v1, v2 and hybrid), read under a root directory.  docs/cgroups.md gives
 * the rules; every unreadable fact stays unknown, never unlimited. */
#include "cgroup.h"
#include "text.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cgroup v1 prints "no limit" as LONG_MAX rounded down to the page size, so
 * the sentinel lies within one page of LONG_MAX.  Any value at or above
 * LONG_MAX - (1 MiB - 1) is that sentinel for every base page size up to
 * 1 MiB (Linux uses 4 KiB to 256 KiB); no machine has 8 EiB of memory. */
#define V1_UNLIMITED_MIN ((uint64_t)LLONG_MAX - ((UINT64_C(1) << 20) - 1))

#define DIR_CAP 2048
#define MOUNTINFO_MAX (16u << 20)

/* ---- per-file parsers ---------------------------------------------------- */

int gov_parse_cpu_max(const char *text, size_t len, double *ratio,
                      bool *unlimited)
{
    const char *q, *per;
    size_t ql, pl;
    uint64_t quota, period;
    int rc;

    if (!ratio || !unlimited || (!text && len))
        return GOV_EINVAL;
    *ratio = NAN;
    *unlimited = false;
    gov_trim(&text, &len);
    /* "$MAX $PERIOD": exactly two fields separated by one space. */
    q = text;
    per = memchr(text, ' ', len);
    if (!per)
        return GOV_EPARSE;
    ql = (size_t)(per - q);
    per++;
    pl = len - ql - 1;
    if (ql == 0 || pl == 0 || memchr(per, ' ', pl))
        return GOV_EPARSE;
    rc = gov_parse_u64(per, pl, &period);
    if (rc)
        return rc;
    if (period == 0)
        return GOV_ERANGE;
    if (gov_token_eq(q, ql, "max")) {
        *unlimited = true;
        return 0;
    }
    rc = gov_parse_u64(q, ql, &quota);
    if (rc)
        return rc;
    if (quota == 0)
        return GOV_ERANGE;
    *ratio = (double)quota / (double)period;
    return 0;
}

int gov_parse_memory_value(const char *text, size_t len, uint64_t *bytes,
                           bool *unlimited)
{
    int rc;

    if (!bytes || !unlimited || (!text && len))
        return GOV_EINVAL;
    *bytes = GOV_UNKNOWN;
    *unlimited = false;
    gov_trim(&text, &len);
    if (gov_token_eq(text, len, "max")) {
        *unlimited = true;
        return 0;
    }
    rc = gov_parse_u64(text, len, bytes);
    /* The kernel prints "max" long before this; it is not a byte count. */
    if (!rc && *bytes == GOV_UNKNOWN)
        rc = GOV_ERANGE;
    if (rc)
        *bytes = GOV_UNKNOWN;
    return rc;
}

int gov_parse_v1_limit(const char *text, size_t len, uint64_t *bytes,
                       bool *unlimited)
{
    int rc;

    if (!bytes || !unlimited || (!text && len))
        return GOV_EINVAL;
    *bytes = GOV_UNKNOWN;
    *unlimited = false;
    rc = gov_parse_u64(text, len, bytes);
    if (rc) {
        *bytes = GOV_UNKNOWN;
        return rc;
    }
    if (*bytes >= V1_UNLIMITED_MIN) {
        *bytes = GOV_UNKNOWN;
        *unlimited = true;
    }
    return 0;
}

int gov_memory_stat_find(const char *text, size_t len, const char *key,
                         const char **val, size_t *vlen)
{
    size_t kl = strlen(key), n;
    gov_lines it = gov_lines_of(text, len, true);
    const char *line;

    while (gov_line_next(&it, &line, &n)) {
        if (n > kl && memcmp(line, key, kl) == 0 && line[kl] == ' ') {
            *val = line + kl + 1;
            *vlen = n - kl - 1;
            return 0;
        }
    }
    return GOV_ENOENT;
}

/* Whether a space-separated list (cgroup.controllers) holds `word`. */
static bool words_have(const char *s, size_t len, const char *word)
{
    const char *end = s + len;

    while (s < end) {
        const char *w;
        while (s < end && gov_is_space(*s))
            s++;
        w = s;
        while (s < end && !gov_is_space(*s))
            s++;
        if (s > w && gov_token_eq(w, (size_t)(s - w), word))
            return true;
    }
    return false;
}

/* ---- locating a controller's cgroup -------------------------------------- */

/* Where a controller's cgroup lives: the mount point and the process's path
 * relative to the mount root; levels are walked by cutting `rel`. */
typedef struct cg_loc {
    int version;          /* 0 when no hierarchy carries the controller */
    bool mapped;          /* the path lies inside the mount root */
    char base[1024];      /* mount point without a trailing '/' */
    char rel[DIR_CAP];    /* "" (mount root) or "/a/b" */
} cg_loc;

typedef struct cg_text {
    char *mountinfo;
    size_t mountinfo_len;
    char proc[16384];
    size_t proc_len;
} cg_text;

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
static bool map_path(const gov_mount *m, const char *path, cg_loc *loc)
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
    if (bl + relen + 1 >= DIR_CAP)
        return false;
    memcpy(loc->rel, rel, relen);
    loc->rel[relen] = '\0';
    return true;
}

/* Pick the mount of `version` (and v1 controller) that holds `path`.  With
 * several mounts of one hierarchy (bind mounts), the first one whose root
 * contains the path wins.  Returns true when some mount matched at all. */
static bool find_mount(const cg_text *t, int version, const char *controller,
                       const char *path, cg_loc *loc)
{
    gov_lines it = gov_lines_of(t->mountinfo, t->mountinfo_len, false);
    const char *line;
    bool found = false;
    gov_mount m;
    size_t n;

    while (gov_line_next(&it, &line, &n)) {
        int rc = gov_mountinfo_find(line, n, version, controller, &m);
        if (rc == 0) {
            cg_loc cand;
            memset(&cand, 0, sizeof cand);
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
static void level_dir(const cg_loc *loc, size_t rel_len, char *dir)
{
    size_t bl = strlen(loc->base);

    memcpy(dir, loc->base, bl);
    memcpy(dir + bl, loc->rel, rel_len);
    dir[bl + rel_len] = '\0';
    if (dir[0] == '\0')
        strcpy(dir, "/");
}

static int read_in(const gov_root *root, const char *dir, const char *name,
                   char *buf, size_t cap, size_t *len)
{
    char path[DIR_CAP + 64];
    size_t dl = strlen(dir);

    if (dl + 1 + strlen(name) + 1 > sizeof path)
        return GOV_ENOSPC;
    memcpy(path, dir, dl);
    if (dl == 0 || dir[dl - 1] != '/')
        path[dl++] = '/';
    strcpy(path + dl, name);
    return gov_read_file(root, path, buf, cap, len);
}

static bool exists_in(const gov_root *root, const char *dir, const char *name)
{
    char rel[DIR_CAP + 64];

    if (snprintf(rel, sizeof rel, "%s/%s", dir, name) >= (int)sizeof rel)
        return false;
    return gov_root_access(root, rel, F_OK) == 0;
}

/* Whether a v2 level is known to set no limit of its own for a controller,
 * so that its missing limit files are not missing evidence.  When
 * cgroup.controllers cannot be read, the level's files decide. */
static bool v2_no_limit(const gov_root *root, const char *dir, const char *controller)
{
    char buf[512];
    size_t n;

    if (read_in(root, dir, "cgroup.controllers", buf, sizeof buf, &n))
        return false;
    /* A level without the controller enabled has no limit of its own; its
     * parent's limit is another level of the walk. */
    if (!words_have(buf, n, controller))
        return true;
    /* The hierarchy's root has no cgroup.type and never carries cpu.max,
     * memory.max or memory.high: the kernel does not limit it. */
    return !exists_in(root, dir, "cgroup.type");
}

/* Whether the v2 hierarchy carries a controller: the mount root's
 * cgroup.controllers lists every controller usable below it; without that
 * file, the presence of the controller's file in the process's cgroup. */
static bool v2_carries(const gov_root *root, const cg_loc *loc,
                       const char *controller, const char *probe)
{
    char dir[DIR_CAP], buf[512];
    size_t n;

    level_dir(loc, 0, dir);
    if (read_in(root, dir, "cgroup.controllers", buf, sizeof buf, &n) == 0)
        return words_have(buf, n, controller);
    if (!loc->mapped)
        return false;
    level_dir(loc, strlen(loc->rel), dir);
    return exists_in(root, dir, probe);
}

/* v1 when a v1 mount carries the controller and /proc/self/cgroup names it;
 * else v2 when the v2 hierarchy carries it; else none. */
static void locate(const gov_root *root, const cg_text *t, const char *controller,
                   const char *probe_v2, cg_loc *loc)
{
    char path[DIR_CAP];

    memset(loc, 0, sizeof *loc);
    if (gov_proc_cgroup_find(t->proc, t->proc_len, controller, path, sizeof path) == 0 &&
        find_mount(t, 1, controller, path, loc)) {
        loc->version = 1;
        return;
    }
    memset(loc, 0, sizeof *loc);
    if (gov_proc_cgroup_find(t->proc, t->proc_len, NULL, path, sizeof path) == 0 &&
        find_mount(t, 2, NULL, path, loc) && v2_carries(root, loc, controller, probe_v2)) {
        loc->version = 2;
        return;
    }
    memset(loc, 0, sizeof *loc);
}

/* Cut the last component of rel[0..*len); false past the mount root. */
static bool up(const cg_loc *loc, size_t *len)
{
    if (*len == 0)
        return false;
    while (*len > 0 && loc->rel[*len - 1] != '/')
        (*len)--;
    if (*len > 0)
        (*len)--;
    return true;
}

/* ---- CPU ----------------------------------------------------------------- */

/* One level's quota: 1 limited (*ratio), 0 no limit, <0 unknown. */
static int v1_quota(const gov_root *root, const char *dir, double *ratio)
{
    char qb[64], pb[64];
    size_t ql, pl;
    const char *q = qb;
    uint64_t quota, period;

    if (read_in(root, dir, "cpu.cfs_quota_us", qb, sizeof qb, &ql))
        return -1;
    gov_trim(&q, &ql);
    if (gov_token_eq(q, ql, "-1"))
        return 0;
    if (gov_parse_u64(q, ql, &quota) || quota == 0)
        return -1;
    if (read_in(root, dir, "cpu.cfs_period_us", pb, sizeof pb, &pl) ||
        gov_parse_u64(pb, pl, &period) || period == 0)
        return -1;
    *ratio = (double)quota / (double)period;
    return 1;
}

static int v2_quota(const gov_root *root, const char *dir, double *ratio)
{
    char buf[128];
    size_t n;
    bool unlimited;

    if (v2_no_limit(root, dir, "cpu"))
        return 0;
    if (read_in(root, dir, "cpu.max", buf, sizeof buf, &n) ||
        gov_parse_cpu_max(buf, n, ratio, &unlimited))
        return -1;
    return unlimited ? 0 : 1;
}

static void collect_quota(const gov_root *root, const cg_loc *loc,
                          gov_cgroup_evidence *out)
{
    size_t len = strlen(loc->rel);
    double best = INFINITY;
    bool unknown = false;
    char dir[DIR_CAP];

    do {
        double r = NAN;
        int st;
        level_dir(loc, len, dir);
        st = loc->version == 1 ? v1_quota(root, dir, &r) : v2_quota(root, dir, &r);
        if (st < 0)
            unknown = true;
        else if (st > 0 && r < best)
            best = r;
    } while (up(loc, &len));

    if (isfinite(best)) {
        out->quota_cores = best;
        out->quota_status = GOV_LIMIT_LIMITED;
    } else if (!unknown) {
        out->quota_status = GOV_LIMIT_UNLIMITED;
    }
}

/* The effective cpuset of the process's own cgroup (it already includes the
 * parents).  On v2 a cgroup without the cpuset controller runs on its
 * nearest ancestor's CPUs, so the walk goes up while the file is absent. */
static void collect_cpuset(const gov_root *root, const cg_loc *loc,
                           gov_cgroup_evidence *out)
{
    size_t len = strlen(loc->rel), n;
    char dir[DIR_CAP], buf[32768]; /* worst ranged list of 8192 CPUs: ~20 KiB */
    gov_cpuset set;
    int rc;

    level_dir(loc, len, dir);
    if (loc->version == 1) {
        rc = read_in(root, dir, "cpuset.effective_cpus", buf, sizeof buf, &n);
        if (rc == GOV_ENOENT)
            rc = read_in(root, dir, "cpuset.cpus", buf, sizeof buf, &n);
    } else {
        do {
            level_dir(loc, len, dir);
            rc = read_in(root, dir, "cpuset.cpus.effective", buf, sizeof buf, &n);
        } while (rc == GOV_ENOENT && up(loc, &len));
    }
    if (rc || gov_cpuset_parse(buf, n, &set) || gov_cpuset_count(&set) == 0)
        return;
    out->cpuset = set;
    out->cpuset_count = gov_cpuset_count(&set);
}

/* ---- memory -------------------------------------------------------------- */

/* One level of the memory chain: raw usage and its working set (usage minus
 * the reclaimable inactive file cache), both GOV_UNKNOWN when unreadable. */
typedef struct mem_level {
    uint64_t usage, working_set;
} mem_level;

typedef struct mem_acc {
    bool unknown;           /* some level's limit could not be read */
    bool rem_unknown;       /* a hard-limited level's usage could not be read */
    bool plan_unknown;      /* the same for a level bounded by max or high */
    uint64_t limit, high;   /* most restrictive finite values, or GOV_UNKNOWN */
    uint64_t remaining;     /* min of hard limit - working set */
    uint64_t planning;      /* min of min(max, high) - working set */
    mem_level rem_level;    /* the level that sets `remaining` */
    mem_level plan_level;   /* the level that sets `planning` */
} mem_acc;

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Lower *best to bound - working set (never below 0) and remember the level
 * that sets it; on ties the deeper level, seen first, keeps it. */
static void add_bound(uint64_t *best, mem_level *at, bool *unknown, uint64_t bound,
                      const mem_level *lv)
{
    uint64_t left;

    if (lv->working_set == GOV_UNKNOWN) {
        *unknown = true;
        return;
    }
    left = lv->working_set >= bound ? 0 : bound - lv->working_set;
    if (*best == GOV_UNKNOWN || left < *best) {
        *best = left;
        *at = *lv;
    }
}

static int read_u64_in(const gov_root *root, const char *dir, const char *name,
                       uint64_t *v)
{
    char buf[64];
    size_t n;
    int rc = read_in(root, dir, name, buf, sizeof buf, &n);

    return rc ? rc : gov_parse_u64(buf, n, v);
}

/* memory.stat of a level; a stat larger than the buffer still gives its
 * complete lines (gov_memory_stat_find never reads a cut-off one). */
static bool read_stat(const gov_root *root, const char *dir, char *buf, size_t cap, size_t *n)
{
    int rc = read_in(root, dir, "memory.stat", buf, cap, n);

    return rc == 0 || rc == GOV_ENOSPC;
}

/* Usage and working set of one level.  The inactive file counter is v2's
 * inactive_file, v1's hierarchical total_inactive_file; without it the
 * working set is the usage (conservative). */
static mem_level read_level(const gov_root *root, const char *dir, int version)
{
    const char *usage_file = version == 1 ? "memory.usage_in_bytes" : "memory.current";
    const char *key = version == 1 ? "total_inactive_file" : "inactive_file";
    mem_level lv = { GOV_UNKNOWN, GOV_UNKNOWN };
    char stat[16384];
    const char *v;
    size_t n, vl;
    uint64_t inactive;

    if (read_u64_in(root, dir, usage_file, &lv.usage))
        return (mem_level){ GOV_UNKNOWN, GOV_UNKNOWN };
    lv.working_set = lv.usage;
    if (read_stat(root, dir, stat, sizeof stat, &n) &&
        gov_memory_stat_find(stat, n, key, &v, &vl) == 0 && gov_parse_u64(v, vl, &inactive) == 0)
        lv.working_set = inactive >= lv.usage ? 0 : lv.usage - inactive;
    return lv;
}

static void v2_memory_level(const gov_root *root, const char *dir, mem_acc *acc,
                            mem_level *own)
{
    char buf[64];
    size_t n;
    uint64_t max = GOV_UNKNOWN, high = GOV_UNKNOWN;
    bool unl;
    mem_level lv;

    if (v2_no_limit(root, dir, "memory"))
        return;
    if (read_in(root, dir, "memory.max", buf, sizeof buf, &n) ||
        gov_parse_memory_value(buf, n, &max, &unl))
        acc->unknown = true;
    if (read_in(root, dir, "memory.high", buf, sizeof buf, &n) ||
        gov_parse_memory_value(buf, n, &high, &unl))
        acc->unknown = true;
    lv = read_level(root, dir, 2);
    if (own)
        *own = lv;
    acc->limit = min_u64(acc->limit, max);
    acc->high = min_u64(acc->high, high);
    if (max != GOV_UNKNOWN)
        add_bound(&acc->remaining, &acc->rem_level, &acc->rem_unknown, max, &lv);
    /* memory.high is a planning bound: past it the kernel throttles. */
    if (min_u64(max, high) != GOV_UNKNOWN)
        add_bound(&acc->planning, &acc->plan_level, &acc->plan_unknown,
                  min_u64(max, high), &lv);
}

static void v1_memory_level(const gov_root *root, const char *dir, mem_acc *acc,
                            mem_level *own)
{
    char buf[64];
    size_t n;
    uint64_t limit = GOV_UNKNOWN;
    bool unl;
    mem_level lv;

    if (read_in(root, dir, "memory.limit_in_bytes", buf, sizeof buf, &n) ||
        gov_parse_v1_limit(buf, n, &limit, &unl))
        acc->unknown = true;
    lv = read_level(root, dir, 1);
    if (own)
        *own = lv;
    acc->limit = min_u64(acc->limit, limit);
    if (limit != GOV_UNKNOWN) {
        add_bound(&acc->remaining, &acc->rem_level, &acc->rem_unknown, limit, &lv);
        add_bound(&acc->planning, &acc->plan_level, &acc->plan_unknown, limit, &lv);
    }
}

/* v1 memory.stat's hierarchical_memory_limit includes ancestors hidden from
 * view (a mount root below the hierarchy's root).  When it is stricter than
 * every visible level, its owner's usage is unreadable; the process's own
 * working set (a part of it) gives the closest bound on what remains there. */
static void v1_hierarchical(const gov_root *root, const char *dir, mem_acc *acc,
                            const mem_level *own)
{
    char buf[16384];
    const char *v;
    size_t n, vl;
    uint64_t hl;
    bool unl;

    if (!read_stat(root, dir, buf, sizeof buf, &n) ||
        gov_memory_stat_find(buf, n, "hierarchical_memory_limit", &v, &vl) ||
        gov_parse_v1_limit(v, vl, &hl, &unl)) {
        acc->unknown = true;
        return;
    }
    if (hl == GOV_UNKNOWN || hl >= acc->limit)
        return;
    acc->limit = hl;
    add_bound(&acc->remaining, &acc->rem_level, &acc->rem_unknown, hl, own);
    add_bound(&acc->planning, &acc->plan_level, &acc->plan_unknown, hl, own);
}

static void collect_memory(const gov_root *root, const cg_loc *loc,
                           gov_cgroup_evidence *out)
{
    mem_acc acc = { .limit = GOV_UNKNOWN, .high = GOV_UNKNOWN,
                    .remaining = GOV_UNKNOWN, .planning = GOV_UNKNOWN };
    mem_level own = { GOV_UNKNOWN, GOV_UNKNOWN }, shown;
    size_t len = strlen(loc->rel);
    char dir[DIR_CAP];
    bool is_own = true;

    do {
        level_dir(loc, len, dir);
        if (loc->version == 1)
            v1_memory_level(root, dir, &acc, is_own ? &own : NULL);
        else
            v2_memory_level(root, dir, &acc, is_own ? &own : NULL);
        is_own = false;
    } while (up(loc, &len));
    if (loc->version == 1) {
        level_dir(loc, strlen(loc->rel), dir);
        v1_hierarchical(root, dir, &acc, &own);
    }

    out->limit_bytes = acc.limit;
    out->high_bytes = acc.high;
    if (acc.limit != GOV_UNKNOWN || acc.high != GOV_UNKNOWN) {
        out->memory_status = GOV_LIMIT_LIMITED;
        out->remaining_bytes = acc.rem_unknown ? GOV_UNKNOWN : acc.remaining;
        out->planning_remaining_bytes = acc.plan_unknown ? GOV_UNKNOWN : acc.planning;
    } else if (!acc.unknown) {
        out->memory_status = GOV_LIMIT_UNLIMITED;
    }
    /* Usage is shown for the level that binds: the hard limit's, else the
     * planning bound's, else the process's own cgroup. */
    shown = acc.remaining != GOV_UNKNOWN ? acc.rem_level
            : acc.planning != GOV_UNKNOWN ? acc.plan_level : own;
    out->current_bytes = shown.usage;
    out->working_set_bytes = shown.working_set;
}

/* ---- pressure directory -------------------------------------------------- */

static void collect_pressure_dir(const gov_root *root, const cg_text *t,
                                 gov_cgroup_evidence *out)
{
    static const char *const files[] = { "cpu.pressure", "memory.pressure", "io.pressure" };
    char path[DIR_CAP];
    cg_loc loc;

    memset(&loc, 0, sizeof loc);
    if (gov_proc_cgroup_find(t->proc, t->proc_len, NULL, path, sizeof path) ||
        !find_mount(t, 2, NULL, path, &loc) || !loc.mapped)
        return;
    level_dir(&loc, strlen(loc.rel), path);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (exists_in(root, path, files[i])) {
            strcpy(out->pressure_dir, path);
            out->has_pressure_dir = true;
            /* The hierarchy's root (no cgroup.type; a hybrid host keeps every
             * process there) accounts the whole system, not the process. */
            out->pressure_dir_is_root = loc.rel[0] == '\0' &&
                                        !exists_in(root, path, "cgroup.type");
            return;
        }
    }
}

/* ---- devices ------------------------------------------------------------- */

/* v1 only: the devices controller's cgroup below the root means a device
 * allowlist (Slurm's ConstrainDevices); the root cgroup allows every
 * device.  v2 keeps device rules in eBPF programs that an unprivileged
 * process cannot list, so there it stays unknown. */
static int devices_confined(const cg_text *t)
{
    char path[DIR_CAP];
    cg_loc loc;

    memset(&loc, 0, sizeof loc);
    if (gov_proc_cgroup_find(t->proc, t->proc_len, "devices", path, sizeof path) ||
        !find_mount(t, 1, "devices", path, &loc))
        return -1;
    return strcmp(path, "/") != 0;
}

/* ---- the collector ------------------------------------------------------- */

/* mountinfo grows with every mount (containers, job tmpfs): read it whole. */
static bool read_texts(const gov_root *root, cg_text *t)
{
    size_t cap = 65536;

    if (gov_read_file(root, "/proc/self/cgroup", t->proc, sizeof t->proc, &t->proc_len))
        return false;
    for (;;) {
        int rc;
        char *b = realloc(t->mountinfo, cap);
        if (!b)
            return false;
        t->mountinfo = b;
        rc = gov_read_file(root, "/proc/self/mountinfo", b, cap, &t->mountinfo_len);
        if (rc == 0)
            return true;
        if (rc != GOV_ENOSPC || cap >= MOUNTINFO_MAX)
            return false;
        cap *= 2;
    }
}

void gov_cgroup_collect(const gov_root *root, gov_cgroup_evidence *out)
{
    cg_text *t;
    cg_loc cpu, cpuset, mem;

    if (!out)
        return;
    memset(out, 0, sizeof *out);
    out->quota_cores = NAN;
    out->quota_status = GOV_LIMIT_UNKNOWN;
    out->cpuset_count = GOV_UNKNOWN;
    out->memory_status = GOV_LIMIT_UNKNOWN;
    out->limit_bytes = out->high_bytes = GOV_UNKNOWN;
    out->current_bytes = out->working_set_bytes = GOV_UNKNOWN;
    out->remaining_bytes = out->planning_remaining_bytes = GOV_UNKNOWN;
    out->devices_confined = -1;

    t = calloc(1, sizeof *t);
    if (!t)
        return;
    if (read_texts(root, t)) {
        locate(root, t, "cpu", "cpu.max", &cpu);
        locate(root, t, "cpuset", "cpuset.cpus.effective", &cpuset);
        locate(root, t, "memory", "memory.max", &mem);
        if (cpu.mapped)
            collect_quota(root, &cpu, out);
        if (cpuset.mapped)
            collect_cpuset(root, &cpuset, out);
        if (mem.mapped)
            collect_memory(root, &mem, out);
        out->cpu_version = cpu.version ? cpu.version : cpuset.version;
        out->memory_version = mem.version;
        collect_pressure_dir(root, t, out);
        out->devices_confined = devices_confined(t);
    }
    free(t->mountinfo);
    free(t);
}

int gov_cgroup_devices_confined(const gov_root *root)
{
    cg_text *t = calloc(1, sizeof *t);
    int confined = -1;

    if (t && read_texts(root, t))
        confined = devices_confined(t);
    if (t)
        free(t->mountinfo);
    free(t);
    return confined;
}
