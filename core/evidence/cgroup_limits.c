/* cgroup_limits.c - CPU quota, cpuset and memory limits of the process's
 * cgroups (v1, v2 and hybrid), read under a root directory over every level
 * that cgroup_locate.c finds.  docs/cgroups.md gives the rules; every
 * unreadable fact stays unknown, never unlimited. */
#include "evidence.h"
#include "snapshot_base.h"
#include "base.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* cgroup v1 prints "no limit" as LONG_MAX rounded down to the page size, so
 * the sentinel lies within one page of LONG_MAX.  Any value at or above
 * LONG_MAX - (1 MiB - 1) is that sentinel for every base page size up to
 * 1 MiB (Linux uses 4 KiB to 256 KiB); no machine has 8 EiB of memory. */
#define V1_UNLIMITED_MIN ((uint64_t)LLONG_MAX - ((UINT64_C(1) << 20) - 1))


/* ---- per-file parsers ---------------------------------------------------- */

int gov__parse_cpu_max(const char *text, size_t len, double *ratio,
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
    gov__trim(&text, &len);
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
    rc = gov__parse_u64(per, pl, &period);
    if (rc)
        return rc;
    if (period == 0)
        return GOV_ERANGE;
    if (gov__token_eq(q, ql, "max")) {
        *unlimited = true;
        return 0;
    }
    rc = gov__parse_u64(q, ql, &quota);
    if (rc)
        return rc;
    if (quota == 0)
        return GOV_ERANGE;
    *ratio = (double)quota / (double)period;
    return 0;
}

int gov__parse_memory_value(const char *text, size_t len, uint64_t *bytes,
                            bool *unlimited)
{
    int rc;

    if (!bytes || !unlimited || (!text && len))
        return GOV_EINVAL;
    *bytes = GOV_UNKNOWN;
    *unlimited = false;
    gov__trim(&text, &len);
    if (gov__token_eq(text, len, "max")) {
        *unlimited = true;
        return 0;
    }
    rc = gov__parse_u64(text, len, bytes);
    /* The kernel prints "max" long before this; it is not a byte count. */
    if (!rc && *bytes == GOV_UNKNOWN)
        rc = GOV_ERANGE;
    if (rc)
        *bytes = GOV_UNKNOWN;
    return rc;
}

