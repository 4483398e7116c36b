/* topo_load.c - the node's table for a step: from the cache when it holds
 * this boot's, else from a discovery that then fills it.  slurmd prepares
 * the cache once per start, so that no step pays for hwloc. */
#include "topo.h"
#include "run_dir.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Discover, and store into dirfd when there is one. */
static gov_topo_table *discover_and_store(int dirfd, gov_topo_outcome cached,
                                          gov_topo_report *rep)
{
    gov_topo_table *t = malloc(sizeof *t);
    const char *why;

    if (!t || gov__topo_discover(NULL, t)) {
        free(t);
        rep->outcome = GOV_TOPO_FAILED;
        rep->why = "hwloc cannot describe the node";
        return NULL;
    }
    if (dirfd < 0)
        return t;
    if (gov__topo_cache_store(dirfd, t, &why)) {
        rep->outcome = GOV_TOPO_NO_CACHE;
        rep->why = why;
    } else {
        rep->outcome = cached;
    }
    return t;
}

gov_topo_table *gov__topology_load(const char *cache_dir, gov_topo_report *rep)
{
    gov_topo_table *t;
    const char *why = NULL;
    int dirfd, rc;

    rep->outcome = GOV_TOPO_NO_CACHE;
    rep->why = "no cache directory is configured";
    if (!cache_dir)
        return discover_and_store(-1, GOV_TOPO_NO_CACHE, rep);
    dirfd = gov__run_dir_open(cache_dir, true, &why);
    if (dirfd < 0) {
        rep->why = why;
        return discover_and_store(-1, GOV_TOPO_NO_CACHE, rep);
    }
    t = malloc(sizeof *t);
    if (!t) {
        close(dirfd);
        rep->outcome = GOV_TOPO_FAILED;
        rep->why = "out of memory";
        return NULL;
    }
    rc = gov__topo_cache_load(dirfd, t, &why);
    if (rc == 0) {
        close(dirfd);
        rep->outcome = GOV_TOPO_CACHED;
        rep->why = NULL;
        return t;
    }
    free(t);
    t = discover_and_store(dirfd, rc == GOV_ENOENT ? GOV_TOPO_STORED : GOV_TOPO_REPLACED, rep);
    if (rep->outcome == GOV_TOPO_REPLACED)
        rep->why = why;
    close(dirfd);
    return t;
}

void gov__topology_prepare(const char *cache_dir, gov_topo_report *rep)
{
    free(gov__topology_load(cache_dir, rep));
}
