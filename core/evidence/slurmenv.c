/* slurmenv.c - scheduler facts from an allowlist of SLURM_* variables.
 *
 * Only the names below are ever looked up; the environment is never walked
 * or copied.  Any user can set these variables, so they count only when
 * there is no verified descriptor (snapshot.c decides).  Every value is
 * bounded; a malformed or absurd value leaves its fact GOV_UNKNOWN.
 * docs/evidence.md explains each rule and where it comes from. */
#include "evidence.h"
#include "snapshot_base.h"
#include "base.h"

#include <string.h>

/* Bounds: Slurm keeps ids and counts in 32-bit fields (per-node task and
 * CPU counts in 16-bit ones); a CPU count must also fit a gov_cpuset. */
#define MAX_ID          UINT64_C(0xffffffff)
#define MAX_NODE_COUNT  UINT64_C(0xffff)
#define MAX_LIST_COUNT  UINT64_C(1000000)
#define MAX_TASKS_TOTAL UINT64_C(100000000)
#define MAX_NODES       UINT64_C(1000000)
#define MAX_GPUS        UINT64_C(1024)

int gov__slurm_list_resolve(const char *text, size_t len, uint64_t index,
                            uint64_t *out)
{
    const char *p = text, *end = text + len;
    uint64_t pos = 0, first = 0, found = GOV_UNKNOWN;
    bool uniform = true, have_first = false;

    if (!out || (!text && len))
        return GOV_EINVAL;
    if (len == 0)
        return GOV_EPARSE;
    /* Parse the whole list even after the entry is found, so that a list
     * with trailing garbage is rejected rather than half-trusted. */
    for (;;) {
        uint64_t value, reps = 1;
        int rc = gov__scan_dec(&p, end, MAX_LIST_COUNT, &value);
        if (rc)
            return rc;
        if (p < end && *p == '(') {
            p++;
            if (p == end || *p != 'x')
                return GOV_EPARSE;
            p++;
            rc = gov__scan_dec(&p, end, MAX_LIST_COUNT, &reps);
            if (rc)
                return rc;
            if (reps == 0 || p == end || *p != ')')
                return GOV_EPARSE;
            p++;
        }
        if (!have_first) {
            first = value;
            have_first = true;
        } else if (value != first) {
            uniform = false;
        }
        if (index != GOV_UNKNOWN && found == GOV_UNKNOWN && index - pos < reps)
            found = value;
        pos += reps; /* at most len * MAX_LIST_COUNT: cannot overflow */
        if (p == end)
            break;
        if (*p != ',')
            return GOV_EPARSE;
        p++;
    }
    if (index == GOV_UNKNOWN) {
        if (!uniform)
            return GOV_ENOENT;
        *out = first;
        return 0;
    }
    if (found == GOV_UNKNOWN)
        return GOV_ERANGE;
    *out = found;
    return 0;
}

int gov__slurm_parse_mem(const char *text, size_t len, uint64_t *bytes)
{
    const char *p = text, *end = text + len;
    uint64_t v, unit = UINT64_C(1) << 20;
    int rc;

    if (!bytes || (!text && len))
        return GOV_EINVAL;
    rc = gov__scan_dec(&p, end, UINT64_MAX, &v);
    if (rc)
        return rc;
    if (p < end) {
        switch (*p) {
        case 'K': case 'k': unit = UINT64_C(1) << 10; break;
        case 'M': case 'm': unit = UINT64_C(1) << 20; break;
        case 'G': case 'g': unit = UINT64_C(1) << 30; break;
        case 'T': case 't': unit = UINT64_C(1) << 40; break;
        default: return GOV_EPARSE;
        }
        if (++p != end)
            return GOV_EPARSE;
    }
    if (v > UINT64_MAX / unit)
        return GOV_ERANGE;
    *bytes = v * unit;
    return 0;
}

/* A decimal count in [0, max], or GOV_UNKNOWN. */
static uint64_t count_in(const char *v, uint64_t max)
{
    const char *p = v;
    uint64_t n;

    if (!v || gov__scan_dec(&p, v + strlen(v), max, &n) || *p)
        return GOV_UNKNOWN;
    return n;
}

/* A plain decimal value in [min, max], else GOV_UNKNOWN. */
static uint64_t env_count(const char *const *envp, const char *name,
                          uint64_t min, uint64_t max)
{
    uint64_t n = count_in(gov__env_get(envp, name), max);

    return n != GOV_UNKNOWN && n >= min ? n : GOV_UNKNOWN;
}

