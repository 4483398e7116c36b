/* step_usage.c - what a step used, from its cgroups once its tasks have
 * exited (the step report).  The step's cgroup is the parent of a task's
 * own ("task_N"): v2 `step_S/user` under Slurm's cgroup/v2, where the
 * step's limits sit and slurmstepd does not; v1 `step_S` in each
 * hierarchy.  v1 counts an OOM kill in the victim's own cgroup only, so
 * the step's whole subtree is summed (the tasks', and any a user nested
 * below them); v2's memory.events counts the subtree. */
#define _DEFAULT_SOURCE /* DT_DIR */
#include "step_report.h"

#include "evidence.h"
#include "base.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The directory above the task's own cgroup, if that is "task_N". */
static bool step_dir(const gov_cg_loc *loc, char *dir, size_t cap)
{
    const char *last = strrchr(loc->rel, '/');
    uint64_t n;
    size_t len = strlen(loc->rel);

    if (!loc->version || !loc->mapped || !last || !gov__name_number(last + 1, "task_", &n) ||
        !gov__cg_up(loc, &len) || strlen(loc->base) + len >= cap)
        return false;
    gov__cg_level_dir(loc, len, dir);
    return true;
}

int gov__step_cgroups_find(const gov_root *root, const struct gov_cg_text *t,
                           gov_step_cgroups *out)
{
    gov_cg_loc loc;

    memset(out, 0, sizeof *out);
    gov__cg_locate(root, t, "memory", "memory.max", &loc);
    if (!step_dir(&loc, out->dir, sizeof out->dir))
        return GOV_ENOENT;
    out->version = loc.version;
    if (loc.version == 1) {
        gov__cg_locate(root, t, "cpuacct", "cpu.stat", &loc);
        if (loc.version != 1 || !step_dir(&loc, out->cpuacct, sizeof out->cpuacct))
            out->cpuacct[0] = '\0';
    }
    return 0;
}

int gov__step_cgroups_of(const char *proc_cgroup, gov_step_cgroups *out)
{
    gov_cg_text t = { 0 };
    int rc = gov__cg_read_texts_of(NULL, proc_cgroup, &t) ? gov__step_cgroups_find(NULL, &t, out)
                                                          : GOV_ENOENT;

    free(t.mountinfo);
    return rc;
}

static int read_text(const gov_root *root, const char *dir, const char *name, char *buf,
                     size_t cap, size_t *n)
{
    int rc = gov__read_file_in(root, dir, name, buf, cap, n);

    return rc == GOV_ENOSPC ? 0 : rc;   /* the complete lines still count */
}

static uint64_t read_u64(const gov_root *root, const char *dir, const char *name)
{
    char buf[64];
    size_t n;
    uint64_t v;

    if (gov__read_file_in(root, dir, name, buf, sizeof buf, &n) ||
        gov__parse_dec(buf, n, GOV_NUM_SPACE, GOV_UNKNOWN - 1, &v))
        return GOV_UNKNOWN;
    return v;
}

/* "KEY N" in the text of a flat keyed file. */
static uint64_t key_in(const char *text, size_t len, const char *key)
{
    const char *v;
    size_t vl;
    uint64_t x;

    if (gov__memory_stat_find(text, len, key, &v, &vl) ||
        gov__parse_dec(v, vl, 0, GOV_UNKNOWN - 1, &x))
        return GOV_UNKNOWN;
    return x;
}

/* "KEY N" in a flat keyed file (cpu.stat, memory.events, oom_control). */
static uint64_t keyed(const gov_root *root, const char *dir, const char *name, const char *key)
{
    char buf[4096];
    size_t n;

    return read_text(root, dir, name, buf, sizeof buf, &n) ? GOV_UNKNOWN : key_in(buf, n, key);
}

static double seconds(uint64_t v, double per_second)
{
    return v == GOV_UNKNOWN ? NAN : (double)v / per_second;
}

/* The reclaimable page cache charged to the step (its subtree's: v2's
 * memory.stat is hierarchical, v1's total_ keys are): the file LRU lists,
 * which hold no shmem (tmpfs pages are swap-backed, on the anon lists, and
 * never reclaimable without swap). */
static uint64_t file_cache(const gov_root *root, const char *dir, const char *active,
                           const char *inactive)
{
    char buf[16384];
    size_t n;
    uint64_t a, i;

    if (read_text(root, dir, "memory.stat", buf, sizeof buf, &n))
        return GOV_UNKNOWN;
    a = key_in(buf, n, active);
    i = key_in(buf, n, inactive);
    return a == GOV_UNKNOWN || i == GOV_UNKNOWN ? GOV_UNKNOWN : a + i;
}

