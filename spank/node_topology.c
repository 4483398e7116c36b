/* node_topology.c - the topology cache as slurmd and slurmstepd use it:
 * whether there is one (in run_dir), and what the log says about it.  No message names a
 * path: the administrator finds it on the plugstack.conf line. */
#include "node_topology.h"

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>


#include <string.h>

static const char *cache_dir(const gov_spank_policy *site)
{
    if (site->topology_cache_off)
        return NULL;
    return site->run_dir;
}

/* A cache that cannot be used makes every step discover the node. */
static void log_report(const gov_topo_report *rep, bool in_slurmd)
{
    switch (rep->outcome) {
    case GOV_TOPO_CACHED:
        break;
    case GOV_TOPO_STORED:
        slurm_info("governor: node topology discovered and cached for this boot");
        break;
    case GOV_TOPO_REPLACED:
        slurm_info("governor: the cached node topology was not usable (%s); discovered and "
                   "cached again", rep->why);
        break;
    case GOV_TOPO_NO_CACHE:
        slurm_error("governor: the topology cache is not used (%s); every governed step "
                    "discovers the node, which slows launches. Make run_dir root-owned (mode "
                    "0755) under parents that only root can write (not /tmp), or set "
                    "topology_cache=off",
                    rep->why);
        break;
    case GOV_TOPO_FAILED:
        /* libhwloc missing on a node is a supported setup: descriptors then
         * carry no topology.  Say it once, at slurmd's start. */
        if (in_slurmd)
            slurm_info("governor: %s; descriptors carry no topology", rep->why);
        else
            slurm_debug("governor: %s; this step's descriptors carry no topology", rep->why);
        break;
    }
}

void gov__node_topology_prepare(const gov_spank_policy *site)
{
    gov_topo_report rep;
    const char *dir = cache_dir(site);

    if (!dir)
        return;
    gov__topology_prepare(dir, &rep);
    log_report(&rep, true);
}

gov_topo_table *gov__node_topology_step(const gov_spank_policy *site, const gov_cpuset *cores,
                                        gov_desc_topology *out)
{
    gov_topo_report rep;
    const char *dir = cache_dir(site);
    gov_topo_table *t = gov__topology_load(dir, &rep);

    memset(out, 0, sizeof *out);
    out->packages = out->cores = out->pus = out->numa_nodes = GOV_UNKNOWN;
    if (t)
        gov__topo_summarise(t, cores, out);
    if (dir || rep.outcome == GOV_TOPO_FAILED)
        log_report(&rep, false);
    return t;
}