int gov__parse_v1_limit(const char *text, size_t len, uint64_t *bytes,
                        bool *unlimited)
{
    int rc;

    if (!bytes || !unlimited || (!text && len))
        return GOV_EINVAL;
    *bytes = GOV_UNKNOWN;
    *unlimited = false;
    rc = gov__parse_u64(text, len, bytes);
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

int gov__memory_stat_find(const char *text, size_t len, const char *key,
                          const char **val, size_t *vlen)
{
    size_t n;
    gov_lines it = gov__lines_of(text, len, true);
    const char *line;

    while (gov__line_next(&it, &line, &n)) {
        const char *v;
        size_t vn;
        if (gov__prefix(line, n, key, &v, &vn) && vn > 0 && v[0] == ' ') {
            *val = v + 1;
            *vlen = vn - 1;
            return 0;
        }
    }
    return GOV_ENOENT;
}


/* Whether a v2 level is known to set no limit of its own for a controller,
 * so that its missing limit files are not missing evidence.  When
 * cgroup.controllers cannot be read, the level's files decide. */
static bool v2_no_limit(const gov_root *root, const char *dir, const char *controller)
{
    char buf[512];
    size_t n;

    if (gov__read_file_in(root, dir, "cgroup.controllers", buf, sizeof buf, &n))
        return false;
    /* A level without the controller enabled has no limit of its own; its
     * parent's limit is another level of the walk. */
    if (!gov__words_have(buf, n, controller))
        return true;
    /* The hierarchy's root has no cgroup.type and never carries cpu.max,
     * memory.max or memory.high: the kernel does not limit it. */
    return !gov__exists_in(root, dir, "cgroup.type");
}

/* ---- CPU ----------------------------------------------------------------- */

/* One level's quota: 1 limited (*ratio), 0 no limit, <0 unknown. */
static int v1_quota(const gov_root *root, const char *dir, double *ratio)
{
    char qb[64], pb[64];
    size_t ql, pl;
    const char *q = qb;
    uint64_t quota, period;

    if (gov__read_file_in(root, dir, "cpu.cfs_quota_us", qb, sizeof qb, &ql))
        return -1;
    gov__trim(&q, &ql);
    if (gov__token_eq(q, ql, "-1"))
        return 0;
    if (gov__parse_u64(q, ql, &quota) || quota == 0)
        return -1;
    if (gov__read_file_in(root, dir, "cpu.cfs_period_us", pb, sizeof pb, &pl) ||
        gov__parse_u64(pb, pl, &period) || period == 0)
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
    if (gov__read_file_in(root, dir, "cpu.max", buf, sizeof buf, &n) ||
        gov__parse_cpu_max(buf, n, ratio, &unlimited))
        return -1;
    return unlimited ? 0 : 1;
}

static void collect_quota(const gov_root *root, const gov_cg_loc *loc,
                          gov_cgroup_evidence *out)
{
    size_t len = strlen(loc->rel);
    double best = INFINITY;
    bool unknown = false;
    char dir[GOV_CG_DIR_CAP];

    do {
        double r = NAN;
        int st;
        gov__cg_level_dir(loc, len, dir);
        st = loc->version == 1 ? v1_quota(root, dir, &r) : v2_quota(root, dir, &r);
        if (st < 0)
            unknown = true;
        else if (st > 0 && r < best)
            best = r;
    } while (gov__cg_up(loc, &len));

    if (isfinite(best)) {
        out->cpu.quota_cores = best;
        out->cpu.quota_status = GOV_LIMIT_LIMITED;
    } else if (!unknown) {
        out->cpu.quota_status = GOV_LIMIT_UNLIMITED;
    }
}

/* The effective cpuset of the process's own cgroup (it already includes the
 * parents).  On v2 a cgroup without the cpuset controller runs on its
 * nearest ancestor's CPUs, so the walk goes up while the file is absent. */
static void collect_cpuset(const gov_root *root, const gov_cg_loc *loc,
                           gov_cgroup_evidence *out)
{
    size_t len = strlen(loc->rel), n;
    char dir[GOV_CG_DIR_CAP], buf[32768]; /* worst ranged list of 8192 CPUs: ~20 KiB */
    gov_cpuset set;
    int rc;

    gov__cg_level_dir(loc, len, dir);
    if (loc->version == 1) {
        rc = gov__read_file_in(root, dir, "cpuset.effective_cpus", buf, sizeof buf, &n);
        if (rc == GOV_ENOENT)
            rc = gov__read_file_in(root, dir, "cpuset.cpus", buf, sizeof buf, &n);
    } else {
        do {
            gov__cg_level_dir(loc, len, dir);
            rc = gov__read_file_in(root, dir, "cpuset.cpus.effective", buf, sizeof buf, &n);
        } while (rc == GOV_ENOENT && gov__cg_up(loc, &len));
    }
    if (rc || gov_cpuset_parse(buf, n, &set) || gov_cpuset_count(&set) == 0)
        return;
    out->cpu.cpuset = set;
    out->cpu.cpuset_count = gov_cpuset_count(&set);
}

/* ---- memory -------------------------------------------------------------- */

/* One level of the memory chain: raw usage and its working set (usage minus
 * the reclaimable inactive file cache), both GOV_UNKNOWN when unreadable. */
typedef struct mem_level {
    uint64_t usage, working_set;
} mem_level;

typedef struct mem_acc {
    bool usage;             /* read each level's usage (else limits alone) */
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
    int rc = gov__read_file_in(root, dir, name, buf, sizeof buf, &n);

    return rc ? rc : gov__parse_u64(buf, n, v);
}

/* memory.stat of a level; a stat larger than the buffer still gives its
 * complete lines (gov__memory_stat_find never reads a cut-off one). */
static bool read_stat(const gov_root *root, const char *dir, char *buf, size_t cap, size_t *n)
{
    int rc = gov__read_file_in(root, dir, "memory.stat", buf, cap, n);

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
        gov__memory_stat_find(stat, n, key, &v, &vl) == 0 && gov__parse_u64(v, vl, &inactive) == 0)
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
    if (gov__read_file_in(root, dir, "memory.max", buf, sizeof buf, &n) ||
        gov__parse_memory_value(buf, n, &max, &unl))
        acc->unknown = true;
    if (gov__read_file_in(root, dir, "memory.high", buf, sizeof buf, &n) ||
        gov__parse_memory_value(buf, n, &high, &unl))
        acc->unknown = true;
    lv = acc->usage ? read_level(root, dir, 2) : (mem_level){ GOV_UNKNOWN, GOV_UNKNOWN };
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

    if (gov__read_file_in(root, dir, "memory.limit_in_bytes", buf, sizeof buf, &n) ||
        gov__parse_v1_limit(buf, n, &limit, &unl))
        acc->unknown = true;
    lv = acc->usage ? read_level(root, dir, 1) : (mem_level){ GOV_UNKNOWN, GOV_UNKNOWN };
    if (own)
        *own = lv;
    acc->limit = min_u64(acc->limit, limit);
    if (limit != GOV_UNKNOWN) {
        add_bound(&acc->remaining, &acc->rem_level, &acc->rem_unknown, limit, &lv);
        add_bound(&acc->planning, &acc->plan_level, &acc->plan_unknown, limit, &lv);
    }
}

