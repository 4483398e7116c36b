/* Accelerators: visibility variables, driver entries, device permissions
 * and the one DRM card the governor may use, each layer apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect/collect.h"
#include "fixture_root.h"
#include "skip_because.h"

static gov_snapshot snap;

static void collect(const char *fixture, const char *const *envp)
{
    gov_root root = fixture_root(fixture);

    memset(&snap, 0xa5, sizeof snap);
    gov__accel_collect(&root, envp, &snap.accel);
    gov__root_close(&root);
}

static void test_visible_count(void **state)
{
    assert_int_equal(gov__visible_count("0,1"), 2);
    assert_int_equal(gov__visible_count("3"), 1);
    assert_int_equal(gov__visible_count(""), 0);
    assert_int_equal(gov__visible_count("none"), 0);
    assert_int_equal(gov__visible_count("void"), 0);
    assert_true(gov__visible_count("all") == GOV_UNKNOWN);
    assert_true(gov__visible_count(NULL) == GOV_UNKNOWN);
    assert_int_equal(gov__visible_count("GPU-8e3b1b0a-35ce-4b5d-9b0c-0d5e8f2a6c11,"
                                        "GPU-1f2e3d4c-5b6a-7988-a1b2-c3d4e5f60718"), 2);
    assert_int_equal(gov__visible_count("MIG-GPU-8e3b1b0a-35ce-4b5d-9b0c-0d5e8f2a6c11/1/0"), 1);
    assert_int_equal(gov__visible_count("MIG-4f2e3d4c-5b6a-7988-a1b2-c3d4e5f60718,"
                                        "MIG-5f2e3d4c-5b6a-7988-a1b2-c3d4e5f60718,0"), 3);
    assert_true(gov__visible_count("0,,1") == GOV_UNKNOWN);
    assert_true(gov__visible_count("0,") == GOV_UNKNOWN);
    assert_true(gov__visible_count(",0") == GOV_UNKNOWN);
    assert_true(gov__visible_count("0, 1") == GOV_UNKNOWN);
}

static void test_variables_counted_apart(void **state)
{
    const char *env[] = { "CUDA_VISIBLE_DEVICES=0,1", "NVIDIA_VISIBLE_DEVICES=all",
                          "ROCR_VISIBLE_DEVICES=", "PATH=/bin", NULL };

    collect(GOV_FIXTURES "/accel/none", env);
    assert_int_equal(snap.accel.visible[GOV_VIS_CUDA], 2);
    assert_true(snap.accel.visible[GOV_VIS_NVIDIA] == GOV_UNKNOWN);
    assert_int_equal(snap.accel.visible[GOV_VIS_ROCR], 0);
    assert_true(snap.accel.visible[GOV_VIS_HIP] == GOV_UNKNOWN); /* unset */
    /* Visibility says nothing about hardware. */
    assert_int_equal(snap.accel.nvidia_gpus, 0);
    assert_int_equal(snap.accel.nvidia_dev_nodes, 0);
}

static void test_nvidia_node(void **state)
{
    collect(GOV_FIXTURES "/accel/nvidia2", NULL);
    assert_int_equal(snap.accel.nvidia_gpus, 2);
    /* nvidiactl, nvidia-uvm and nvidia-modeset are not GPUs. */
    assert_int_equal(snap.accel.nvidia_dev_nodes, 2);
    /* Fixture modes follow the checkout; permissions have their own test. */
    assert_true(snap.accel.nvidia_dev_usable <= 2);
    assert_int_equal(snap.accel.amd_gpus, 0);
    assert_int_equal(snap.accel.kfd_usable, 0);
    assert_int_equal(snap.accel.drm_render_nodes, 0);
    /* No DRM card (nvidia-drm not loaded): no governor GPU. */
    assert_int_equal(snap.accel.gpu_index, -1);
    assert_true(snap.accel.gpu_vram_total_bytes == GOV_UNKNOWN);
    assert_true(snap.accel.gpu_vram_used_bytes == GOV_UNKNOWN);
    assert_int_equal(snap.accel.gpu_unified, -1);
    for (int i = 0; i < GOV_VIS_COUNT; i++)
        assert_true(snap.accel.visible[i] == GOV_UNKNOWN);
}

