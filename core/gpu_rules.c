/* gpu_rules.c - what GPU facts the kernel confirms.  Pure functions of
 * counts, shared by the plugin (sealing, as root in the task's device
 * cgroup) and the snapshot (enforcement, as the process).  docs/snapshot.md
 * and docs/descriptor.md state the rules. */
#include "gpu.h"

const gov_gpu_nodes *gov_gpu_kind(const gov_gpu_nodes *nvidia, const gov_gpu_nodes *render)
{
    /* NVIDIA GPUs are /dev/nvidiaN (their render nodes, with nvidia-drm,
     * are not what CUDA opens and not what gres.conf lists); AMD and Intel
     * GPUs are DRM render nodes. */
    return nvidia->total != GOV_UNKNOWN && nvidia->total > 0 ? nvidia : render;
}

/* A device allowlist holds: v1's devices cgroup below the root, or any
 * device refused with EPERM (only a device filter answers that). */
static bool constrained(const gov_gpu_nodes *dev, int confined)
{
    return confined == 1 || (dev->denied != GOV_UNKNOWN && dev->denied > 0);
}

void gov_gpu_seal(uint64_t grant, const gov_gpu_nodes *dev, int confined,
                  uint64_t *gpus_on_node, bool *verified)
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
    if ((constrained(dev, confined) || dev->total == 0) && dev->usable == want) {
        *gpus_on_node = dev->usable;
        *verified = true;
    }
}

gov_enforcement gov_gpu_enforcement(uint64_t grant, const gov_gpu_nodes *dev, int confined)
{
    if (grant == GOV_UNKNOWN || dev->total == GOV_UNKNOWN || dev->usable == GOV_UNKNOWN)
        return GOV_ENFORCEMENT_UNKNOWN;
    if (dev->usable <= grant && (constrained(dev, confined) || dev->total == 0))
        return GOV_ENFORCED;
    return GOV_NOT_ENFORCED;
}
