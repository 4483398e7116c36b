/* capture.c - the step's facts, read in slurmstepd from the items that come
 * from Slurm's signed job credential (exact C types as spank.h documents
 * them), plus GPU counts from the variables slurmstepd writes.
 *
 * Step kinds: the extern step has no tasks and gets nothing; the batch
 * step's one task is the script, and its cpus-per-task is every CPU of the
 * job on the node; the interactive step (salloc's shell) is one task
 * holding, like the batch script, every CPU of the job on its node. */
#include "capture.h"
#include "node_topology.h"
#include "evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gres.conf is read whole, up to this. */
#define GRES_CONF_MAX (256 * 1024)

static uint64_t u32_item(spank_t sp, spank_item_t item)
{
    uint32_t v = 0;

    return spank_get_item(sp, item, &v) == ESPANK_SUCCESS ? v : GOV_UNKNOWN;
}

static uint64_t mem_item(spank_t sp, spank_item_t item)
{
    uint64_t mib = 0;

    return spank_get_item(sp, item, &mib) == ESPANK_SUCCESS ? mib : GOV_UNKNOWN;
}

/* Count the cores of a credential core list ("0-1,4"); keep the set. */
static uint64_t cores_item(spank_t sp, spank_item_t item, gov_cpuset *set)
{
    char *list = NULL;

    memset(set, 0, sizeof *set);
    if (spank_get_item(sp, item, &list) != ESPANK_SUCCESS || !list ||
        gov_cpuset_parse(list, strlen(list), set))
        return GOV_UNKNOWN;
    return gov_cpuset_count(set);
}

static uint64_t env_u64(spank_t sp, const char *name)
{
    char buf[64];
    uint64_t v;

    if (spank_getenv(sp, name, buf, sizeof buf) != ESPANK_SUCCESS ||
        gov__parse_u64(buf, strlen(buf), &v))
        return GOV_UNKNOWN;
    return v;
}

/* An item the descriptor is bound with: without it there is no descriptor,
 * and the log says which item and why (spank_strerror), as pyxis does. */
static bool binding_item(spank_t sp, spank_item_t item, const char *name, void *out)
{
    spank_err_t rc = spank_get_item(sp, item, out);

    if (rc != ESPANK_SUCCESS)
        slurm_error("governor: spank_get_item(%s) failed: %s", name, spank_strerror(rc));
    return rc == ESPANK_SUCCESS;
}

/* One of slurmstepd's variables, or NULL when unset or too long. */
static const char *env_str(spank_t sp, const char *name, char *buf, size_t cap)
{
    return spank_getenv(sp, name, buf, cap) == ESPANK_SUCCESS ? buf : NULL;
}

/* The step's GPU facts from the variables slurmstepd wrote into its
 * environment: the grant, GPUs per task, CUDA_VISIBLE_DEVICES counted. */
static void capture_gpus(spank_t sp, gov_descriptor *d)
{
    char step[1024], node[32], per_task[256], visible[1024];
    const char *v;

    /* The grant as slurmstepd's gres plugin wrote it into the step's
     * environment (22.05 to 26.05 give SPANK no GRES item): it overwrites
     * these in every step with GPUs, but without gres/gpu they are
     * whatever the user exported, so they are only believed where the
     * kernel agrees, which the task itself checks (gov__descriptor_apply):
     * the step's device cgroup does not exist yet. */
    d->gpus_on_node = gov__slurm_gpus_on_node(env_str(sp, "SLURM_STEP_GPUS", step, sizeof step),
                                              env_str(sp, "SLURM_GPUS_ON_NODE", node, sizeof node));
    d->gpus_per_task = gov__slurm_gpus_per_task(
        env_str(sp, "SLURM_GPUS_PER_TASK", per_task, sizeof per_task));
    v = env_str(sp, "CUDA_VISIBLE_DEVICES", visible, sizeof visible);
    d->gpus_visible = v ? gov__visible_count(v) : GOV_UNKNOWN;
}

/* gres.conf beside the slurm.conf slurmd reads: slurmd puts SLURM_CONF and
 * its node's name (SLURMD_NODENAME) into its own environment, which
 * slurmstepd inherits; configless nodes point SLURM_CONF at their cache.
 * Else Slurm's default. */
static void read_gres(gov_gres_node *g)
{
    static const char fallback[] = "/etc/slurm/slurm.conf";
    const char *conf = getenv("SLURM_CONF"), *node = getenv("SLURMD_NODENAME"), *slash;
    char path[1024], *text;
    size_t len;

    memset(g, 0, sizeof *g);
    if (!conf || conf[0] != '/')
        conf = fallback;
    slash = strrchr(conf, '/');
    snprintf(path, sizeof path, "%.*s/gres.conf", (int)(slash - conf), conf);
    if (!node || !*node || !(text = malloc(GRES_CONF_MAX)))
        return;
    if (!gov__read_file(NULL, path, text, GRES_CONF_MAX, &len))
        gov__gres_conf_parse(text, len, node, g);
    free(text);
}