static void test_amd_node(void **state)
{
    collect(GOV_FIXTURES "/accel/amd", NULL);
    assert_int_equal(snap.accel.amd_gpus, 2);
    assert_true(snap.accel.kfd_usable == 0 || snap.accel.kfd_usable == 1);
    assert_int_equal(snap.accel.drm_render_nodes, 2);
    assert_true(snap.accel.drm_render_usable <= 2);
    assert_int_equal(snap.accel.nvidia_gpus, 0);
    /* card0, and both figures from card0 (card1 has other usage). */
    assert_int_equal(snap.accel.gpu_index, 0);
    assert_int_equal(snap.accel.gpu_vram_total_bytes, UINT64_C(68702699520));
    assert_int_equal(snap.accel.gpu_vram_used_bytes, UINT64_C(8388608));
    assert_int_equal(snap.accel.gpu_unified, 0);
}

static void test_amd_apu(void **state)
{
    collect(GOV_FIXTURES "/accel/amd-apu", NULL);
    assert_int_equal(snap.accel.amd_gpus, 1);
    assert_int_equal(snap.accel.gpu_index, 0);
    assert_int_equal(snap.accel.gpu_unified, 1);
    /* The carve-out is still reported; unified tells not to add it. */
    assert_int_equal(snap.accel.gpu_vram_total_bytes, UINT64_C(536870912));
}

/* An MI300X in DPX and NPS2: the card is half of its GPU, with its half of
 * the VRAM; a mode that names no count (CPX) says nothing. */
static void test_amd_partitions(void **state)
{
    collect(GOV_FIXTURES "/accel/amd-dpx", NULL);
    assert_int_equal(snap.accel.gpu_index, 0);
    assert_int_equal(snap.accel.gpu_partitions, 2);
    assert_int_equal(snap.accel.gpu_vram_total_bytes, UINT64_C(103079215104));
    assert_int_equal(snap.accel.gpu_unified, 0);
    collect(GOV_FIXTURES "/accel/amd", NULL);
    assert_true(snap.accel.gpu_partitions == GOV_UNKNOWN);
}

static void test_intel_igpu(void **state)
{
    collect(GOV_FIXTURES "/accel/intel", NULL);
    assert_int_equal(snap.accel.amd_gpus, 0);
    assert_int_equal(snap.accel.kfd_usable, 0);
    assert_int_equal(snap.accel.drm_render_nodes, 1);
    assert_int_equal(snap.accel.gpu_index, 0);
    assert_int_equal(snap.accel.gpu_unified, 1);
    assert_true(snap.accel.gpu_vram_total_bytes == GOV_UNKNOWN);
    assert_true(snap.accel.gpu_vram_used_bytes == GOV_UNKNOWN);
}

static void test_no_gpu(void **state)
{
    collect(GOV_FIXTURES "/accel/none", NULL);
    assert_int_equal(snap.accel.nvidia_gpus, 0);
    assert_int_equal(snap.accel.nvidia_dev_nodes, 0);
    assert_int_equal(snap.accel.nvidia_dev_usable, 0);
    assert_int_equal(snap.accel.amd_gpus, 0);
    assert_int_equal(snap.accel.kfd_usable, 0);
    assert_int_equal(snap.accel.drm_render_nodes, 0);
    assert_int_equal(snap.accel.gpu_index, -1);
    assert_int_equal(snap.accel.gpu_unified, -1);
}

static void make_file(const char *dir, const char *name, mode_t mode)
{
    char path[512];
    int fd;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    fd = open(path, O_CREAT | O_WRONLY, mode);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(chmod(path, mode), 0);
}

