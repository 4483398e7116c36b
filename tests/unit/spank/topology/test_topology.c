/* The plugin's node topology: the table's format and strictness, the
 * summary restricted to a step's cores (on a two-package fixture with one
 * GPU, through hwloc), discovery that never touches the environment, and
 * the cache directory as root under attack: links planted at the file's
 * names, unsafe directories, files of the wrong owner or kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "topo.h"
#include "skip_because.h"

#define FIXTURE GOV_FIXTURES "/topology/two-package-gpu.xml"

static gov_topo_table *fixture_table(void)
{
    gov_topo_table *t = malloc(sizeof *t);

    assert_non_null(t);
    assert_int_equal(gov__topo_discover(FIXTURE, t), 0);
    return t;
}

static void summarise(const gov_topo_table *t, const char *cores, gov_desc_topology *out)
{
    gov_cpuset set;

    assert_int_equal(gov_cpuset_parse(cores, strlen(cores), &set), 0);
    gov__topo_summarise(t, &set, out);
}

/* A node with memory tiers (hwloc's fakeheteromemtiers machine, its XML as
 * lstopo wrote it): DRAM nodes 0, 1 and 2 have CPUs; HBM and NVM nodes 4-8
 * do not, and never count as a step's NUMA domain. */
static void test_memory_only_nodes_left_out(void **state)
{
    gov_topo_table *t = malloc(sizeof *t);
    gov_desc_topology s;

    (void)state;
    assert_non_null(t);
    assert_int_equal(gov__topo_discover(GOV_FIXTURES "/topology/fakeheteromemtiers.xml", t), 0);
    assert_int_equal(t->cores, 6);
    assert_int_equal(t->n_numa, 3);
    assert_int_equal(t->numa[0].mem_bytes, UINT64_C(3005392) * 1024);
    summarise(t, "0-5", &s);
    assert_int_equal(s.numa_nodes, 3);
    summarise(t, "0-1", &s);
    assert_int_equal(s.numa_nodes, 1);
    assert_int_equal(s.numa_count, 1);
    assert_int_equal(s.numa_mem_bytes[0], UINT64_C(3005392) * 1024);
    free(t);
}

static void test_fixture_restricted(void **state)
{
    gov_topo_table *t = fixture_table();
    gov_desc_topology s;

    (void)state;
    assert_int_equal(t->cores, 8);
    summarise(t, "0", &s);
    assert_true(s.present);
    assert_int_equal(s.packages, 1);
    assert_int_equal(s.cores, 1);
    assert_int_equal(s.pus, 2);
    assert_int_equal(s.numa_nodes, 1);
    assert_int_equal(s.numa_count, 1);
    assert_int_equal(s.numa_mem_bytes[0], UINT64_C(64) << 30);
    /* One PCI GPU (two DRM OS devices), on NUMA node 1, far from core 0. */
    assert_int_equal(s.gpu_count, 1);
    assert_int_equal(s.gpu_numa[0], 1);
    assert_false(s.gpu_local[0]);

    summarise(t, "4-7", &s);
    assert_int_equal(s.packages, 1);
    assert_int_equal(s.cores, 4);
    assert_int_equal(s.pus, 8);
    assert_int_equal(s.numa_nodes, 1);
    assert_true(s.gpu_local[0]);

    summarise(t, "3-4", &s);
    assert_int_equal(s.packages, 2);
    assert_int_equal(s.cores, 2);
    assert_int_equal(s.numa_nodes, 2);
    assert_int_equal(s.numa_count, 2);

    /* Cores the node does not have count for nothing. */
    summarise(t, "7,100", &s);
    assert_int_equal(s.cores, 1);
    summarise(t, "100", &s);
    assert_false(s.present);
    free(t);
}

static void test_table_text(void **state)
{
    gov_topo_table *t = fixture_table(), *u = malloc(sizeof *u);
    char buf[4096];
    int n;

    (void)state;
    assert_non_null(u);
    n = gov__topo_encode(t, buf, sizeof buf);
    assert_true(n > 0);
    assert_string_equal(buf, "governor-topology/1\ncores=8\npackage=0-3\npackage=4-7\n"
                             "pus=2:0-7\ncore=0-1\ncore=2-3\ncore=4-5\ncore=6-7\n"
                             "core=8-9\ncore=10-11\ncore=12-13\ncore=14-15\n"
                             "numa=0:68719476736:0-7\nnuma=1:68719476736:8-15\n"
                             "gpu=1:4-7\n");
    assert_int_equal(gov__topo_parse(buf, (size_t)n, u), 0);
    assert_memory_equal(t, u, sizeof *t);
    assert_int_equal(gov__topo_encode(t, buf, 20), GOV_ENOSPC);
    free(t);
    free(u);
}

