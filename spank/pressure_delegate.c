/* pressure_delegate.c - pressure triggers for a step's tasks (pressure_delegate.h).
 *
 * The step's PSI files belong to root; systemd hands a service its own by
 * giving them to the service's user, and so does this (docs/admin-guide.md,
 * "Pressure triggers").  The kernel then takes from that user only
 * triggers whose window is a whole number of 2 s, served by the averaging
 * work that runs anyway (Linux 6.5); before 6.5 an owner could start a
 * real-time poller every 500 ms, so older kernels get nothing.  The files
 * go with the step's cgroup when the step ends. */
#include "pressure_delegate.h"

#include "evidence.h"
#include "step_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Where the unprivileged window rule came in (see above). */
#define PRESSURE_KERNEL_MAJOR 6
#define PRESSURE_KERNEL_MINOR 5

/* The v2 directory above task_N of the process whose cgroup file is
 * proc_cgroup. */
static bool step_dir(const char *proc_cgroup, char *dir, size_t cap)
{
    gov_step_cgroups cg;

    if (gov__step_cgroups_of(proc_cgroup, &cg) || cg.version != 2 || strlen(cg.dir) >= cap)
        return false;
    memcpy(dir, cg.dir, strlen(cg.dir) + 1);
    return true;
}

void gov__pressure_delegate(spank_t sp, const gov_descriptor *step, gov_pressure_handout *p)
{
    char proc[64], dir[1024], path[1100];
    struct utsname u;
    pid_t pid;

    if (!p->on || p->delegated)
        return;
    p->delegated = true;
    if (uname(&u) || !gov__kernel_release_at_least(u.release, PRESSURE_KERNEL_MAJOR,
                                                   PRESSURE_KERNEL_MINOR)) {
        slurm_info("governor: no pressure triggers for this step: the kernel is older than "
                   "%d.%d, which holds a user's triggers to 2 s windows",
                   PRESSURE_KERNEL_MAJOR, PRESSURE_KERNEL_MINOR);
        return;
    }
    if (spank_get_item(sp, S_TASK_PID, &pid) != ESPANK_SUCCESS)
        return;
    snprintf(proc, sizeof proc, "/proc/%d/cgroup", (int)pid);
    if (!step_dir(proc, dir, sizeof dir)) {
        slurm_info("governor: no pressure triggers for this step: its tasks are not in a "
                   "cgroup v2 step directory (cgroup v1, or no task/cgroup)");
        return;
    }
    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, gov__pressure_kinds[k].file);
        /* -1: the group stays root's; the owner alone may write. */
        if (chown(path, (uid_t)step->uid, (gid_t)-1))
            slurm_info("governor: no %s trigger for this step: cannot give the step's %s to "
                       "its user (%s)", gov__pressure_kinds[k].file, gov__pressure_kinds[k].file,
                       strerror(errno));
    }
}

static void unset_pair(spank_t sp, const gov_pressure_kind *k)
{
    spank_unsetenv(sp, k->watch_var);
    spank_unsetenv(sp, k->write_var);
}

void gov__pressure_task(spank_t sp, const gov_spank_policy *site, const gov_pressure_handout *p)
{
    char dir[1024], path[1100], trigger[GOV_PRESSURE_WRITE_MAX];
    bool have_dir;

    if (!p->on)
        return;
    have_dir = step_dir("/proc/self/cgroup", dir, sizeof dir) &&
               !gov__pressure_write_encode(site->pressure_threshold_ms * 1000u,
                                           GOV_PRESSURE_WINDOW_US, trigger, sizeof trigger);
    for (size_t k = 0; k < GOV_PRESSURE_KINDS; k++) {
        const gov_pressure_kind *kind = &gov__pressure_kinds[k];

        snprintf(path, sizeof path, "%s/%s", dir, kind->file);
        if (!have_dir || access(path, R_OK | W_OK) ||
            spank_setenv(sp, kind->watch_var, path, 1) != ESPANK_SUCCESS ||
            spank_setenv(sp, kind->write_var, trigger, 1) != ESPANK_SUCCESS)
            unset_pair(sp, kind);
    }
}