/* v1 memory.stat's hierarchical_memory_limit of dir: the limit in force
 * once every ancestor is counted, visible or not.  False when unreadable;
 * *limit is GOV_UNKNOWN for the "no limit" sentinel. */
static bool read_hierarchical(const gov_root *root, const char *dir, uint64_t *limit)
{
    char buf[16384];
    const char *v;
    size_t n, vl;
    bool unl;

    return read_stat(root, dir, buf, sizeof buf, &n) &&
           !gov__memory_stat_find(buf, n, "hierarchical_memory_limit", &v, &vl) &&
           !gov__parse_v1_limit(v, vl, limit, &unl);
}

/* When hierarchical_memory_limit is stricter than every visible level (it
 * includes ancestors above the mount root), its owner's usage is
 * unreadable; the process's own working set (a part of it) gives the
 * closest bound on what remains there. */
static void v1_hierarchical(const gov_root *root, const char *dir, mem_acc *acc,
                            const mem_level *own)
{
    uint64_t hl;

    if (!read_hierarchical(root, dir, &hl)) {
        acc->unknown = true;
        return;
    }
    if (hl == GOV_UNKNOWN || hl >= acc->limit)
        return;
    acc->limit = hl;
    add_bound(&acc->remaining, &acc->rem_level, &acc->rem_unknown, hl, own);
    add_bound(&acc->planning, &acc->plan_level, &acc->plan_unknown, hl, own);
}

/* Limits alone on v1: a finite hierarchical_memory_limit is already the
 * smallest limit of the chain (the kernel's own minimum), so the walk up
 * the levels is skipped: one file instead of one a level, in every task of
 * a wide step.  False (walk the levels) when it says no limit or cannot be
 * read, so that a level's unreadable limit still makes the status unknown. */
static bool v1_limit_only(const gov_root *root, const gov_cg_loc *loc, gov_cgroup_evidence *out)
{
    char dir[GOV_CG_DIR_CAP];
    uint64_t hl;

    gov__cg_level_dir(loc, strlen(loc->rel), dir);
    if (!read_hierarchical(root, dir, &hl) || hl == GOV_UNKNOWN)
        return false;
    out->memory.limit_bytes = hl;
    out->memory.status = GOV_LIMIT_LIMITED;
    return true;
}