/* Tables as the encoder wrote them before it moved onto the shared text
 * writer (two PU groups, PUs numbered apart from their cores, an empty GPU
 * list with NUMA -1): each reads and encodes back to the same bytes. */
static void test_table_same_bytes(void **state)
{
    static const char *const texts[] = {
        "governor-topology/1\ncores=6\npackage=0-5\npus=2:0-3\npus=1:4-5\ncore=0-1\n"
        "core=2-3\ncore=4-5\ncore=6-7\ncore=8\ncore=9\nnuma=0:1000:0-9\n",
        "governor-topology/1\ncores=2\npackage=0-1\npus=1:0-1\ncore=1\ncore=0\n"
        "numa=5:0:0-1\ngpu=-1:\n",
        "governor-topology/1\ncores=8\npackage=0-3\npackage=4-7\npus=2:0-7\ncore=0,8\n"
        "core=1,9\ncore=2,10\ncore=3,11\ncore=4,12\ncore=5,13\ncore=6,14\ncore=7,15\n"
        "numa=0:0:0-3,8-11\nnuma=1:0:4-7,12-15\n",
    };
    gov_topo_table *t = malloc(sizeof *t);
    char buf[512];

    (void)state;
    assert_non_null(t);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t n = strlen(texts[i]);
        assert_int_equal(gov__topo_parse(texts[i], n, t), 0);
        assert_int_equal(gov__topo_encode(t, buf, sizeof buf), (int)n);
        assert_string_equal(buf, texts[i]);
        /* One byte short of the NUL: nothing half-written. */
        assert_int_equal(gov__topo_encode(t, buf, n), GOV_ENOSPC);
        assert_string_equal(buf, "");
    }
    free(t);
}

/* The largest table there can be, with every list as long as it gets
 * (no two neighbours in one list, so no ranges): it fits the size limit,
 * and reads back. */
static void test_table_largest(void **state)
{
    gov_topo_table *t = calloc(1, sizeof *t), *u = malloc(sizeof *u);
    char *buf = malloc(GOV_TOPO_MAX_BYTES);
    int n;

    (void)state;
    assert_non_null(t);
    assert_non_null(u);
    assert_non_null(buf);
    t->cores = GOV_CPUSET_BITS;
    t->n_packages = GOV_TOPO_MAX_PACKAGES;
    t->n_pu_groups = GOV_TOPO_MAX_PU_GROUPS;
    t->n_numa = GOV_TOPO_MAX_NUMA;
    t->n_gpus = GOV_DESC_MAX_GPUS;
    for (unsigned i = 0; i < GOV_CPUSET_BITS; i++) {
        /* Core i has PU 4099 i mod 8192: a permutation, as odd numbers give. */
        unsigned pu = (unsigned)((4099ul * i) % GOV_CPUSET_BITS);
        t->package[i % GOV_TOPO_MAX_PACKAGES].bits[i / 64] |= UINT64_C(1) << (i % 64);
        t->pu_group[i % GOV_TOPO_MAX_PU_GROUPS].cores.bits[i / 64] |= UINT64_C(1) << (i % 64);
        t->pus.bits[pu / 64] |= UINT64_C(1) << (pu % 64);
        t->pu_core[pu] = (uint16_t)i;
        t->numa[pu % GOV_TOPO_MAX_NUMA].pus.bits[pu / 64] |= UINT64_C(1) << (pu % 64);
        for (unsigned g = i % 2; g < GOV_DESC_MAX_GPUS; g += 2)
            t->gpu[g].cores.bits[i / 64] |= UINT64_C(1) << (i % 64);
    }
    for (unsigned k = 0; k < GOV_TOPO_MAX_PU_GROUPS; k++)
        t->pu_group[k].pus = 1;
    for (unsigned k = 0; k < GOV_TOPO_MAX_NUMA; k++) {
        t->numa[k].os_index = INT32_MAX - k;
        t->numa[k].mem_bytes = INT64_MAX;
    }
    for (unsigned g = 0; g < GOV_DESC_MAX_GPUS; g++)
        t->gpu[g].numa_os = INT32_MAX;
    n = gov__topo_encode(t, buf, GOV_TOPO_MAX_BYTES);
    assert_true(n > 0);
    assert_int_equal(gov__topo_parse(buf, (size_t)n, u), 0);
    assert_memory_equal(t, u, sizeof *t);
    free(buf);
    free(u);
    free(t);
}

