/* startup.c - slurm_spank_init in each context (startup.h).  slurmd
 * prepares the node's topology table and never fails; srun, sbatch and
 * salloc refuse a plugstack line that does not parse, loudly; slurmstepd
 * does what the site's on_init_error= says (docs/admin-guide.md, "When
 * governor.so cannot start"). */
#include "startup.h"
#include "node_topology.h"

#ifdef GOV_HAVE_SPANK_INIT_FAILURE_MODE
/* Read by slurmstepd (25.05+) when init returns -1 (set in init_error). */
int slurm_spank_init_failure_mode = ESPANK_NODE_FAILURE;
#endif

/* governor.so could not start in slurmstepd: what on_init_error= makes of
 * the step. */
static int init_error(gov_init_error_policy p)
{
    switch (p) {
    case GOV_INIT_ERROR_RUN:
        break;
    case GOV_INIT_ERROR_FAIL_JOB:
#ifdef GOV_HAVE_SPANK_INIT_FAILURE_MODE
        slurm_spank_init_failure_mode = ESPANK_JOB_FAILURE;
        return -1;
#else
        slurm_error("governor: on_init_error=fail_job needs Slurm 25.05 or later; "
                    "the step runs ungoverned");
        return 0;
#endif
    case GOV_INIT_ERROR_DRAIN_NODE:
#ifdef GOV_HAVE_SPANK_INIT_FAILURE_MODE
        slurm_spank_init_failure_mode = ESPANK_NODE_FAILURE;
#endif
        return -1;
    }
    slurm_info("governor: the step runs ungoverned (on_init_error=run)");
    return 0;
}

int gov__startup(spank_t sp, spank_context_t ctx, int ac, char **av, struct spank_option *opt,
                 gov_spank_policy *site, bool *site_ok)
{
    char err[512];

    *site_ok = false;
    if (ctx == S_CTX_SLURMD) {
        /* Once per slurmd start: no step pays for hwloc afterwards.  A
         * failure here must never stop slurmd. */
        if (gov__spank_policy_parse(ac, (const char *const *)av, site, err, sizeof err))
            slurm_error("governor: %s", err);
        else
            gov__node_topology_prepare(site);
        return 0;
    }
    if (ctx != S_CTX_LOCAL && ctx != S_CTX_REMOTE && ctx != S_CTX_ALLOCATOR)
        return 0;
    if (gov__spank_policy_parse(ac, (const char *const *)av, site, err, sizeof err)) {
        /* Loud where a person is watching; in slurmstepd the site says
         * what becomes of the step (on_init_error=). */
        slurm_error("governor: %s", err);
        if (ctx != S_CTX_REMOTE)
            return -1;
        return init_error(gov__spank_policy_on_init_error(ac, (const char *const *)av));
    }
#ifndef GOV_HAVE_SPANK_INIT_FAILURE_MODE
    if (site->on_init_error == GOV_INIT_ERROR_FAIL_JOB && ctx != S_CTX_REMOTE) {
        slurm_error("governor: plugstack.conf key 'on_init_error' is fail_job, which needs "
                    "Slurm 25.05 or later (slurm_spank_init_failure_mode); this governor.so was "
                    "built for an older series: use run or drain_node");
        return -1;
    }
#endif
    *site_ok = true;
    if (spank_option_register(sp, opt) != ESPANK_SUCCESS) {
        slurm_error("governor: cannot register --governor");
        if (ctx != S_CTX_REMOTE)
            return -1;
        return init_error(site->on_init_error);
    }
    return 0;
}