static void collect_memory(const gov_root *root, const gov_cg_loc *loc, bool usage,
                           gov_cgroup_evidence *out)
{
    mem_acc acc = { .usage = usage, .limit = GOV_UNKNOWN, .high = GOV_UNKNOWN,
                    .remaining = GOV_UNKNOWN, .planning = GOV_UNKNOWN };
    mem_level own = { GOV_UNKNOWN, GOV_UNKNOWN }, shown;
    size_t len = strlen(loc->rel);
    char dir[GOV_CG_DIR_CAP];
    bool is_own = true;

    if (!usage && loc->version == 1 && v1_limit_only(root, loc, out))
        return;
    do {
        gov__cg_level_dir(loc, len, dir);
        if (loc->version == 1)
            v1_memory_level(root, dir, &acc, is_own ? &own : NULL);
        else
            v2_memory_level(root, dir, &acc, is_own ? &own : NULL);
        is_own = false;
    } while (gov__cg_up(loc, &len));
    if (loc->version == 1) {
        gov__cg_level_dir(loc, strlen(loc->rel), dir);
        v1_hierarchical(root, dir, &acc, &own);
    }

    out->memory.limit_bytes = acc.limit;
    out->memory.high_bytes = acc.high;
    if (acc.limit != GOV_UNKNOWN || acc.high != GOV_UNKNOWN) {
        out->memory.status = GOV_LIMIT_LIMITED;
        out->memory.remaining_bytes = acc.rem_unknown ? GOV_UNKNOWN : acc.remaining;
        out->memory.planning_remaining_bytes = acc.plan_unknown ? GOV_UNKNOWN : acc.planning;
    } else if (!acc.unknown) {
        out->memory.status = GOV_LIMIT_UNLIMITED;
    }
    /* Usage is shown for the level that binds: the hard limit's, else the
     * planning bound's, else the process's own cgroup. */
    shown = acc.remaining != GOV_UNKNOWN ? acc.rem_level
            : acc.planning != GOV_UNKNOWN ? acc.plan_level : own;
    out->memory.current_bytes = shown.usage;
    out->memory.working_set_bytes = shown.working_set;
}

/* ---- the collector ------------------------------------------------------- */


static void collect(const gov_root *root, bool usage, gov_cgroup_evidence *out)
{
    gov_cg_text *t;
    gov_cg_loc cpu, cpuset, mem;
    bool read;

    if (!out)
        return;
    memset(out, 0, sizeof *out);
    GOV_SET_UNKNOWN(&out->cpu, cpu.cgroup);
    GOV_SET_UNKNOWN(&out->memory, memory.cgroup);
    out->devices_confined = -1;

    /* Not calloc: a task may run this in a forked copy of slurmstepd,
     * where each page written costs a fault; the texts are used only as
     * far as they were read. */
    t = malloc(sizeof *t);
    if (!t)
        return;
    t->mountinfo = NULL;
    read = gov__cg_read_texts(root, t);
    if (read) {
        gov__cg_locate(root, t, "cpu", "cpu.max", &cpu);
        gov__cg_locate(root, t, "cpuset", "cpuset.cpus.effective", &cpuset);
        gov__cg_locate(root, t, "memory", "memory.max", &mem);
        if (cpu.mapped)
            collect_quota(root, &cpu, out);
        if (cpuset.mapped)
            collect_cpuset(root, &cpuset, out);
        if (mem.mapped)
            collect_memory(root, &mem, usage, out);
        out->cpu.version = cpu.version ? cpu.version : cpuset.version;
        out->memory.version = mem.version;
        /* The pressure files are for readers of usage, not for a plan. */
        if (usage)
            gov__cg_pressure_dir(root, t, out);
        out->devices_confined = gov__cg_devices_confined(t);
    }
    free(t->mountinfo);
    free(t);
}


void gov__cgroup_collect(const gov_root *root, gov_cgroup_evidence *out)
{
    collect(root, true, out);
}

void gov__cgroup_collect_limits(const gov_root *root, gov_cgroup_evidence *out)
{
    collect(root, false, out);
}