static void test_table_strict(void **state)
{
#define TOPO_HEAD "governor-topology/1\ncores=2\npackage=0-1\npus=1:0-1\n"
#define TOPO_CORES TOPO_HEAD "core=0\ncore=1\n"
    static const char *const bad[] = {
        "",
        "governor-topology/2\ncores=1\npackage=0\npus=1:0\ncore=0\nnuma=0:0:0\n",
        "governor-topology/1\npackage=0\ncores=1\npus=1:0\ncore=0\nnuma=0:0:0\n",
        TOPO_CORES "numa=0:0:0-1",                                 /* no last newline */
        "governor-topology/1\ncores=2\npackage=0\npus=1:0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",                                         /* core 1 in no package */
        "governor-topology/1\ncores=2\npackage=0-1\npackage=1\npus=1:0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",                                         /* twice */
        "governor-topology/1\ncores=2\npackage=0-2\npus=1:0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",                                         /* beyond the cores */
        "governor-topology/1\ncores=2\npackage=0,1\npus=1:0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",                                         /* not canonical */
        "governor-topology/1\ncores=2\npackage=0-1\npus=0:0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",                                         /* no PUs */
        TOPO_CORES "numa=01:0:0-1\n",
        TOPO_CORES "numa=0:01:0-1\n",
        TOPO_CORES "numa=0:0: 0-1\n",
        TOPO_CORES "numa=0:0-1\n",                                /* no OS index */
        TOPO_CORES "numa=2147483648:0:0-1\n",
        TOPO_CORES "numa=0:0:0-1\ngpu=-2:0\n",
        TOPO_CORES "numa=0:0:0-1\ncolour=blue\n",
        "governor-topology/1\ncores=2\ncores=2\npackage=0-1\npus=1:0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",
        "governor-topology/1\ncores=0\n",
        "governor-topology/1\ncores=8193\n",
        /* Out of order (found by fuzz_topo_table: it parsed, and encoded
         * into another text). */
        ("governor-topology/1\ncores=2\npackage=0\nnuma=0:0:0-1\npackage=1\npus=1:0-1\n"
         "core=0\ncore=1\n"),
        "governor-topology/1\ncores=2\npus=1:0-1\npackage=0-1\ncore=0\ncore=1\n"
        "numa=0:0:0-1\n",
        "governor-topology/1\ncores=2\npackage=0-1\ncore=0\npus=1:0-1\ncore=1\n"
        "numa=0:0:0-1\n",
        TOPO_CORES "gpu=-1:\nnuma=0:0:0-1\n",
        /* The cores' PUs. */
        TOPO_HEAD "core=0\nnuma=0:0:0\n",                         /* core 1 has none */
        TOPO_CORES "core=2\nnuma=0:0:0-2\n",                     /* a third core */
        TOPO_HEAD "core=0\ncore=0\nnuma=0:0:0\n",                /* a PU on two */
        TOPO_HEAD "core=0-1\ncore=2\nnuma=0:0:0-2\n",            /* more than its group */
        ("governor-topology/1\ncores=2\npackage=0-1\npus=2:0-1\ncore=0-1\ncore=2\n"
         "numa=0:0:0-2\n"),                                       /* fewer */
        TOPO_HEAD "core=\ncore=1\nnuma=0:0:1\n",
        TOPO_HEAD "core=1,0\ncore=2\nnuma=0:0:0-2\n",
        TOPO_HEAD "core=8192\ncore=1\nnuma=0:0:1\n",
        /* The NUMA nodes' PUs: each PU in exactly one. */
        TOPO_CORES,
        TOPO_CORES "numa=0:0:0\n",
        TOPO_CORES "numa=0:0:0-2\n",
        TOPO_CORES "numa=0:0:0-1\nnuma=1:0:1\n",
        TOPO_CORES "numa=0:0:0\nnuma=0:0:1\n",                   /* one OS index twice */
        TOPO_CORES "numa=0:0:\nnuma=1:0:0-1\n",
    };
    gov_topo_table *t = malloc(sizeof *t);
    const char *good = TOPO_HEAD "core=1\ncore=0\nnuma=5:0:0\nnuma=3:7:1\ngpu=-1:\n";

    (void)state;
    assert_non_null(t);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (gov__topo_parse(bad[i], strlen(bad[i]), t) != GOV_EPARSE)
            fail_msg("parsed: %s", bad[i]);
    }
    assert_int_equal(gov__topo_parse(good, strlen(good), t), 0);
    assert_int_equal(t->pu_core[0], 1);
    assert_int_equal(t->pu_core[1], 0);
    assert_int_equal(t->n_numa, 2);
    assert_int_equal(t->numa[0].os_index, 5);
    assert_int_equal(t->numa[1].os_index, 3);
    assert_int_equal(t->numa[1].mem_bytes, 7);
    assert_int_equal(t->gpu[0].numa_os, -1);
    free(t);
