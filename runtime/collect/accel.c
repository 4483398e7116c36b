/* accel.c - accelerator evidence, layer by layer, never merged:
 *   allocation visibility: the four *_VISIBLE_DEVICES variables, counted
 *     (the values themselves are never kept: they can hold GPU UUIDs);
 *   management/driver visibility: /proc/driver/nvidia/gpus, DRM cards;
 *   device permission: /dev/nvidiaN, /dev/kfd, /dev/dri/renderD*;
 * and the one GPU the governor may use: the lowest-numbered DRM card that
 * no device cgroup denies, with its VRAM read from that same card.  Device
 * nodes and variables are counted by core/evidence/gpu_devices.c, as the plugin
 * counts them.  Candidates are not usable devices: runtime and workload
 * compatibility are not this file's to judge. */
#include "collect/collect.h"
#include "base.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define VENDOR_AMD   UINT64_C(0x1002)
#define VENDOR_INTEL UINT64_C(0x8086)
#define VENDOR_NVIDIA UINT64_C(0x10de)

static int rw_access(const gov_root *root, const char *dir, const char *name)
{
    gov_dev_access a = gov__dev_access_of(root, dir, name);

    return a == GOV_DEV_UNKNOWN ? -1 : a == GOV_DEV_USABLE;
}

static uint64_t count_entries(const gov_root *root, const char *dir)
{
    DIR *d = gov__root_opendir(root, dir);
    struct dirent *e;
    uint64_t n = 0;

    if (!d)
        return errno == ENOENT ? 0 : GOV_UNKNOWN;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* A sysfs attribute of DRM card N as a number ("0x1002" or decimal). */
static int card_attr(const gov_root *root, uint64_t card, const char *attr,
                     uint64_t *out)
{
    char path[256], buf[64];
    size_t len;
    int rc;

    snprintf(path, sizeof path, "/sys/class/drm/card%llu/device/%s",
             (unsigned long long)card, attr);
    rc = gov__read_file(root, path, buf, sizeof buf, &len);
    if (rc)
        return rc;
    if (len > 2 && buf[0] == '0' && buf[1] == 'x')
        return gov__parse_hex(buf, len, GOV_NUM_SPACE | GOV_HEX_PREFIX | GOV_HEX_LOWER, out);
    return gov__parse_u64(buf, len, out);
}

/* The value of "KEY value" or "KEY=value" in a small sysfs text file. */
static bool file_field(const gov_root *root, const char *path, const char *key,
                       char *val, size_t cap)
{
    char buf[4096];
    size_t len, n, vn;
    gov_lines it;
    const char *p, *v;

    if (gov__read_file(root, path, buf, sizeof buf, &len))
        return false;
    it = gov__lines_of(buf, len, false);
    while (gov__line_next(&it, &p, &n)) {
        if (gov__prefix(p, n, key, &v, &vn) && vn > 0 && (v[0] == ' ' || v[0] == '=')) {
            if (vn - 1 >= cap)
                return false;
            memcpy(val, v + 1, vn - 1);
            val[vn - 1] = '\0';
            return true;
        }
    }
    return false;
}

/* The render-node minor of DRM card N (its device's drm/renderD<minor>). */
static uint64_t card_render_minor(const gov_root *root, uint64_t card)
{
    char path[256];
    DIR *d;
    struct dirent *e;
    uint64_t minor = GOV_UNKNOWN, num;

    snprintf(path, sizeof path, "/sys/class/drm/card%llu/device/drm",
             (unsigned long long)card);
    if (!(d = gov__root_opendir(root, path)))
        return GOV_UNKNOWN;
    while ((e = readdir(d)))
        if (gov__name_number(e->d_name, "renderD", &num))
            minor = num;
    closedir(d);
    return minor;
}

/* AMD APU evidence: the KFD topology node driving this card's render node
 * reports CPU cores as well as SIMDs (what ROCm's thunk calls an APU). */
static bool amd_apu(const gov_root *root, uint64_t card)
{
    static const char nodes[] = "/sys/class/kfd/kfd/topology/nodes";
    uint64_t minor = card_render_minor(root, card), num;
    DIR *d;
    struct dirent *e;
    bool apu = false;

    if (minor == GOV_UNKNOWN || !(d = gov__root_opendir(root, nodes)))
        return false;
    while (!apu && (e = readdir(d))) {
        char path[512], val[32];
        uint64_t m, cores, simds;

        if (!gov__name_number(e->d_name, "", &num) ||
            snprintf(path, sizeof path, "%s/%s/properties", nodes,
                     e->d_name) >= (int)sizeof path)
            continue;
        if (file_field(root, path, "drm_render_minor", val, sizeof val) &&
            gov__parse_u64(val, strlen(val), &m) == 0 && m == minor &&
            file_field(root, path, "cpu_cores_count", val, sizeof val) &&
            gov__parse_u64(val, strlen(val), &cores) == 0 &&
            file_field(root, path, "simd_count", val, sizeof val) &&
            gov__parse_u64(val, strlen(val), &simds) == 0)
            apu = cores > 0 && simds > 0;
    }
    closedir(d);
    return apu;
}

/* amdgpu's compute partition mode of card N as its partitions of one GPU
 * (amdgpu's sysfs: SPX, DPX, TPX, QPX name their count; CPX's is the
 * GPU's XCD count, which the mode does not say). */
static uint64_t card_partitions(const gov_root *root, uint64_t card)
{
    static const char *const modes[] = { "SPX", "DPX", "TPX", "QPX" };
    char path[256], buf[16];
    size_t len;
    const char *p = buf;

    snprintf(path, sizeof path, "/sys/class/drm/card%llu/device/current_compute_partition",
             (unsigned long long)card);
    if (gov__read_file(root, path, buf, sizeof buf, &len))
        return GOV_UNKNOWN;
    gov__trim(&p, &len);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (gov__token_eq(p, len, modes[i]))
            return i + 1;
    return GOV_UNKNOWN;
}

/* Intel's integrated GPU always sits at PCI 0000:00:02.0; its discrete
 * cards (Arc, Data Center GPUs) sit behind a PCIe port elsewhere. */
static bool intel_integrated(const gov_root *root, uint64_t card)
{
    char path[256], slot[64];

    snprintf(path, sizeof path, "/sys/class/drm/card%llu/device/uevent",
             (unsigned long long)card);
    return file_field(root, path, "PCI_SLOT_NAME", slot, sizeof slot) &&
           strcmp(slot, "0000:00:02.0") == 0;
}

/* Whether a device cgroup denies this process card N (through its render
 * node, else its primary node): such a card is outside the allocation. */
static bool card_denied(const gov_root *root, uint64_t card)
{
    uint64_t minor = card_render_minor(root, card);
    char name[32];

    if (minor != GOV_UNKNOWN)
        snprintf(name, sizeof name, "renderD%llu", (unsigned long long)minor);
    else
        snprintf(name, sizeof name, "card%llu", (unsigned long long)card);
    return gov__dev_access_of(root, "/dev/dri", name) == GOV_DEV_DENIED;
}

static void drm_cards(const gov_root *root, gov_snapshot_accel *out)
{
    DIR *d = gov__root_opendir(root, "/sys/class/drm");
    struct dirent *e;
    uint64_t lowest = GOV_UNKNOWN, num, vendor;

    if (!d) {
        out->amd_gpus = errno == ENOENT ? 0 : GOV_UNKNOWN;
        return;
    }
    out->amd_gpus = 0;
    /* "cardN" only: connectors ("card0-DP-1") are not devices.  The
     * governor's card is the lowest one the allocation leaves usable. */
    while ((e = readdir(d))) {
        if (!gov__name_number(e->d_name, "card", &num) || num > INT32_MAX)
            continue;
        if (num < lowest && !card_denied(root, num))
            lowest = num;
        if (card_attr(root, num, "vendor", &vendor) == 0 && vendor == VENDOR_AMD)
            out->amd_gpus++;
    }
    closedir(d);
    if (lowest == GOV_UNKNOWN)
        return;

    out->gpu_index = (int)lowest;
    /* amdgpu's attributes; capacity and usage come from this same card. */
    if (card_attr(root, lowest, "mem_info_vram_total", &num) == 0)
        out->gpu_vram_total_bytes = num;
    if (card_attr(root, lowest, "mem_info_vram_used", &num) == 0)
        out->gpu_vram_used_bytes = num;
    out->gpu_partitions = card_partitions(root, lowest);
    /* Unified only on evidence of integration; dedicated only on evidence
     * of VRAM of its own; anything else stays unknown. */
    if (card_attr(root, lowest, "vendor", &vendor) != 0)
        return;
    if ((vendor == VENDOR_INTEL && intel_integrated(root, lowest)) ||
        (vendor == VENDOR_AMD && amd_apu(root, lowest)))
        out->gpu_unified = 1;
    else if (vendor == VENDOR_NVIDIA ||
             (vendor == VENDOR_AMD && out->gpu_vram_total_bytes != GOV_UNKNOWN))
        out->gpu_unified = 0;
}


void gov__accel_confinement(gov_snapshot_accel *a, const gov_cgroup_evidence *cg)
{
    bool v2 = cg->cpu.version == 2 || cg->memory.version == 2;
    bool refused = (a->nvidia_dev_denied != GOV_UNKNOWN && a->nvidia_dev_denied > 0) ||
                   (a->drm_render_denied != GOV_UNKNOWN && a->drm_render_denied > 0);

    a->devices_confined = cg->devices_confined;
    /* v2 keeps device rules in an eBPF filter that nobody can read back;
     * only such a filter refuses a device node with EPERM, so a refusal is
     * the evidence that one confines the process.  With nothing refused
     * (no GPU, or a whole-node grant) a filter cannot be told from none. */
    if (a->devices_confined == -1 && v2 && refused)
        a->devices_confined = 1;
}

void gov__accel_collect(const gov_root *root, const char *const *envp,
                        gov_snapshot_accel *out)
{
    static const char *const vars[GOV_VIS_COUNT] = {
        [GOV_VIS_NVIDIA] = "NVIDIA_VISIBLE_DEVICES",
        [GOV_VIS_CUDA] = "CUDA_VISIBLE_DEVICES",
        [GOV_VIS_ROCR] = "ROCR_VISIBLE_DEVICES",
        [GOV_VIS_HIP] = "HIP_VISIBLE_DEVICES",
    };
    gov_gpu_nodes nvidia, render;

    GOV_SET_UNKNOWN(out, accel);
    for (int i = 0; i < GOV_VIS_COUNT; i++) {
        const char *v = gov__env_get(envp, vars[i]);
        if (v)
            out->visible[i] = gov__visible_count(v);
    }
    out->nvidia_gpus = count_entries(root, "/proc/driver/nvidia/gpus");
    gov__gpu_devices_count(root, &nvidia, &render);
    out->nvidia_dev_nodes = nvidia.total;
    out->nvidia_dev_usable = nvidia.usable;
    out->nvidia_dev_denied = nvidia.denied;
    out->drm_render_nodes = render.total;
    out->drm_render_usable = render.usable;
    out->drm_render_denied = render.denied;
    out->kfd_usable = rw_access(root, "/dev", "kfd");
    out->mps_pinned_limit = gov__env_get(envp, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT") != NULL;
    drm_cards(root, out);
}