/* The first of two spellings that is set (Slurm keeps old names alive). */
static uint64_t env_count2(const char *const *envp, const char *name,
                           const char *old, uint64_t min, uint64_t max)
{
    if (gov__env_get(envp, name))
        return env_count(envp, name, min, max);
    return env_count(envp, old, min, max);
}

/* Memory in bytes; 0 (Slurm's "all of the node's memory" request) and
 * malformed values are unknown. */
static uint64_t env_mem(const char *const *envp, const char *name)
{
    const char *v = gov__env_get(envp, name);
    uint64_t b;

    if (!v || gov__slurm_parse_mem(v, strlen(v), &b) || b == 0)
        return GOV_UNKNOWN;
    return b;
}

uint64_t gov__slurm_gpus_per_task(const char *v)
{
    uint64_t total = 0;

    if (!v || !*v)
        return GOV_UNKNOWN;
    while (*v) {
        const char *comma = strchr(v, ',');
        const char *stop = comma ? comma : v + strlen(v);
        const char *num = v;
        uint64_t n;

        for (const char *q = v; q < stop; q++)
            if (*q == ':')
                num = q + 1;
        if (gov__scan_dec(&num, stop, MAX_GPUS, &n) || num != stop)
            return GOV_UNKNOWN;
        total += n;
        if (total > MAX_GPUS)
            return GOV_UNKNOWN;
        if (!comma)
            break;
        v = comma + 1;
        if (!*v)
            return GOV_UNKNOWN;
    }
    return total;
}

uint64_t gov__slurm_gpus_on_node(const char *step_gpus, const char *gpus_on_node)
{
    gov_cpuset set;

    if (!step_gpus)
        return count_in(gpus_on_node, MAX_GPUS);
    /* slurmstepd writes the step's GPU indices ("0,1"); without GPUs a
     * device list says so in words. */
    if (!*step_gpus || !strcmp(step_gpus, "none") || !strcmp(step_gpus, "NoDevFiles"))
        return 0;
    if (gov_cpuset_parse(step_gpus, strlen(step_gpus), &set) ||
        gov_cpuset_count(&set) > MAX_GPUS)
        return GOV_UNKNOWN;
    return gov_cpuset_count(&set);
}

/* This node's entry of a compressed per-node list, or GOV_UNKNOWN. */
static uint64_t env_list_at(const char *value, uint64_t index)
{
    uint64_t n;

    if (gov__slurm_list_resolve(value, strlen(value), index, &n) ||
        n == 0 || n > MAX_NODE_COUNT)
        return GOV_UNKNOWN;
    return n;
}

gov_step_kind gov__step_kind_of(uint64_t step_id)
{
    if (step_id <= GOV_STEP_MAX_NORMAL_ID)
        return GOV_STEP_NORMAL;
    switch (step_id) {
    case GOV_STEP_BATCH_ID:
        return GOV_STEP_BATCH;
    case GOV_STEP_EXTERN_ID:
        return GOV_STEP_EXTERN;
    case GOV_STEP_INTERACTIVE_ID:
        return GOV_STEP_INTERACTIVE;
    default:
        return GOV_STEP_UNKNOWN;
    }
}

int gov__slurm_step_id_parse(const char *text, uint64_t *out)
{
    bool negative = text && *text == '-';
    uint64_t v;

    /* A negative id is the %d spelling of one above INT32_MAX. */
    if (!text || gov__parse_dec(text + negative, strlen(text + negative), 0,
                                negative ? UINT64_C(0x80000000) : MAX_ID, &v) ||
        (negative && v == 0))
        return GOV_EPARSE;
    *out = negative ? (MAX_ID + 1) - v : v;
    return 0;
}

/* Step kind from the step id; a batch script has no SLURM_STEP_ID (22.05's
 * slurmstepd exports it only for ids that are non-negative as an int) but
 * sbatch marks its environment with ENVIRONMENT=BATCH. */
static gov_step_kind step_kind_of(const char *const *envp, uint64_t *step_id)
{
    const char *batch, *id = gov__env_get(envp, "SLURM_STEP_ID");

    if (!id)
        id = gov__env_get(envp, "SLURM_STEPID");
    if (id) {
        gov_step_kind kind;

        if (gov__slurm_step_id_parse(id, step_id))
            *step_id = GOV_UNKNOWN;
        kind = gov__step_kind_of(*step_id);
        if (kind == GOV_STEP_UNKNOWN)
            *step_id = GOV_UNKNOWN;
        return kind;
    }
    batch = gov__env_get(envp, "ENVIRONMENT");
    if (batch && strcmp(batch, "BATCH") == 0) {
        *step_id = GOV_STEP_BATCH_ID;
        return GOV_STEP_BATCH;
    }
    *step_id = GOV_UNKNOWN; /* e.g. salloc's shell: an allocation, no step */
    return GOV_STEP_UNKNOWN;
}