#undef TOPO_CORES
#undef TOPO_HEAD
}

/* The library never sets a variable: slurmd and slurmstepd are
 * multi-threaded, and hwloc of their own would read it later. */
static void test_discovery_leaves_environment(void **state)
{
    gov_topo_table *t = malloc(sizeof *t);

    (void)state;
    assert_non_null(t);
    unsetenv("HWLOC_PLUGINS_BLACKLIST");
    unsetenv("HWLOC_COMPONENTS");
    assert_int_equal(gov__topo_discover(NULL, t), 0);
    assert_true(t->cores >= 1);
    assert_null(getenv("HWLOC_PLUGINS_BLACKLIST"));
    assert_null(getenv("HWLOC_COMPONENTS"));
    free(t);
}

/* Only hwloc's own linux, x86 and no_os components run a discovery: with
 * HWLOC_COMPONENTS_VERBOSE (in a child, whose stderr is a file) hwloc
 * names what it excluded and what it enabled. */
static void test_discovery_components(void **state)
{
    char path[] = "/tmp/gov-hwloc-XXXXXX", log[8192];
    const char *final, *p;
    size_t len;
    pid_t child;
    int fd, status;

    (void)state;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    child = fork();
    if (child == 0) {
        gov_topo_table *t = malloc(sizeof *t);
        dup2(fd, 2);
        setenv("HWLOC_COMPONENTS_VERBOSE", "1", 1);
        _exit(t && gov__topo_discover(NULL, t) == 0 ? 0 : 1);
    }
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
    assert_int_equal(gov__read_file(NULL, path, log, sizeof log, &len), 0);
    unlink(path);
    /* Debian's hwloc builds synthetic in: it is excluded by name. */
    assert_non_null(strstr(log, "Blacklisting component `synthetic`"));
    final = strstr(log, "Final list of enabled discovery components: ");
    assert_non_null(final);
    final += strlen("Final list of enabled discovery components: ");
    for (p = final; *p && *p != '\n';) {
        size_t n = strcspn(p, "(");
        assert_true((n == 5 && !strncmp(p, "linux", 5)) || (n == 3 && !strncmp(p, "x86", 3)) ||
                    (n == 5 && !strncmp(p, "no_os", 5)));
        p += strcspn(p, ",\n");
        if (*p == ',')
            p++;
    }
}

/* ---- the cache as root --------------------------------------------------- */

struct cache {
    char base[64];     /* a root-only directory holding the rest */
    char dir[96];      /* the cache directory */
    char file[256];    /* this boot's table in it */
    char victim[128];  /* a root-only file an attacker wants */
};

static int cache_setup(void **state)
{
    static struct cache c;
    char boot[64];
    size_t len, j = 0;
    FILE *f;

    if (geteuid() != 0)
        return 0;
    /* Under /run: the plugin refuses a run directory below sticky /tmp. */
    snprintf(c.base, sizeof c.base, "/run/gov-topo-XXXXXX");
    if (!mkdtemp(c.base) ||
        gov__read_file(NULL, "/proc/sys/kernel/random/boot_id", boot, sizeof boot, &len))
        return -1;
    for (size_t i = 0; i < len; i++)
        if (boot[i] != '\n')
            boot[j++] = boot[i];
    boot[j] = '\0';
    snprintf(c.dir, sizeof c.dir, "%s/cache", c.base);
    snprintf(c.file, sizeof c.file, "%s/topology-%s.v2", c.dir, boot);
    snprintf(c.victim, sizeof c.victim, "%s/victim", c.base);
    if (mkdir(c.dir, 0755) || !(f = fopen(c.victim, "w")))
        return -1;
    fputs("root's secret\n", f);
    fclose(f);
    chmod(c.victim, 0600);
    *state = &c;
    return 0;
}

