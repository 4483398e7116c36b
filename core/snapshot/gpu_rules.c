/* gpu_rules.c - what GPU facts the kernel confirms.  Pure functions of
 * counts, shared by the plugin (sealing, as root in the task's device
 * cgroup) and the snapshot (enforcement, as the process).  docs/snapshot.md
 * and docs/descriptor.md state the rules. */
#include "snapshot_base.h"

const gov_gpu_nodes *gov__gpu_kind(const gov_gpu_nodes *nvidia, const gov_gpu_nodes *render)
{
    /* NVIDIA GPUs are /dev/nvidiaN (their render nodes, with nvidia-drm,
     * are not what CUDA opens and not what gres.conf lists); AMD and Intel
     * GPUs are DRM render nodes. */
    return nvidia->total != GOV_UNKNOWN && nvidia->total > 0 ? nvidia : render;
}

/* What the process can observe of a device allowlist: a GPU node refused
 * with EPERM (only a device cgroup or filter answers that).  A v1 devices
 * cgroup below the root that denies nothing proves nothing: a grant of
 * every GPU on the node and no GPU allowlist at all (no gres/gpu) look the
 * same from inside, and only the latter lets a user choose the grant. */
static bool denies_some(const gov_gpu_nodes *dev)
{
    return dev->denied != GOV_UNKNOWN && dev->denied > 0;
}

void gov__gpu_seal(uint64_t grant, const gov_gpu_nodes *dev, uint64_t *gpus_on_node,
                   bool *verified)
{
    /* No variable in a step means no GPU grant: slurmstepd writes them for
     * every step that has one. */
    uint64_t want = grant == GOV_UNKNOWN ? 0 : grant;

    *gpus_on_node = grant;
    *verified = false;
    if (dev->total == GOV_UNKNOWN || dev->usable == GOV_UNKNOWN)
        return;
    /* Root passes every file mode, so what it cannot open here is what the
     * device cgroup denies: the kernel's count of the grant.  A node with
     * no GPU device at all confirms a grant of none. */
    if ((denies_some(dev) || dev->total == 0) && dev->usable == want) {
        *gpus_on_node = dev->usable;
        *verified = true;
    }
}

gov_enforcement gov__gpu_enforcement(uint64_t grant, const gov_gpu_nodes *dev, int confined)
{
    if (grant == GOV_UNKNOWN || dev->total == GOV_UNKNOWN || dev->usable == GOV_UNKNOWN)
        return GOV_ENFORCEMENT_UNKNOWN;
    if (denies_some(dev) || dev->total == 0)
        return dev->usable <= grant ? GOV_ENFORCED : GOV_NOT_ENFORCED;
    if (dev->usable > grant)
        return GOV_NOT_ENFORCED;
    /* Every GPU node open and the grant covers them all: held by an
     * allowlist of the whole node or by none, which only the absence of
     * any device cgroup (v1 root) settles. */
    return confined == 0 ? GOV_NOT_ENFORCED : GOV_ENFORCEMENT_UNKNOWN;
}
