/*
 * node_topology.h - the topology table as slurmd and slurmstepd use it, with
 * its log lines (node_topology.c).
 */
#ifndef GOV_SPANK_NODE_TOPOLOGY_H
#define GOV_SPANK_NODE_TOPOLOGY_H

#include "parse.h"
#include "topo.h"

/* Slurmd's start: put this boot's topology table into
 * the site's cache directory (topology.h), logging what went wrong. */
void gov__node_topology_prepare(const gov_spank_policy *site);

/* Slurmstepd: the node's table, from the cache or a discovery, logged,
 * and its summary for the step's cores (a Slurm core index list).
 * Returns the table, which the caller keeps for its tasks' own counts and
 * frees; NULL when there is none. */
gov_topo_table *gov__node_topology_step(const gov_spank_policy *site, const gov_cpuset *cores,
                                        gov_desc_topology *out);

#endif /* GOV_SPANK_NODE_TOPOLOGY_H */