static int cache_teardown(void **state)
{
    char cmd[128];
    struct cache *c = *state;

    if (geteuid() != 0)
        return 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->base);
    return system(cmd) == 0 ? 0 : -1;
}

static bool victim_intact(const struct cache *c)
{
    char buf[64];
    size_t len;
    struct stat st;

    return lstat(c->victim, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 &&
           gov__read_file(NULL, c->victim, buf, sizeof buf, &len) == 0 &&
           !strcmp(buf, "root's secret\n");
}

/* What slurmstepd makes of the table in dir for a step on cores. */
static gov_topo_report step_of(const char *dir, const gov_cpuset *cores, gov_desc_topology *out)
{
    gov_topo_report rep;
    gov_topo_table *t = gov__topology_load(dir, &rep);

    memset(out, 0, sizeof *out);
    if (t)
        gov__topo_summarise(t, cores, out);
    free(t);
    return rep;
}

static gov_topo_report step(const struct cache *c, gov_desc_topology *out)
{
    gov_topo_report rep;
    gov_cpuset core0 = { .bits = { 1 } };

    rep = step_of(c->dir, &core0, out);
    assert_true(out->present);
    return rep;
}

static bool is_regular_0644(const char *path)
{
    struct stat st;

    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0644 &&
           st.st_uid == 0;
}

#define NEED_ROOT()                                                                    \
    do {                                                                               \
        if (geteuid() != 0)                                                            \
            SKIP_BECAUSE(GOV_FACT_NOT_ROOT,                                            \
                         "the topology cache is root's, under /run");                  \
    } while (0)

static void test_cache_round_trip(void **state)
{
    struct cache *c = *state;
    gov_desc_topology t;

    NEED_ROOT();
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_STORED);
    assert_true(is_regular_0644(c->file));
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_CACHED);
    /* A missing cache directory is created (0755, root's). */
    assert_int_equal(unlink(c->file), 0);
    assert_int_equal(rmdir(c->dir), 0);
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_STORED);
    assert_true(is_regular_0644(c->file));
}

/* Links planted at the file's name and at every name main's code used for
 * its temporary file: nothing is read or written through them. */
static void test_cache_links_not_followed(void **state)
{
    struct cache *c = *state;
    gov_desc_topology t;
    gov_topo_report rep;
    char tmp[320];

    NEED_ROOT();
    assert_int_equal(symlink(c->victim, c->file), 0);
    for (long pid = getpid() - 2; pid <= getpid() + 2; pid++) {
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", c->file, pid);
        assert_int_equal(symlink(c->victim, tmp), 0);
        snprintf(tmp, sizeof tmp, "%s/topology-x.xml.%ld.tmp", c->dir, pid);
        assert_int_equal(symlink(c->victim, tmp), 0);
    }
    rep = step(c, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_REPLACED);
    assert_non_null(strstr(rep.why, "link"));
    assert_true(victim_intact(c));
    /* The link itself was replaced by a file of root's. */
    assert_true(is_regular_0644(c->file));
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_CACHED);
    assert_true(victim_intact(c));
}

/* A directory anyone could write, or that is not root's, or that is a
 * link, or that sits under a directory others can write: refused whole,
 * and nothing is created in it. */