/* How far and how wide the v1 OOM count walks below the step: a user may
 * nest cgroups below a task's, and its kills count too, but a step's end
 * must not wait on thousands of them. */
#define V1_OOM_DEPTH 16
#define V1_OOM_DIRS 4096

/* v1: the kills counted in every cgroup below dir (v1 counts a kill only
 * in the victim's own cgroup); *budget bounds the directories read. */
static uint64_t v1_oom_below(const gov_root *root, const char *dir, unsigned depth,
                             unsigned *budget)
{
    char path[GOV_CG_DIR_CAP + 300];
    uint64_t sum = 0, k;
    struct dirent *e;
    DIR *d;

    if (depth == 0 || !(d = gov__root_opendir(root, dir)))
        return 0;
    while (*budget && (e = readdir(d))) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
            continue;
        (*budget)--;
        if ((k = keyed(root, path, "memory.oom_control", "oom_kill")) != GOV_UNKNOWN)
            sum += k;
        sum += v1_oom_below(root, path, depth - 1, budget);
    }
    closedir(d);
    return sum;
}

/* The step's own count and its whole subtree's: the tasks', and any cgroup
 * a user nested below them. */
static uint64_t v1_oom_kills(const gov_root *root, const char *dir)
{
    uint64_t sum = keyed(root, dir, "memory.oom_control", "oom_kill");
    unsigned budget = V1_OOM_DIRS;

    return sum == GOV_UNKNOWN ? sum : sum + v1_oom_below(root, dir, V1_OOM_DEPTH, &budget);
}

static void psi_totals(const gov_root *root, const char *dir, const char *name, double *some,
                double *full)
{
    char buf[512];
    size_t n;
    gov_psi p;

    if (read_text(root, dir, name, buf, sizeof buf, &n) ||
        gov__psi_parse(buf, n, GOV_PSI_STRICT, &p))
        return;
    *some = seconds(p.some_total_us, 1e6);
    if (full)
        *full = seconds(p.full_total_us, 1e6);
}

/* The step's hard memory limit at its end; unknown without one. */
static uint64_t memory_limit(const gov_root *root, const char *dir, int version)
{
    char buf[64];
    size_t n;
    uint64_t v;
    bool unlimited;
    int rc;

    if (read_text(root, dir, version == 2 ? "memory.max" : "memory.limit_in_bytes", buf,
                  sizeof buf, &n))
        return GOV_UNKNOWN;
    rc = version == 2 ? gov__parse_memory_value(buf, n, &v, &unlimited)
                      : gov__parse_v1_limit(buf, n, &v, &unlimited);
    return rc || unlimited ? GOV_UNKNOWN : v;
}

void gov__step_usage_read(const gov_root *root, const gov_step_cgroups *cg, gov_step_record *r)
{
    if (cg->version == 2) {
        r->cpu_s = seconds(keyed(root, cg->dir, "cpu.stat", "usage_usec"), 1e6);
        r->cpu_throttled_s = seconds(keyed(root, cg->dir, "cpu.stat", "throttled_usec"), 1e6);
        r->memory_peak_bytes = read_u64(root, cg->dir, "memory.peak");
        r->memory_limit_bytes = memory_limit(root, cg->dir, 2);
        r->memory_cache_bytes = file_cache(root, cg->dir, "active_file", "inactive_file");
        r->oom_kills = keyed(root, cg->dir, "memory.events", "oom_kill");
        psi_totals(root, cg->dir, "cpu.pressure", &r->cpu_some_s, NULL);
        psi_totals(root, cg->dir, "memory.pressure", &r->memory_some_s, &r->memory_full_s);
    } else if (cg->version == 1) {
        if (cg->cpuacct[0]) {
            r->cpu_s = seconds(read_u64(root, cg->cpuacct, "cpuacct.usage"), 1e9);
            r->cpu_throttled_s = seconds(keyed(root, cg->cpuacct, "cpu.stat", "throttled_time"), 1e9);
        }
        r->memory_peak_bytes = read_u64(root, cg->dir, "memory.max_usage_in_bytes");
        r->memory_limit_bytes = memory_limit(root, cg->dir, 1);
        r->memory_cache_bytes =
            file_cache(root, cg->dir, "total_active_file", "total_inactive_file");
        r->oom_kills = v1_oom_kills(root, cg->dir);
    }
    r->cpu_from_cgroup = !isnan(r->cpu_s);
}