/* Tasks on this node: the step's own layout first (srun --preserve-env
 * keeps a stale SLURM_TASKS_PER_NODE), then the job's, then the requested
 * SLURM_NTASKS_PER_NODE only when no list exists at all. */
static uint64_t tasks_on_node(const char *const *envp, uint64_t node_index)
{
    const char *list = gov__env_get(envp, "SLURM_STEP_TASKS_PER_NODE");

    if (!list)
        list = gov__env_get(envp, "SLURM_TASKS_PER_NODE");
    if (list)
        return env_list_at(list, node_index);
    return env_count(envp, "SLURM_NTASKS_PER_NODE", 1, MAX_NODE_COUNT);
}

gov_sched_source gov__sched_from_env(uint64_t value)
{
    return value == GOV_UNKNOWN ? GOV_SCHED_NONE : GOV_SCHED_ENVIRONMENT;
}

void gov__slurmenv_collect(const char *const *envp, gov_snapshot_scheduler *out)
{
    uint64_t step_id, node_index;

    GOV_SET_UNKNOWN(out, scheduler);
    /* Without a job id this is no Slurm job, whatever else is set.  The
     * ids themselves are the binding's claim (gov__claim_collect). */
    if (env_count2(envp, "SLURM_JOB_ID", "SLURM_JOBID", 1, MAX_ID) == GOV_UNKNOWN)
        return;
    out->source = GOV_SCHED_ENVIRONMENT;
    out->step_kind = step_kind_of(envp, &step_id);
    node_index = env_count(envp, "SLURM_NODEID", 0, MAX_NODES - 1);
    out->cpus_on_node = env_count(envp, "SLURM_CPUS_ON_NODE", 1, GOV_CPUSET_BITS);
    out->mem_per_node_bytes = env_mem(envp, "SLURM_MEM_PER_NODE");
    out->mem_per_cpu_bytes = env_mem(envp, "SLURM_MEM_PER_CPU");
    out->gpus_on_node = gov__slurm_gpus_on_node(gov__env_get(envp, "SLURM_STEP_GPUS"),
                                                gov__env_get(envp, "SLURM_GPUS_ON_NODE"));
    out->gpus_per_task = gov__slurm_gpus_per_task(gov__env_get(envp, "SLURM_GPUS_PER_TASK"));
    out->gpus_on_node_source = gov__sched_from_env(out->gpus_on_node);
    out->gpus_per_task_source = gov__sched_from_env(out->gpus_per_task);
    out->mem_per_cpu_source = gov__sched_from_env(out->mem_per_cpu_bytes);

    if (out->step_kind == GOV_STEP_BATCH || out->step_kind == GOV_STEP_INTERACTIVE) {
        /* The batch step (the script) and the interactive step (salloc's
         * shell) are one task on one node holding all of the job's CPUs
         * there; the task counts and SLURM_CPUS_PER_TASK in their
         * environment describe the steps they may launch.  The plugin seals
         * the same (spank/capture.c). */
        out->tasks_on_node = out->tasks_total = out->nodes = 1;
        out->cpus_per_task = out->cpus_on_node;
        return;
    }
    out->cpus_per_task = env_count(envp, "SLURM_CPUS_PER_TASK", 1, GOV_CPUSET_BITS);
    out->tasks_on_node = tasks_on_node(envp, node_index);
    out->tasks_total = gov__env_get(envp, "SLURM_STEP_NUM_TASKS")
        ? env_count(envp, "SLURM_STEP_NUM_TASKS", 1, MAX_TASKS_TOTAL)
        : env_count2(envp, "SLURM_NTASKS", "SLURM_NPROCS", 1, MAX_TASKS_TOTAL);
    out->nodes = gov__env_get(envp, "SLURM_STEP_NUM_NODES")
        ? env_count(envp, "SLURM_STEP_NUM_NODES", 1, MAX_NODES)
        : env_count2(envp, "SLURM_JOB_NUM_NODES", "SLURM_NNODES", 1, MAX_NODES);
}