static void test_cache_unsafe_dirs(void **state)
{
    struct cache *c = *state;
    gov_desc_topology t;
    gov_topo_report rep;
    gov_cpuset core0 = { .bits = { 1 } };
    char other[128], link[128], open_parent[128], under[160];
    struct stat st;

    NEED_ROOT();
    assert_int_equal(chmod(c->dir, 0777), 0);
    assert_int_equal(symlink(c->victim, c->file), 0);
    rep = step(c, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    assert_non_null(strstr(rep.why, "writable by others"));
    assert_true(victim_intact(c));
    assert_int_equal(lstat(c->file, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(unlink(c->file), 0);

    assert_int_equal(chmod(c->dir, 0775), 0);
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_NO_CACHE);
    assert_int_equal(chmod(c->dir, 0755), 0);
    assert_int_equal(chown(c->dir, 65534, 65534), 0);
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_NO_CACHE);
    assert_int_equal(lstat(c->file, &st), -1);
    assert_int_equal(chown(c->dir, 0, 0), 0);

    /* The directory named through a link to a safe one. */
    snprintf(other, sizeof other, "%s/real", c->base);
    snprintf(link, sizeof link, "%s/link", c->base);
    assert_int_equal(mkdir(other, 0755), 0);
    assert_int_equal(symlink(other, link), 0);
    rep = step_of(link, &core0, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    assert_non_null(strstr(rep.why, "link"));

    /* A safe directory under one that others can write (not sticky). */
    snprintf(open_parent, sizeof open_parent, "%s/open", c->base);
    snprintf(under, sizeof under, "%s/cache", open_parent);
    assert_int_equal(mkdir(open_parent, 0777), 0);
    assert_int_equal(chmod(open_parent, 0777), 0);
    assert_int_equal(mkdir(under, 0755), 0);
    rep = step_of(under, &core0, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    assert_non_null(strstr(rep.why, "on its path"));
    /* Relative paths and dot components are not plain names. */
    rep = step_of("relative/dir", &core0, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    snprintf(under, sizeof under, "%s/../cache", c->dir);
    rep = step_of(under, &core0, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    assert_true(victim_intact(c));
}

/* A cached file of the wrong owner, mode or kind, or garbage: discovered
 * again and replaced. */
static void test_cache_bad_files(void **state)
{
    struct cache *c = *state;
    gov_desc_topology t;
    gov_topo_report rep;
    FILE *f;

    NEED_ROOT();
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_STORED);
    assert_int_equal(chown(c->file, 65534, 65534), 0);
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_REPLACED);
    assert_true(is_regular_0644(c->file));
    assert_int_equal(chmod(c->file, 0666), 0);
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_REPLACED);
    assert_true(is_regular_0644(c->file));

    assert_non_null(f = fopen(c->file, "w"));
    fputs("governor-topology/1\ncores=banana\n", f);
    fclose(f);
    rep = step(c, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_REPLACED);
    assert_non_null(strstr(rep.why, "parse"));

    /* A FIFO must not hang the read. */
    assert_int_equal(unlink(c->file), 0);
    assert_int_equal(mkfifo(c->file, 0644), 0);
    assert_int_equal(step(c, &t).outcome, GOV_TOPO_REPLACED);
    assert_true(is_regular_0644(c->file));
    /* Nor a directory. */
    assert_int_equal(unlink(c->file), 0);
    assert_int_equal(mkdir(c->file, 0755), 0);
    rep = step(c, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    assert_int_equal(rmdir(c->file), 0);
}

static void test_no_cache(void **state)
{
    gov_desc_topology t;
    gov_topo_report rep;
    gov_cpuset core0 = { .bits = { 1 } };

    (void)state;
    /* This machine, discovered directly: core 0 always exists. */
    rep = step_of(NULL, &core0, &t);
    assert_int_equal(rep.outcome, GOV_TOPO_NO_CACHE);
    assert_true(t.present);
    assert_int_equal(t.cores, 1);
    assert_true(t.pus >= 1);
    assert_int_equal(t.packages, 1);
    assert_true(t.numa_nodes >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_restricted),
        cmocka_unit_test(test_memory_only_nodes_left_out),
        cmocka_unit_test(test_table_text),
        cmocka_unit_test(test_table_same_bytes),
        cmocka_unit_test(test_table_largest),
        cmocka_unit_test(test_table_strict),
        cmocka_unit_test(test_discovery_leaves_environment),
        cmocka_unit_test(test_discovery_components),
        cmocka_unit_test_setup_teardown(test_cache_round_trip, cache_setup, cache_teardown),
        cmocka_unit_test_setup_teardown(test_cache_links_not_followed, cache_setup,
                                        cache_teardown),
        cmocka_unit_test_setup_teardown(test_cache_unsafe_dirs, cache_setup, cache_teardown),
        cmocka_unit_test_setup_teardown(test_cache_bad_files, cache_setup, cache_teardown),
        cmocka_unit_test(test_no_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