static void test_device_permissions(void **state)
{
    char root[] = "/tmp/gov-accel-XXXXXX", dev[64], dri[64];
    uint64_t expect;

    assert_non_null(mkdtemp(root));
    snprintf(dev, sizeof dev, "%s/dev", root);
    snprintf(dri, sizeof dri, "%s/dev/dri", root);
    assert_int_equal(mkdir(dev, 0755), 0);
    assert_int_equal(mkdir(dri, 0755), 0);
    make_file(dev, "nvidia0", 0666);
    make_file(dev, "nvidia1", 0000);
    make_file(dev, "kfd", 0444);
    make_file(dri, "renderD128", 0666);
    make_file(dri, "renderD129", 0400);

    collect(root, NULL);
    /* Root passes every permission check; anyone else is refused by the
     * modes above. */
    expect = geteuid() == 0 ? 2 : 1;
    assert_int_equal(snap.accel.nvidia_dev_nodes, 2);
    assert_int_equal(snap.accel.nvidia_dev_usable, expect);
    assert_int_equal(snap.accel.drm_render_nodes, 2);
    assert_int_equal(snap.accel.drm_render_usable, expect);
    assert_int_equal(snap.accel.kfd_usable, geteuid() == 0 ? 1 : 0);

    for (const char *const *n = (const char *const[]){ "dev/nvidia0", "dev/nvidia1",
             "dev/kfd", "dev/dri/renderD128", "dev/dri/renderD129", "dev/dri", "dev", NULL };
         *n; n++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", root, *n);
        assert_int_equal(remove(path), 0);
    }
    assert_int_equal(rmdir(root), 0);
}

/* ---- a real v1 devices cgroup --------------------------------------------- */

#define DEVICES_CG "/sys/fs/cgroup/devices"

static void put_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* Under ROOT: two NVIDIA nodes and two DRM cards with their render nodes,
 * as device nodes (no driver behind them, which access() never needs). */
static void make_gpu_tree(const char *root)
{
    static const char *const dirs[] = {
        "dev", "dev/dri", "sys", "sys/class", "sys/class/drm",
        "sys/class/drm/card0", "sys/class/drm/card0/device", "sys/class/drm/card0/device/drm",
        "sys/class/drm/card0/device/drm/renderD128",
        "sys/class/drm/card1", "sys/class/drm/card1/device", "sys/class/drm/card1/device/drm",
        "sys/class/drm/card1/device/drm/renderD129",
    };
    char path[512];

    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        assert_int_equal(mkdir(path, 0755), 0);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/dev/nvidia%d", root, i);
        assert_int_equal(mknod(path, S_IFCHR | 0666, makedev(195, (unsigned)i)), 0);
        snprintf(path, sizeof path, "%s/dev/dri/renderD%d", root, 128 + i);
        assert_int_equal(mknod(path, S_IFCHR | 0666, makedev(226, 128u + (unsigned)i)), 0);
        snprintf(path, sizeof path, "%s/sys/class/drm/card%d/device/vendor", root, i);
        put_text(path, "0x1002\n");
    }
}

/* In a child moved into a devices cgroup that denies nvidia1 and renderD128
 * (card0): the counts, the governor's card and the confinement. */
