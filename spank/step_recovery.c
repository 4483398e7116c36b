/* step_recovery.c - a step whose slurmstepd ends before the step does: its
 * descriptor file must still go, its record still be written.  On cgroup v1
 * Slurm 22.05 puts slurmstepd in the step's memory cgroup, so a task that
 * fills it (tmpfs pages count) gets slurmstepd OOM-killed, and neither
 * task_exit nor slurm_spank_exit ever runs.
 *
 * So root keeps a note of what it owes (run_dir.h, pending.c): written at
 * init_post_opt (the descriptor file's name, the record as it stands at the
 * start), replaced at the first task's fork (the step's cgroups), removed at
 * exit.  The job's epilog (slurm_spank_job_epilog: root, on each node,
 * after every step of the job) finishes what a note is left for: it removes
 * the file and writes the record from the step's cgroups, which outlive
 * their slurmstepd until the job's cleanup, marked recovered (finding
 * stepd_lost).  Only a step that has a file or owes a record gets a note. */
#include "step_recovery.h"
#include "report_write.h"

#include "run_dir.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The note: key=value lines, the record's line last but one. */
static void note(gov_recovery *rc, const gov_spank_policy *site, const gov_step_record *rec,
                 const gov_step_cgroups *cg)
{
    char text[GOV_PENDING_MAX], line[GOV_REPORT_LINE_MAX] = "";
    const char *why;
    int n, len = rec ? gov__step_record_encode(rec, line, sizeof line) : 0;

    if (len < 0)
        line[0] = '\0';
    else if (len > 0)
        line[len - 1] = '\0';   /* its newline */
    n = snprintf(text, sizeof text, "file=%s\nrecord=%s\ncg=%d %s\ncpuacct=%s\n", rc->file, line,
                 cg ? cg->version : 0, cg ? cg->dir : "", cg ? cg->cpuacct : "");
    if (n < 0 || (size_t)n >= sizeof text ||
        gov__pending_write(site->run_dir, rc->node, rc->job, rc->step, text, (size_t)n, &why)) {
        /* The step goes on; only a lost slurmstepd would leave a file. */
        slurm_info("governor: no pending note for this step: %s", why);
        rc->on = false;
    }
}

void gov__recovery_begin(gov_recovery *rc, const gov_spank_policy *site, const char *file,
                         const gov_step_record *rec, bool owed)
{
    const char *name = strrchr(file, '/');

    memset(rc, 0, sizeof *rc);
    if (!file[0] && !owed)
        return;
    rc->on = true;
    snprintf(rc->node, sizeof rc->node, "%s", rec->node);
    snprintf(rc->step, sizeof rc->step, "%s", rec->step);
    rc->job = rec->job;
    snprintf(rc->file, sizeof rc->file, "%s", name ? name + 1 : "");
    note(rc, site, owed ? rec : NULL, NULL);
}

void gov__recovery_cgroups(gov_recovery *rc, const gov_spank_policy *site,
                           const gov_step_record *rec, const gov_step_cgroups *cg)
{
    if (!rc->on || rc->cgroups_noted)
        return;
    rc->cgroups_noted = true;
    note(rc, site, rec, cg);
}

void gov__recovery_end(gov_recovery *rc, const gov_spank_policy *site)
{
    if (rc->on)
        gov__pending_remove(site->run_dir, rc->node, rc->job, rc->step);
    rc->on = false;
}

/* One key's value in a note, or "" (the line's rest). */
static void value(const char *text, const char *key, char *buf, size_t cap)
{
    size_t klen = strlen(key);
    const char *p = text;

    buf[0] = '\0';
    for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, key, klen) && p[klen] == '=') {
            size_t n = strcspn(p + klen + 1, "\n");
            if (n < cap) {
                memcpy(buf, p + klen + 1, n);
                buf[n] = '\0';
            }
            return;
        }
}

struct sweep {
    const gov_spank_policy *site;
    int removed, recorded;
};

/* A note a lost slurmstepd left: its file, its record. */
static void finish(const char *text, size_t len, const char *step, void *arg)
{
    struct sweep *s = arg;
    char file[96], line[GOV_REPORT_LINE_MAX], cg[1100], cpuacct[1024];
    gov_step_cgroups cgroups;
    gov_step_record rec;

    (void)len;
    (void)step;
    value(text, "file", file, sizeof file);
    if (file[0] && !strchr(file, '/')) {
        char path[GOV_SPANK_POLICY_PATH_MAX + 128];
        snprintf(path, sizeof path, "%s/steps/%s", s->site->run_dir, file);
        gov__step_file_remove(s->site->run_dir, path);
        s->removed++;
    }
    value(text, "record", line, sizeof line);
    if (!s->site->report_dir[0] || !line[0] ||
        gov__step_record_decode(line, strlen(line), &rec))
        return;
    memset(&cgroups, 0, sizeof cgroups);
    value(text, "cg", cg, sizeof cg);
    value(text, "cpuacct", cpuacct, sizeof cpuacct);
    if (sscanf(cg, "%d", &cgroups.version) == 1 && cgroups.version && strchr(cg, ' ')) {
        snprintf(cgroups.dir, sizeof cgroups.dir, "%s", strchr(cg, ' ') + 1);
        snprintf(cgroups.cpuacct, sizeof cgroups.cpuacct, "%s", cpuacct);
        /* What the kernel kept of the step: its peak, its kills. */
        gov__step_usage_read(NULL, &cgroups, &rec);
    }
    rec.recovered = true;
    gov__report_write(s->site, &rec);
    s->recorded++;
}

void gov__recovery_job(const gov_spank_policy *site, uint64_t job)
{
    const char *node = getenv("SLURMD_NODENAME"), *why = "";
    struct sweep s = { site, 0, 0 };
    int n;

    if (!node || !*node)
        return;
    n = gov__pending_sweep(site->run_dir, node, job, finish, &s, &why);
    if (n < 0)
        slurm_info("governor: the job's pending notes cannot be read: %s", why);
    else if (n > 0)
        slurm_info("governor: a step of this job lost its slurmstepd: %d descriptor file(s) "
                   "removed, %d record(s) written at the job's end", s.removed, s.recorded);
}

void gov__recovery_job_epilog(spank_t sp, int ac, char **av)
{
    gov_spank_policy site;
    uint32_t job = 0;
    char err[512];

    if (gov__spank_policy_parse(ac, (const char *const *)av, &site, err, sizeof err) ||
        spank_get_item(sp, S_JOB_ID, &job) != ESPANK_SUCCESS)
        return;
    gov__recovery_job(&site, job);
}