/* The grant as it is: whole GPUs, a MIG instance, or a share of a GPU
 * (gres/shard, gres/mps), its denominators gres.conf's (issue 52). */
static void capture_share(spank_t sp, gov_descriptor *d)
{
    char gpus[1024], shards[32], percent[32];
    gov_gres_node *g = malloc(sizeof *g);
    gov_gres_grant grant;

    if (!g)
        return;
    read_gres(g);
    gov__gres_grant(g, env_str(sp, "SLURM_STEP_GPUS", gpus, sizeof gpus),
                    env_str(sp, "SLURM_SHARDS_ON_NODE", shards, sizeof shards),
                    env_str(sp, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", percent, sizeof percent),
                    d->gpus_on_node, &grant);
    free(g);
    d->gpu_share_kind = grant.kind;
    d->gpu_share = grant.share;
    d->gpu_share_of = grant.share_of;
    d->gpu_mem_bytes = grant.mem_bytes;
}

int gov__capture_step(spank_t sp, const gov_spank_policy *site, gov_descriptor *d,
                      gov_topo_table **table)
{
    uint32_t step_id = 0, job_id = 0, node = 0;
    uint16_t ncpus = 0;
    uid_t uid = 0;
    gov_cpuset job_cores, step_cores;
    uint64_t per_cpu;
    int rc;

    *table = NULL;
    gov__descriptor_init(d);
    if (!binding_item(sp, S_JOB_ID, "S_JOB_ID", &job_id) ||
        !binding_item(sp, S_JOB_STEPID, "S_JOB_STEPID", &step_id) ||
        !binding_item(sp, S_JOB_NODEID, "S_JOB_NODEID", &node) ||
        !binding_item(sp, S_JOB_UID, "S_JOB_UID", &uid))
        return GOV_EIO;
    d->step_kind = gov__step_kind_of(step_id);
    if (d->step_kind == GOV_STEP_EXTERN)
        return GOV_ENOENT;
    d->job_id = job_id;
    d->step_id = step_id;
    d->node_index = node;
    d->uid = (uint64_t)uid;
    rc = gov__boot_hash_read(NULL, &d->boot_hash);
    if (rc) {
        slurm_error("governor: cannot read the node's boot id: %s", gov_strerror(rc));
        return GOV_EIO;
    }
    d->nodes = u32_item(sp, S_JOB_NNODES);
    d->tasks_total = u32_item(sp, S_JOB_TOTAL_TASK_COUNT);
    d->tasks_on_node = u32_item(sp, S_JOB_LOCAL_TASK_COUNT);
    /* The batch step is the script alone, on one node; the items above
     * describe the job there (S_JOB_NNODES even reads 0). */
    if (d->step_kind == GOV_STEP_BATCH)
        d->nodes = d->tasks_total = d->tasks_on_node = 1;
    if (spank_get_item(sp, S_JOB_NCPUS, &ncpus) == ESPANK_SUCCESS && ncpus)
        d->cpus_on_node = ncpus;
    d->cpus_per_task = u32_item(sp, S_STEP_CPUS_PER_TASK);
    /* In the interactive step the credential's cpus-per-task is the job's
     * (1 without -c): it describes the steps the shell may launch, while
     * the shell's own step holds all of the job's cores on the node. */
    if (d->step_kind == GOV_STEP_INTERACTIVE && d->cpus_on_node != GOV_UNKNOWN)
        d->cpus_per_task = d->cpus_on_node;
    d->job_mem_mib = mem_item(sp, S_JOB_ALLOC_MEM);
    d->step_mem_mib = mem_item(sp, S_STEP_ALLOC_MEM);
    d->job_cores = cores_item(sp, S_JOB_ALLOC_CORES, &job_cores);
    d->step_cores = cores_item(sp, S_STEP_ALLOC_CORES, &step_cores);
    /* The variable only says that memory was requested per CPU: sbatch and
     * salloc export it, and from Slurm 24.11 on srun does too for a step it
     * allocates itself (22.05's does not). In a step of an allocation it is
     * the allocation's figure, not the step's: believe it only when it
     * agrees with the credential's total for this node. */
    per_cpu = env_u64(sp, "SLURM_MEM_PER_CPU");
    if (per_cpu != GOV_UNKNOWN && per_cpu && d->cpus_on_node != GOV_UNKNOWN &&
        d->step_mem_mib != GOV_UNKNOWN && per_cpu <= d->step_mem_mib &&
        per_cpu * d->cpus_on_node == d->step_mem_mib)
        d->mem_per_cpu_mib = per_cpu;
    capture_gpus(sp, d);
    capture_share(sp, d);
    if (d->step_cores != GOV_UNKNOWN)
        *table = gov__node_topology_step(site, &step_cores, &d->topo);
    return 0;
}