static void collect_in_cgroup(const char *tree, const char *cg, uint64_t out[6])
{
    int fds[2];
    pid_t pid;
    int status;

    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        gov_root root = fixture_root(tree);
        char self[32];
        uint64_t r[6];
        FILE *f;

        snprintf(self, sizeof self, "%d\n", (int)getpid());
        f = fopen(cg, "w");
        if (!f || fputs(self, f) < 0 || fclose(f) != 0)
            _exit(2);
        gov__accel_collect(&root, NULL, &snap.accel);
        r[0] = snap.accel.nvidia_dev_usable;
        r[1] = snap.accel.nvidia_dev_denied;
        r[2] = snap.accel.drm_render_usable;
        r[3] = snap.accel.drm_render_denied;
        r[4] = (uint64_t)(int64_t)snap.accel.gpu_index;
        r[5] = (uint64_t)(int64_t)gov__cgroup_devices_confined(NULL);
        _exit(write(fds[1], r, sizeof r) == (ssize_t)sizeof r ? 0 : 3);
    }
    close(fds[1]);
    assert_int_equal(read(fds[0], out, 6 * sizeof *out), (ssize_t)(6 * sizeof *out));
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_device_cgroup_denies(void **state)
{
    char root[] = "/tmp/gov-gpus-XXXXXX", cg[256], file[300], cmd[600];
    uint64_t r[6];

    /* Root and a v1 devices hierarchy, as a Slurm node has. */
    if (geteuid() != 0)
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "a device cgroup is root's to make");
    if (access(DEVICES_CG "/devices.deny", W_OK) != 0)
        SKIP_BECAUSE(GOV_FACT_NO_DEVICES_CG, DEVICES_CG "/devices.deny");
    assert_non_null(mkdtemp(root));
    make_gpu_tree(root);
    snprintf(cg, sizeof cg, DEVICES_CG "/gov-test-%d", (int)getpid());
    assert_int_equal(mkdir(cg, 0755), 0);
    snprintf(file, sizeof file, "%s/devices.deny", cg);
    put_text(file, "c 195:1 rwm\n");
    put_text(file, "c 226:128 rwm\n");
    snprintf(file, sizeof file, "%s/cgroup.procs", cg);

    collect_in_cgroup(root, file, r);
    assert_int_equal(rmdir(cg), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);

    assert_int_equal(r[0], 1);      /* nvidia0 usable... */
    assert_int_equal(r[1], 1);      /* ...nvidia1 denied (EPERM, even for root) */
    assert_int_equal(r[2], 1);
    assert_int_equal(r[3], 1);
    assert_int_equal(r[4], 1);      /* card0 is denied: the governor takes card1 */
    assert_int_equal(r[5], 1);      /* and the process is in a devices cgroup */
}

/* devices_confined: v1's answer is the cgroup collector's; on v2 only a
 * refusal (EPERM) shows the eBPF filter, and no refusal leaves it unknown. */
static void test_confinement(void **state)
{
    static const struct {
        int version, from_cgroup;
        uint64_t nvidia_denied, render_denied;
        int want;
    } cases[] = {
        { 1, 1, 0, 0, 1 },                      /* v1 devices cgroup below the root */
        { 1, 0, 0, 0, 0 },                      /* v1 root: every device allowed */
        { 2, -1, 2, 0, 1 },                     /* v2, a partial grant: refusals */
        { 2, -1, 0, 1, 1 },                     /* v2, a DRM render node refused */
        { 2, -1, 0, 0, -1 },                    /* v2, whole node or no filter */
        { 2, -1, GOV_UNKNOWN, GOV_UNKNOWN, -1 },
        { 1, -1, 2, 0, -1 },                    /* no devices hierarchy, not v2 */
    };
    gov_cgroup_evidence cg;
    gov_snapshot_accel a;

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&cg, 0, sizeof cg);
        cg.cpu.version = cg.memory.version = cases[i].version;
        cg.devices_confined = cases[i].from_cgroup;
        GOV_SET_UNKNOWN(&a, accel);
        a.nvidia_dev_denied = cases[i].nvidia_denied;
        a.drm_render_denied = cases[i].render_denied;
        gov__accel_confinement(&a, &cg);
        assert_int_equal(a.devices_confined, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_visible_count),
        cmocka_unit_test(test_variables_counted_apart),
        cmocka_unit_test(test_nvidia_node),
        cmocka_unit_test(test_amd_node),
        cmocka_unit_test(test_amd_apu),
        cmocka_unit_test(test_amd_partitions),
        cmocka_unit_test(test_intel_igpu),
        cmocka_unit_test(test_no_gpu),
        cmocka_unit_test(test_confinement),
        cmocka_unit_test(test_device_permissions),
        cmocka_unit_test(test_device_cgroup_denies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
