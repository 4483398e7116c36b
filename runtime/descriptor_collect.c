/* descriptor_collect.c - the descriptor in this process's environment,
 * verified against the live process and turned into scheduler evidence and
 * the site policy (docs/descriptor.md, "Verification"). */
#include "descriptor.h"
#include "evidence.h"

#include <string.h>
#include <time.h>

extern char **environ;

static uint64_t mib_to_bytes(uint64_t mib)
{
    if (mib == GOV_UNKNOWN || mib == 0 || mib > UINT64_MAX / (1024 * 1024))
        return GOV_UNKNOWN;
    return mib * 1024 * 1024;
}

void gov_descriptor_apply(const gov_descriptor *d, gov_sched_evidence *sched,
                          gov_site_policy *policy)
{
    memset(sched, 0, sizeof *sched);
    sched->source = GOV_SCHED_DESCRIPTOR;
    sched->step_kind = d->step_kind;
    sched->job_id = d->job_id;
    sched->step_id = d->step_id;
    sched->node_index = d->node_index;
    sched->uid = d->uid;
    sched->tasks_on_node = d->tasks_on_node;
    sched->tasks_total = d->tasks_total;
    sched->nodes = d->nodes;
    sched->cpus_on_node = d->cpus_on_node;
    sched->cpus_per_task = d->cpus_per_task;
    /* Slurm reports 0 MiB when memory is not tracked: that is no bound. */
    sched->mem_per_node_bytes = mib_to_bytes(d->step_mem_mib != GOV_UNKNOWN && d->step_mem_mib
                                             ? d->step_mem_mib : d->job_mem_mib);
    sched->mem_per_cpu_bytes = mib_to_bytes(d->mem_per_cpu_mib);
    sched->gpus_on_node = d->gpus_on_node;
    sched->gpus_per_task = d->gpus_per_task;
    sched->gpus_verified = d->gpus_verified;
    /* Root sealed these from the job's environment: sealing does not make
     * a user's value Slurm's (docs/descriptor.md, "Provenance"). */
    sched->gpus_on_node_source = d->gpus_verified ? GOV_SCHED_DESCRIPTOR
                                                  : gov_sched_from_env(d->gpus_on_node);
    sched->gpus_per_task_source = gov_sched_from_env(d->gpus_per_task);
    sched->mem_per_cpu_source = gov_sched_from_env(sched->mem_per_cpu_bytes);

    memset(policy, 0, sizeof *policy);
    policy->present = 1;
    policy->profile_imposed = d->policy.profile_imposed;
    policy->profile = d->policy.profile;
    policy->mem_reserve_bytes = d->policy.mem_reserve_bytes;
    policy->mem_reserve_pct = d->policy.mem_reserve_pct;
    policy->cpu_reserve_threads = d->policy.cpu_reserve_threads;
    policy->cpu_reserve_pct = d->policy.cpu_reserve_pct;
}

void gov_descriptor_set_unknown(gov_snapshot_descriptor *out)
{
    out->status = GOV_DESCRIPTOR_ABSENT;
    out->reason = 0;
    out->age_s = GOV_UNKNOWN;
    out->replayed = 0;
    out->expired = 0;
}

void gov_descriptor_collect(const gov_options *opts, const gov_root *root,
                            const char *const *envp, gov_sched_evidence *sched,
                            gov_snapshot_descriptor *out, gov_site_policy *policy)
{
    const char *cred = NULL;
    gov_desc_claim claim;
    gov_descriptor d;
    gov_seal_info info = { 0 };
    time_t now;
    int rc;

    gov_descriptor_set_unknown(out);
    if (opts && (opts->flags & GOV_OPT_NO_DESCRIPTOR))
        return;
    /* The seal binds to the live process; a sysroot is someone else's. */
    if (!gov_root_is_live(root))
        return;
    /* envp NULL means the process environment, as gov_options documents. */
    if (!envp)
        envp = (const char *const *)environ;
    cred = gov_env_get(envp, GOV_DESCRIPTOR_ENV);
    if (!cred || !*cred)
        return;
    gov_claim_collect(envp, &claim);
    rc = gov_descriptor_verify(cred, opts ? opts->munge_socket : NULL,
                               opts ? opts->trusted_uid : GOV_UID_NONE, &claim, &d, &info);
    if (rc) {
        out->status = GOV_DESCRIPTOR_INVALID;
        out->reason = rc;
        return;
    }
    out->status = GOV_DESCRIPTOR_VERIFIED;
    out->replayed = info.replayed;
    out->expired = info.expired;
    now = time(NULL);
    out->age_s = now >= 0 && (uint64_t)now >= d.created ? (uint64_t)now - d.created : 0;
    gov_descriptor_apply(&d, sched, policy);
}
