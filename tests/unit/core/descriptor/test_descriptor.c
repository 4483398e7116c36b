/* The descriptor: text format round trip and strictness, the binding to a
 * process, and sealing through the real MUNGE daemon when one answers. */
#define _GNU_SOURCE /* unshare */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "descriptor.h"
#include "fixture_root.h"
#include "collect/collect.h"
#include "skip_because.h"
#include "test_munge.h"

static void sample(gov_descriptor *d)
{
    gov__descriptor_init(d);
    d->job_id = 1234;
    d->step_id = 0;
    d->node_index = 1;
    d->uid = 1001;
    d->boot_hash = UINT64_C(0x0123456789abcdef);
    d->pid = 4242;
    d->pid_start = 987654;
    d->pid_ns = UINT64_C(4026531836);
    d->user_ns = UINT64_C(4026531837);
    d->cgroup_ns = UINT64_C(4026531835);
    d->created = 1764500000;
    d->step_kind = GOV_STEP_NORMAL;
    d->nodes = 2;
    d->tasks_total = 3;
    d->tasks_on_node = 1;
    d->cpus_on_node = 1;
    d->cpus_per_task = 1;
    d->job_mem_mib = 400;
    d->step_mem_mib = 200;
    d->step_cores = 1;
    d->gpus_on_node = 2;
    d->topo.present = true;
    d->topo.packages = 1;
    d->topo.cores = 1;
    d->topo.pus = 1;
    d->topo.numa_nodes = 1;
    d->topo.numa_count = 1;
    d->topo.numa_mem_bytes[0] = UINT64_C(2097152000);
    d->topo.gpu_count = 2;
    d->topo.gpu_numa[0] = 0;
    d->topo.gpu_local[0] = true;
    d->topo.gpu_numa[1] = -1;
    d->policy.site.profile = GOV_PROFILE_INTERACTIVE;
    d->policy.site.profile_imposed = true;
    d->policy.site.mem_reserve_bytes = UINT64_C(2147483648);
    d->policy.site.cpu_reserve_pct = 10;
    d->policy.seal_required = true;
    d->policy.ttl_s = 600;
    d->policy.threads = true;
    d->version = GOV_DESC_VERSION;
}

static void test_roundtrip(void **state)
{
    gov_descriptor d, e;
    char buf[GOV_DESC_MAX_BYTES + 1];
    int n;

    sample(&d);
    n = gov__descriptor_encode(&d, buf, sizeof buf);
    assert_true(n > 0);
    assert_int_equal((size_t)n, strlen(buf));
    assert_true(strncmp(buf, "governor-descriptor/5\n", 22) == 0);
    assert_int_equal(gov__descriptor_parse(buf, (size_t)n, &e), 0);
    assert_memory_equal(&d, &e, sizeof d);
}

static void test_unknown_facts_omitted(void **state)
{
    gov_descriptor d, e;
    char buf[GOV_DESC_MAX_BYTES + 1];
    int n;

    sample(&d);
    d.step_mem_mib = GOV_UNKNOWN;
    d.topo.present = false;
    d.topo.numa_count = 0;
    d.topo.gpu_count = 0;
    d.topo.packages = d.topo.cores = d.topo.pus = d.topo.numa_nodes = GOV_UNKNOWN;
    n = gov__descriptor_encode(&d, buf, sizeof buf);
    assert_true(n > 0);
    assert_null(strstr(buf, "step_mem="));
    assert_null(strstr(buf, "topo="));
    assert_int_equal(gov__descriptor_parse(buf, (size_t)n, &e), 0);
    assert_int_equal(e.step_mem_mib, GOV_UNKNOWN);
    assert_false(e.topo.present);
}

static void test_worst_case_fits(void **state)
{
    gov_descriptor d;
    char buf[GOV_DESC_MAX_BYTES + 1];

    sample(&d);
    for (size_t i = 0; i < offsetof(gov_descriptor, boot_hash) / sizeof(uint64_t); i++)
        ((uint64_t *)&d)[i] = UINT64_MAX - 1;
    d.nodes = d.tasks_total = d.tasks_on_node = d.cpus_on_node = d.cpus_per_task =
        d.job_mem_mib = d.step_mem_mib = d.mem_per_cpu_mib = d.job_cores = d.step_cores =
        d.gpus_on_node = d.gpus_per_task = d.gpus_visible = d.pid_ns = d.user_ns =
            d.cgroup_ns = UINT64_MAX - 1;
    d.topo.numa_count = GOV_DESC_MAX_NUMA;
    d.topo.gpu_count = GOV_DESC_MAX_GPUS;
    for (int i = 0; i < GOV_DESC_MAX_NUMA; i++)
        d.topo.numa_mem_bytes[i] = UINT64_MAX - 1;
    for (int i = 0; i < GOV_DESC_MAX_GPUS; i++)
        d.topo.gpu_numa[i] = INT32_MAX;
    assert_true(gov__descriptor_encode(&d, buf, sizeof buf) > 0);
    /* A smaller buffer is refused, never truncated. */
    assert_int_equal(gov__descriptor_encode(&d, buf, 64), GOV_ENOSPC);
    assert_string_equal(buf, "");
}

static void test_missing_binding_refused(void **state)
{
    gov_descriptor d;
    char buf[GOV_DESC_MAX_BYTES + 1];

    sample(&d);
    d.pid = GOV_UNKNOWN;
    assert_int_equal(gov__descriptor_encode(&d, buf, sizeof buf), GOV_EINVAL);
    /* No descriptor at all: an error, not a member access through NULL
     * (UBSan reports that one; issue 16). */
    assert_int_equal(gov__descriptor_encode(NULL, buf, sizeof buf), GOV_EINVAL);
    assert_int_equal(gov__descriptor_encode(&d, NULL, 0), GOV_EINVAL);
}

static const char good[] =
    "governor-descriptor/1\njob=7\nstep=0\nnode=0\nuid=1001\npid=10\nstart=20\n"
    "created=30\nboot=00000000000000ff\nkind=normal\ngpus_verified=0\n"
    "profile=batch\nimposed=0\nseal=optional\nthreads=0\n";

static int parse_edit(const char *from, const char *to)
{
    char buf[1024];
    const char *at = strstr(good, from);
    gov_descriptor d;

    assert_non_null(at);
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    return gov__descriptor_parse(buf, strlen(buf), &d);
}

static void test_strict_parse(void **state)
{
    gov_descriptor d;

    assert_int_equal(gov__descriptor_parse(good, strlen(good), &d), 0);
    assert_int_equal(d.job_id, 7);
    assert_int_equal(d.boot_hash, 0xff);
    assert_int_equal(d.cpus_per_task, GOV_UNKNOWN);
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/6"), GOV_EVERSION);
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/0"), GOV_EVERSION);
    /* Version 2 adds gpus_usable; version 1 text with it is refused. */
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/2"), 0);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ngpus_usable=2\n"), GOV_EPARSE);
    /* Version 5 adds the GPU share; older text with it is refused, and a
     * kind without a name is not read. */
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ngpu_share_kind=shard\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/2\njob=7\ngpus_usable=2\n"), 0);
    /* Version 3 adds the namespaces. */
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/2\njob=7\npidns=4026531836\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/3\njob=7\npidns=4026531836\n"
                                "userns=4026531837\n"), GOV_EPARSE);   /* no runtimes= */
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/3\njob=7\npidns=4026531836\n"
                                "userns=4026531837\nruntimes=1\n"), 0);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\nruntimes=0\n"), GOV_EPARSE);
    /* Version 4 seals once a step: no GPU check of the plugin's
     * (gpus_verified, gpus_usable), the cgroup namespace added. */
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/4\njob=7\ncgroupns=4026531835\n"),
                     GOV_EPARSE);   /* gpus_verified, and no runtimes= */
    assert_int_equal(parse_edit("gpus_verified=0\nprofile=batch\nimposed=0\nseal=optional\n"
                                "threads=0\n", "profile=batch\nimposed=0\nseal=optional\n"
                                "threads=0\nruntimes=0\n"), GOV_EPARSE);  /* version 1 */
    {
        char v4[512];
        snprintf(v4, sizeof v4, "%s", good);
        memcpy(strstr(v4, "/1"), "/4", 2);
        *strstr(v4, "gpus_verified=0\n") = '\0';
        snprintf(v4 + strlen(v4), sizeof v4 - strlen(v4),
                 "profile=batch\nimposed=0\nseal=optional\nthreads=0\nruntimes=0\n");
        assert_int_equal(gov__descriptor_parse(v4, strlen(v4), &d), 0);
        assert_int_equal(d.version, 4);
        assert_int_equal(d.cgroup_ns, GOV_UNKNOWN);
    }
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/3\njob=7\ncgroupns=4026531835\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/x"), GOV_EPARSE);
    assert_int_equal(parse_edit("governor-descriptor/1", "gov/1"), GOV_EPARSE);
    assert_int_equal(parse_edit("job=7\n", ""), GOV_EPARSE);              /* required */
    assert_int_equal(parse_edit("job=7\n", "job=7\njob=8\n"), GOV_EPARSE); /* duplicate */
    assert_int_equal(parse_edit("job=7\n", "job=07\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("job=7\n", "job= 7\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("job=7\n", "job=\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("job=7\n", "job=18446744073709551616\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("job=7\n", "color=blue\n"), GOV_EPARSE);   /* unknown key */
    assert_int_equal(parse_edit("job=7\n", "job7\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("kind=normal", "kind=weird"), GOV_EPARSE);
    assert_int_equal(parse_edit("boot=00000000000000ff", "boot=00000000000000FF"), GOV_EPARSE);
    assert_int_equal(parse_edit("boot=00000000000000ff", "boot=ff"), GOV_EPARSE);
    assert_int_equal(parse_edit("threads=0\n", "threads=0"), GOV_EPARSE);  /* no newline */
    assert_int_equal(parse_edit("threads=0\n", "threads=2\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\nttl=3601\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\nttl=3600\n"), 0);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\nmem_reserve=101%\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\nmem_reserve=25%\n"), 0);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\nnuma_mem=1\n"), GOV_EPARSE); /* no topo */
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ntopo=1,2,3\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ntopo=1,2,2,1\ngpus=0/1,-1/0\n"), 0);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ntopo=1,2,2,1\ngpus=-2/0\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ntopo=1,2,2,1\ngpus=0/1,\n"), GOV_EPARSE);
    assert_int_equal(gov__descriptor_parse("", 0, &d), GOV_EPARSE);
    assert_int_equal(gov__descriptor_parse(good, strlen(good) - 1, &d), GOV_EPARSE);
}

static void test_proc_stat(void **state)
{
    gov_root fx = fixture_root(GOV_FIXTURES "/binding");
    uint64_t ppid = 0, start = 0;

    assert_int_equal(gov__proc_start_read(&fx, 4242, &ppid, &start), 0);
    gov__root_close(&fx);
    assert_int_equal(ppid, 4200);
    assert_int_equal(start, 987654);
    assert_int_equal(gov__proc_stat_parse("1 (x) S 0", 9, &ppid, &start), GOV_EPARSE);
    assert_int_equal(gov__proc_stat_parse("1 x S 0", 7, &ppid, &start), GOV_EPARSE);
    /* The live process: its own start time is readable. */
    assert_int_equal(gov__proc_start_read(NULL, 0, &ppid, &start), 0);
    assert_int_equal(ppid, (uint64_t)getppid());
}

static void test_boot_hash(void **state)
{
    gov_root fx = fixture_root(GOV_FIXTURES "/binding"), none = fixture_root(GOV_FIXTURES "/none");
    uint64_t h;

    assert_int_equal(gov__boot_hash_read(&fx, &h), 0);
    assert_int_equal(h, gov__boot_hash("8a870c85-e864-4aba-9d74-daa4873326ce", 36));
    assert_int_equal(gov__boot_hash("abc\n", 4), gov__boot_hash("abc", 3));
    assert_int_not_equal(gov__boot_hash("abc", 3), gov__boot_hash("abd", 3));
    assert_int_equal(gov__boot_hash_read(&none, &h), GOV_ENOENT);
    gov__root_close(&fx);
    gov__root_close(&none);
}

/* The binding check as the file hand-off makes it (nothing vouches for
 * the uid but the process itself). */
static int bind(const gov_descriptor *d, const gov_desc_claim *c)
{
    gov_desc_check chk;

    return gov__descriptor_check_binding(d, c, false, &chk);
}

/* The environment of task 0 of step 0 on node 1 of job 1234. */
static const char *const task_env[] = { "SLURM_JOB_ID=1234", "SLURM_STEP_ID=0",
                                        "SLURM_NODEID=1", NULL };

/* A descriptor for this very process, as the plugin would seal it. */
static void bound_to_self(gov_descriptor *d, gov_desc_claim *c)
{
    uint64_t ppid;

    sample(d);
    assert_int_equal(gov__proc_start_read(NULL, 0, &ppid, &d->pid_start), 0);
    d->pid = (uint64_t)getpid();
    d->uid = (uint64_t)getuid();
    gov__claim_collect(task_env, c);
    d->boot_hash = c->boot_hash;
    d->pid_ns = c->pid_ns;
    d->user_ns = c->user_ns;
    d->cgroup_ns = c->cgroup_ns;
}

/* Slurm 26.05 prints SLURM_STEP_ID with %d: salloc's interactive step
 * claims "-6", the id sealed as 0xfffffffa. */
static void test_claim_signed_step_id(void **state)
{
    static const char *const env[] = { "SLURM_JOB_ID=1234", "SLURM_STEP_ID=-6",
                                       "SLURM_NODEID=0", NULL };
    gov_descriptor d;
    gov_desc_claim c;

    bound_to_self(&d, &c);
    gov__claim_collect(env, &c);
    assert_int_equal(c.step_id, 0xfffffffau);
    d.step_id = 0xfffffffa;
    d.node_index = 0;
    assert_int_equal(bind(&d, &c), 0);
}

static void test_binding(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;
    uint64_t grandparent;

    bound_to_self(&d, &c);
    assert_int_equal(c.pid, (uint64_t)getpid());
    assert_int_equal(bind(&d, &c), 0);

    /* Sealed for our parent: its descendants, us included, verify. */
    d.pid = (uint64_t)getppid();
    assert_int_equal(gov__proc_start_read(NULL, d.pid, &grandparent, &d.pid_start), 0);
    assert_int_equal(bind(&d, &c), 0);
    /* Same pid, another start time: a recycled pid. */
    d.pid_start++;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);

    bound_to_self(&d, &c);
    d.uid++;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    /* Another user's descriptor from another node: the user decides. */
    d.boot_hash ^= 1;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    /* Another node or an earlier boot: named as such, whatever the ids. */
    bound_to_self(&d, &c);
    d.boot_hash ^= 1;
    assert_int_equal(bind(&d, &c), GOV_ENODE);
    d.step_id = 1;
    assert_int_equal(bind(&d, &c), GOV_ENODE);
    bound_to_self(&d, &c);
    d.boot_hash = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), GOV_ENODE);
    /* A process that cannot read its boot id names no other node. */
    bound_to_self(&d, &c);
    c.boot_hash = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    bound_to_self(&d, &c);
    d.step_id = 1;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    /* Emulated nodes share the boot: the same job and step on another
     * node index is another node. */
    bound_to_self(&d, &c);
    d.node_index = 0;
    assert_int_equal(bind(&d, &c), GOV_ENODE);
    d.node_index = 2;
    assert_int_equal(bind(&d, &c), GOV_ENODE);
    /* Another job's first: its node indexes are its own. */
    d.job_id++;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    /* No SLURM_NODEID outside the batch script: no node claimed. */
    bound_to_self(&d, &c);
    c.node_index = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);

    /* Claims absent: only the batch script's environment lacks them. */
    bound_to_self(&d, &c);
    c.step_id = c.node_index = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    d.step_kind = GOV_STEP_BATCH;
    d.step_id = GOV_STEP_BATCH_ID;
    d.node_index = 0;
    assert_int_equal(bind(&d, &c), 0);
    c.job_id = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);

    /* A container: another user namespace (getuid() may be 0 there) is
     * judged by the uid above it; nothing but a readable uid_map, or
     * munged's word, tells it. */
    bound_to_self(&d, &c);
    assert_true(c.pid_ns != GOV_UNKNOWN && c.user_ns != GOV_UNKNOWN);
    assert_int_equal(c.host_uid, (uint64_t)getuid());
    d.user_ns++;
    c.uid = 0;
    assert_int_equal(bind(&d, &c), 0);
    c.host_uid = d.uid + 1;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    c.host_uid = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), GOV_ENAMESPACE);
    {
        gov_desc_check chk;
        assert_int_equal(gov__descriptor_check_binding(&d, &c, true, &chk), 0);
        assert_int_equal(chk.namespaces, 1u << GOV_NAMESPACE_USER);
        assert_int_equal(chk.unchecked, 0);
        /* Another PID namespace: the ancestry is out of sight, the claims
         * and the rest still hold. */
        d.pid_ns++;
        d.pid_start++;
        assert_int_equal(gov__descriptor_check_binding(&d, &c, true, &chk), 0);
        assert_int_equal(chk.namespaces,
                         (1u << GOV_NAMESPACE_USER) | (1u << GOV_NAMESPACE_PID));
        assert_int_equal(chk.unchecked, 1u << GOV_BINDING_ANCESTRY);
        d.step_id = 1;
        assert_int_equal(gov__descriptor_check_binding(&d, &c, true, &chk), GOV_EBINDING);
    }
    /* A version 2 descriptor names no namespace: the host's initial ones
     * are the reference, and this process is in them. */
    bound_to_self(&d, &c);
    d.pid_ns = d.user_ns = d.cgroup_ns = GOV_UNKNOWN;
    assert_int_equal(bind(&d, &c), 0);
    assert_int_equal(gov__own_namespaces(&d, &c), 0);
}

/* uid_map lines as the kernel prints them: both ways, several ranges. */
static void test_uid_map(void **state)
{
    const char map[] = "         0       1001          1\n         1     100000      65536\n";

    (void)state;
    assert_int_equal(gov__uid_map_translate(map, strlen(map), 0, true), 1001);
    assert_int_equal(gov__uid_map_translate(map, strlen(map), 1, true), 100000);
    assert_int_equal(gov__uid_map_translate(map, strlen(map), 65536, true), 165535);
    assert_int_equal(gov__uid_map_translate(map, strlen(map), 65537, true), GOV_UNKNOWN);
    assert_int_equal(gov__uid_map_translate(map, strlen(map), 1001, false), 0);
    assert_int_equal(gov__uid_map_translate(map, strlen(map), 0, false), GOV_UNKNOWN);
    assert_int_equal(gov__uid_map_translate("0 0 4294967295\n", 15, 42, true), 42);
    assert_int_equal(gov__uid_map_translate("0 x 1\n", 6, 0, true), GOV_UNKNOWN);
    assert_int_equal(gov__uid_map_translate("0 1 1 1\n", 8, 0, true), GOV_UNKNOWN);
    assert_int_equal(gov__uid_map_translate("", 0, 0, true), GOV_UNKNOWN);
}

/* The namespaces a process has of its own: against the sealed ones, else
 * the kernel's initial ones. */
static void test_own_namespaces(void **state)
{
    gov_descriptor d;
    gov_desc_claim c = { 0 };

    (void)state;
    gov__descriptor_init(&d);
    c.user_ns = GOV_INIT_USER_NS;
    c.pid_ns = GOV_INIT_PID_NS;
    c.cgroup_ns = GOV_INIT_CGROUP_NS;
    assert_int_equal(gov__own_namespaces(NULL, &c), 0);
    assert_int_equal(gov__own_namespaces(&d, &c), 0);
    c.cgroup_ns = 4026532500;
    assert_int_equal(gov__own_namespaces(&d, &c), 1u << GOV_NAMESPACE_CGROUP);
    d.cgroup_ns = 4026532500;   /* slurmstepd in it too: not the process's own */
    assert_int_equal(gov__own_namespaces(&d, &c), 0);
    assert_int_equal(gov__unknown_namespaces(&c), 0);
    /* Unreadable (a mount hides /proc/self/ns): counted as its own, so
     * that the ancestry goes unchecked and the limits above the cgroup
     * root count as hidden, and named unknown. */
    c.pid_ns = GOV_UNKNOWN;
    assert_int_equal(gov__own_namespaces(NULL, &c),
                     (1u << GOV_NAMESPACE_CGROUP) | (1u << GOV_NAMESPACE_PID));
    assert_int_equal(gov__own_namespaces(&d, &c), 1u << GOV_NAMESPACE_PID);
    assert_int_equal(gov__unknown_namespaces(&c), 1u << GOV_NAMESPACE_PID);
    {
        gov_desc_check chk;
        bound_to_self(&d, &c);
        c.pid_ns = GOV_UNKNOWN;
        assert_int_equal(gov__descriptor_check_binding(&d, &c, true, &chk), 0);
        assert_int_equal(chk.unchecked, 1u << GOV_BINDING_ANCESTRY);
        assert_int_equal(chk.namespaces_unknown, 1u << GOV_NAMESPACE_PID);
    }
    /* The live process: the kernel's own namespace files name all three. */
    gov__proc_ns_read(&c.pid_ns, &c.user_ns, &c.cgroup_ns);
    assert_int_equal(gov__unknown_namespaces(&c), 0);
}

/* A real PID namespace, as `unshare --pid --fork` or a container's --pid
 * makes one: a descriptor sealed outside verifies with its ancestry named
 * as unchecked (the claims, uid and node still checked). */
static void test_binding_pid_namespace(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;
    int status;
    pid_t child;

    (void)state;
    if (geteuid() != 0)
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "unshare(CLONE_NEWPID) needs CAP_SYS_ADMIN");
    bound_to_self(&d, &c);
    child = fork();
    if (child == 0) {
        /* The namespace applies to this process's next child. */
        pid_t inner;
        int st;
        if (unshare(CLONE_NEWPID))
            _exit(2);
        inner = fork();
        if (inner == 0) {
            gov_desc_claim in;
            gov_desc_check chk;
            gov__claim_collect(task_env, &in);
            _exit(gov__descriptor_check_binding(&d, &in, false, &chk) == 0 &&
                          chk.unchecked == (1u << GOV_BINDING_ANCESTRY) &&
                          chk.namespaces == (1u << GOV_NAMESPACE_PID)
                      ? 0
                      : 1);
        }
        _exit(inner > 0 && waitpid(inner, &st, 0) == inner && WIFEXITED(st) ? WEXITSTATUS(st)
                                                                           : 3);
    }
    assert_true(child > 0);
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Below `levels` more nested processes (each the child of the one before),
 * does a descriptor sealed for this process still verify?  The answer
 * travels back up as the exit status. */
static int verifies_below(const gov_descriptor *d, int levels)
{
    gov_desc_claim c;
    int status;
    pid_t child;

    if (levels == 0) {
        gov__claim_collect(task_env, &c);
        return bind(d, &c) == 0 ? 0 : 1;
    }
    child = fork();
    if (child < 0)
        return 2;
    if (child == 0)
        _exit(verifies_below(d, levels - 1));
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
        return 2;
    return WEXITSTATUS(status);
}

/* A heterogeneous step: every task's environment names the leader (1234)
 * and counts nodes across components; component 1 (job 1235) seals its own
 * job id and node index. */
static void test_binding_het(void **state)
{
    const char *const het_env[] = { "SLURM_JOB_ID=1234", "SLURM_STEP_ID=0", "SLURM_NODEID=2",
                                    "SLURM_JOB_ID_PACK_GROUP_0=1234",
                                    "SLURM_JOB_ID_PACK_GROUP_1=1235", NULL };
    const char *const new_names[] = { "SLURM_JOB_ID=1234", "SLURM_STEP_ID=0", "SLURM_NODEID=2",
                                      "SLURM_JOB_ID_HET_GROUP_0=1234",
                                      "SLURM_JOB_ID_HET_GROUP_1=1235",
                                      "SLURM_JOB_ID_HET_GROUP_2=1240", NULL };
    const char *const forged_leader[] = { "SLURM_JOB_ID=1235", "SLURM_STEP_ID=0",
                                          "SLURM_NODEID=2", "SLURM_JOB_ID_PACK_GROUP_0=1234",
                                          "SLURM_JOB_ID_PACK_GROUP_1=1235", NULL };
    gov_descriptor d;
    gov_desc_claim c;

    bound_to_self(&d, &c);
    d.job_id = 1235;
    gov__claim_collect(het_env, &c);
    assert_int_equal(c.het_count, 2);
    d.node_index = 1;
    assert_int_equal(bind(&d, &c), 0);
    d.node_index = 0;
    assert_int_equal(bind(&d, &c), 0);
    /* The claimed index counts earlier components' nodes too: never less. */
    d.node_index = 3;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    d.node_index = 1;
    d.step_id = 1;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    d.step_id = 0;
    /* A job outside the claimed components. */
    d.job_id = 1236;
    assert_int_equal(bind(&d, &c), GOV_EBINDING);
    /* The newer names, three components. */
    gov__claim_collect(new_names, &c);
    assert_int_equal(c.het_count, 3);
    d.job_id = 1240;
    assert_int_equal(bind(&d, &c), 0);
    /* Only a claim of the leader's job id makes the index relative; taken
     * as absolute, it names another node of that job. */
    gov__claim_collect(forged_leader, &c);
    d.job_id = 1235;
    d.node_index = 0;
    assert_int_equal(bind(&d, &c), GOV_ENODE);
    d.node_index = 2;
    assert_int_equal(bind(&d, &c), 0);
}

/* Parent links that loop (a fixture: 100 -> 101 -> 102 -> 100) end the
 * walk instead of hanging it. */
static void test_binding_cycle(void **state)
{
    gov_root fx = fixture_root(GOV_FIXTURES "/binding-cycle");
    const gov_root *root = &fx;

    assert_true(gov__proc_descends_from(root, 100, 102, 30));
    assert_true(gov__proc_descends_from(root, 100, 100, 10));
    assert_false(gov__proc_descends_from(root, 100, 100, 11));
    assert_false(gov__proc_descends_from(root, 100, 4242, 1));
    /* No such process: false. */
    assert_false(gov__proc_descends_from(root, 7, 100, 10));
    gov__root_close(&fx);
}

/* A task's descendants verify however deep they are: a build system or a
 * workflow manager nests hundreds of processes. */
static void test_binding_deep_tree(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;

    bound_to_self(&d, &c);
    assert_int_equal(verifies_below(&d, 200), 0);
    /* Not bound to any of them: the walk ends at the top and says no. */
    d.pid_start++;
    assert_int_equal(verifies_below(&d, 200), 1);
}

/* Sealing needs a MUNGE daemon: NULL, for the caller to skip, where none
 * answers on MUNGE's default socket; the daemon of the test's own
 * (test_munge.h) must seal, or the test fails here. */
static char *seal_or_skip(const gov_descriptor *d)
{
    char text[GOV_DESC_MAX_BYTES + 1], why[GOV_SEAL_WHY_MAX] = "";
    char *cred = NULL;
    int n = gov__descriptor_encode(d, text, sizeof text), rc;

    assert_true(n > 0);
    rc = gov__seal_encode(test_munge_socket(), 0, GOV_UID_NONE, text, (size_t)n, &cred, why);
    if (rc)
        test_munge_fail_on_own(rc, why);
    return cred;
}

static void test_seal_verify(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_seal_info info;
    gov_desc_check chk;
    char *cred;

    bound_to_self(&d, &c);
    cred = seal_or_skip(&d);
    if (!cred)
        SKIP_BECAUSE(GOV_FACT_NO_MUNGED, "nothing to seal with");
    if (geteuid() != 0) {
        /* A user's own munged (on a socket in their own directory) could
         * say anything: its answer is not taken, whoever sealed. */
        if (test_munge_socket()) {
            assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out,
                                                    &info, &chk),
                             GOV_ESOCKET);
            assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), (uint32_t)geteuid(), &c,
                                                    &out, &info, &chk),
                             GOV_ESOCKET);
            free(cred);
            SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "a munged whose socket is root's all the way down "
                                            "needs root to start");
        }
        /* Sealed by a user through the node's munged: authentic, but not
         * trusted. */
        assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk),
                         GOV_EUNTRUSTED);
        assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), (uint32_t)geteuid(), &c, &out, &info, &chk),
                         0);
    } else {
        assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk), 0);
        assert_false(info.replayed);
        assert_int_equal(out.cpus_per_task, 1);
        /* Decoded before on this host: REPLAYED, still accepted. */
        assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk), 0);
        assert_true(info.replayed);
    }
    /* One flipped character in the credential never verifies. */
    cred[strlen(cred) / 2] ^= 0x01;
    assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk),
                     GOV_ESEAL);
    assert_int_equal(out.job_id, GOV_UNKNOWN);
    free(cred);

    /* Bound to another step: sealed fine, refused by the binding. */
    d.step_id = 5;
    cred = seal_or_skip(&d);
    assert_non_null(cred);
    if (geteuid() == 0)
        assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk),
                         GOV_EBINDING);
    free(cred);
}

/* Past its TTL, MUNGE says EXPIRED but still authenticates the payload:
 * accepted, and reported. */
static void test_expired_accepted(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_seal_info info;
    gov_desc_check chk;
    char text[GOV_DESC_MAX_BYTES + 1], why[GOV_SEAL_WHY_MAX] = "";
    char *cred = NULL;
    int n, rc;

    bound_to_self(&d, &c);
    n = gov__descriptor_encode(&d, text, sizeof text);
    assert_true(n > 0);
    if (geteuid() != 0)
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "only a seal made by uid 0 verifies without a trusted uid");
    rc = gov__seal_encode(test_munge_socket(), 1, GOV_UID_NONE, text, (size_t)n, &cred, why);
    if (rc)
        TEST_MUNGE_SKIP_UNLESS_OWN(rc, why);
    sleep(2);
    assert_int_equal(gov__descriptor_verify(cred, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk), 0);
    assert_true(info.expired);
    assert_int_equal(out.cpus_per_task, 1);
    free(cred);
}

/* A seal restricted to one uid decodes for that uid only: root, reading a
 * leaked copy, gets ESEAL. */
static void test_uid_restriction(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_seal_info info;
    gov_desc_check chk;
    char text[GOV_DESC_MAX_BYTES + 1], why[GOV_SEAL_WHY_MAX] = "";
    char *mine = NULL, *theirs = NULL;
    int n, rc;

    bound_to_self(&d, &c);
    n = gov__descriptor_encode(&d, text, sizeof text);
    assert_true(n > 0);
    if (geteuid() != 0)
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "a seal for uid 0 decodes for root only");
    rc = gov__seal_encode(test_munge_socket(), 0, 0, text, (size_t)n, &mine, why);
    if (rc)
        TEST_MUNGE_SKIP_UNLESS_OWN(rc, why);
    assert_int_equal(gov__descriptor_verify(mine, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk), 0);
    /* munged vouches for the uid of a process that decodes a restricted
     * credential: the restriction comes back with it. */
    assert_int_equal(info.uid_restriction, 0);
    assert_int_equal(gov__seal_encode(test_munge_socket(), 0, 65534, text, (size_t)n, &theirs, NULL), 0);
    assert_int_equal(gov__descriptor_verify(theirs, test_munge_socket(), GOV_UID_NONE, &c, &out, &info, &chk),
                     GOV_ESEAL);
    free(mine);
    free(theirs);
}

static void test_munge_unreachable(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_seal_info info;
    gov_desc_check chk;
    char *cred = NULL, why[GOV_SEAL_WHY_MAX] = "";

    bound_to_self(&d, &c);
    assert_int_equal(gov__seal_encode("/nonexistent/munge.socket", 0, GOV_UID_NONE, "x", 1, &cred,
                                      why),
                     GOV_EMUNGE);
    assert_null(cred);
    /* MUNGE's own words say why, for the plugin's log. */
    assert_non_null(strstr(why, "/nonexistent/munge.socket"));
    assert_int_equal(gov__descriptor_verify("MUNGE:AAAA:", "/nonexistent/munge.socket",
                                            GOV_UID_NONE, &c, &out, &info, &chk), GOV_EMUNGE);
    assert_int_equal(gov__seal_encode(NULL, 3601, GOV_UID_NONE, "x", 1, &cred, NULL), GOV_EINVAL);
}

/* The library's reading of the hand-off, assembled alone into a snapshot. */
static void collect(const gov_options *opts, const gov_root *root, const char *const *envp,
                    gov_snapshot *out)
{
    static gov_evidence e;

    gov__evidence_init(&e);
    gov__descriptor_collect(opts, root, envp, &e);
    gov__snapshot_assemble(&e, out);
}

static void test_collect(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;
    gov_snapshot_scheduler sched;
    gov_snapshot snap;
    gov_options opts = { .trusted_uid = GOV_UID_NONE, .munge_socket = test_munge_socket() };
    gov_root fx = fixture_root(GOV_FIXTURES "/binding");
    char env_desc[8192], env_job[] = "SLURM_JOB_ID=1234", env_step[] = "SLURM_STEP_ID=0",
         env_node[] = "SLURM_NODEID=1";
    const char *envp[] = { env_desc, env_job, env_step, env_node, NULL };
    char *cred;

        collect(&opts, NULL, (const char *const *)(envp + 1), &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_ABSENT);
    assert_int_equal(snap.descriptor.age_s, GOV_UNKNOWN);

    snprintf(env_desc, sizeof env_desc, "%s=garbage", GOV_DESCRIPTOR_ENV);
    collect(&opts, &fx, envp, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_ABSENT);
    gov__root_close(&fx);

    bound_to_self(&d, &c);
    cred = seal_or_skip(&d);
    if (!cred)
        SKIP_BECAUSE(GOV_FACT_NO_MUNGED, "nothing to seal with");
    if (geteuid() != 0) {
        free(cred);
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "only a seal made by uid 0 verifies without a trusted uid");
    }
    snprintf(env_desc, sizeof env_desc, "%s=%s", GOV_DESCRIPTOR_ENV, cred);
    free(cred);
        collect(&opts, NULL, envp, &snap);
    sched = snap.scheduler;
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_VERIFIED);
    assert_int_equal(snap.descriptor.reason, 0);
    assert_int_equal(sched.source, GOV_SCHED_DESCRIPTOR);
    assert_int_equal(sched.tasks_on_node, 1);
    assert_int_equal(sched.mem_per_node_bytes, UINT64_C(200) << 20);
    assert_int_equal(sched.mem_per_cpu_bytes, GOV_UNKNOWN);
    /* Provenance: the grant of 2 GPUs is the environment's, which this
     * machine's devices (none) do not confirm; nothing else the job's
     * environment could give is known. */
    assert_int_equal(sched.gpus_on_node, 2);
    assert_false(sched.gpus_verified);
    assert_int_equal(sched.gpus_on_node_source, GOV_SCHED_ENVIRONMENT);
    assert_int_equal(snap.descriptor.via, GOV_DESCRIPTOR_VIA_MUNGE);
    assert_int_equal(snap.descriptor.unchecked, 0);
    assert_int_equal(snap.descriptor.namespaces, 0);
    assert_int_equal(sched.gpus_per_task_source, GOV_SCHED_NONE);
    assert_int_equal(sched.mem_per_cpu_source, GOV_SCHED_NONE);
    assert_int_equal(snap.policy.present, 1);
    assert_int_equal(snap.policy.profile, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(snap.policy.cpu_reserve_pct, 10);

    /* The process claims another job: bound elsewhere, invalid. */
    snprintf(env_job, sizeof env_job, "SLURM_JOB_ID=1235");
        collect(&opts, NULL, envp, &snap);
    sched = snap.scheduler;
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_INVALID);
    assert_int_equal(snap.descriptor.reason, GOV_EBINDING);
    assert_int_equal(sched.source, GOV_SCHED_NONE);
}

/* The file hand-off (descriptor_file.c): root's file, 0444, read and bound
 * like a credential; anyone else's, or one others may write, refused. */
static void test_file(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_desc_check chk;
    char dir[] = "/tmp/gov-test-file.XXXXXX", path[256], text[GOV_DESC_MAX_BYTES + 1];
    FILE *f;
    int n;

    (void)state;
    bound_to_self(&d, &c);
    n = gov__descriptor_encode(&d, text, sizeof text);
    assert_true(n > 0);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/d", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, (size_t)n, f), (size_t)n);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0444), 0);
    if (geteuid() == 0) {
        assert_int_equal(gov__descriptor_verify_file(path, GOV_UID_NONE, &c, &out, &chk), 0);
        assert_int_equal(out.cpus_per_task, 1);
        /* Writable by its group: anyone in it could have written it. */
        assert_int_equal(chmod(path, 0464), 0);
        assert_int_equal(gov__descriptor_verify_file(path, GOV_UID_NONE, &c, &out, &chk),
                         GOV_EUNTRUSTED);
        assert_int_equal(out.job_id, GOV_UNKNOWN);
        assert_int_equal(chmod(path, 0444), 0);
        /* Bound elsewhere: the binding refuses it as for a credential. */
        c.job_id++;
        assert_int_equal(gov__descriptor_verify_file(path, GOV_UID_NONE, &c, &out, &chk),
                         GOV_EBINDING);
        c.job_id--;
        /* Another owner than root: the user's own, say. */
        assert_int_equal(chown(path, 65534, 65534), 0);
    }
    /* Not root's (here, or the owner just set): not trusted, unless it is
     * the trusted uid (a SlurmUser that is not root). */
    assert_int_equal(gov__descriptor_verify_file(path, GOV_UID_NONE, &c, &out, &chk),
                     GOV_EUNTRUSTED);
    assert_int_equal(gov__descriptor_verify_file(path, geteuid() == 0 ? 65534 : (uint32_t)geteuid(),
                                                 &c, &out, &chk), 0);
    /* A link is not followed at the last step; a missing file is gone. */
    {
        char link[300];
        snprintf(link, sizeof link, "%s/l", dir);
        assert_int_equal(symlink(path, link), 0);
        assert_int_equal(gov__descriptor_verify_file(link, GOV_UID_NONE, &c, &out, &chk), -ELOOP);
        unlink(link);
    }
    /* Gone from a directory that is there: its step ended, it was another
     * step's.  No directory at all: not bound into this container. */
    unlink(path);
    assert_int_equal(gov__descriptor_verify_file(path, GOV_UID_NONE, &c, &out, &chk), GOV_EBINDING);
    assert_int_equal(gov__descriptor_verify_file("/nonexistent/steps/d", GOV_UID_NONE, &c, &out,
                                                 &chk), GOV_ENOENT);
    assert_int_equal(gov__descriptor_verify_file("relative", GOV_UID_NONE, &c, &out, &chk),
                     GOV_EINVAL);
    rmdir(dir);
}

/* Who may own the file: root, the trusted uid, and where a user namespace
 * leaves root unmapped, the overflow uid it then shows. */
static void test_file_owner(void **state)
{
    (void)state;
    assert_true(gov__file_owner_trusted(0, GOV_UID_NONE, true, 65534));
    assert_false(gov__file_owner_trusted(65534, GOV_UID_NONE, true, 65534));
    assert_true(gov__file_owner_trusted(65534, GOV_UID_NONE, false, 65534));
    assert_false(gov__file_owner_trusted(1001, GOV_UID_NONE, false, 65534));
    assert_true(gov__file_owner_trusted(64030, 64030, true, 65534));
    assert_false(gov__file_owner_trusted(65534, GOV_UID_NONE, false, GOV_UNKNOWN));
}

/* The collector: the file where the credential's munged cannot be reached,
 * and both out of reach named as such. */
static void test_collect_file(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;
    gov_snapshot snap;
    gov_options opts = { .trusted_uid = GOV_UID_NONE, .munge_socket = "/nonexistent/munge.socket" };
    char dir[] = "/tmp/gov-test-file.XXXXXX", text[GOV_DESC_MAX_BYTES + 1];
    char env_file[512], env_cred[] = GOV_DESCRIPTOR_ENV "=MUNGE:AAAA:";
    const char *envp[] = { "SLURM_JOB_ID=1234", "SLURM_STEP_ID=0", "SLURM_NODEID=1", env_cred,
                           env_file, NULL };
    FILE *f;
    int n;

    (void)state;
    if (geteuid() != 0)
        SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "only root's file is trusted without a trusted uid");
    bound_to_self(&d, &c);
    n = gov__descriptor_encode(&d, text, sizeof text);
    assert_true(n > 0);
    assert_non_null(mkdtemp(dir));
    snprintf(env_file, sizeof env_file, "%s=%s/d", GOV_DESCRIPTOR_FILE_ENV, dir);
    f = fopen(strchr(env_file, '=') + 1, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, (size_t)n, f), (size_t)n);
    assert_int_equal(fclose(f), 0);
        collect(&opts, NULL, envp, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_VERIFIED);
    assert_int_equal(snap.descriptor.via, GOV_DESCRIPTOR_VIA_FILE);
    assert_int_equal(snap.scheduler.cpus_per_task, 1);
    unlink(strchr(env_file, '=') + 1);
        collect(&opts, NULL, envp, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_INVALID);
    assert_int_equal(snap.descriptor.reason, GOV_EBINDING);
    rmdir(dir);
        collect(&opts, NULL, envp, &snap);
    assert_int_equal(snap.descriptor.reason, GOV_EUNREACHABLE);
    /* Without the file's variable, munged's failure is the reason. */
    envp[4] = NULL;
        collect(&opts, NULL, envp, &snap);
    assert_int_equal(snap.descriptor.reason, GOV_EMUNGE);
}

/* Every key set: the whole text, byte for byte, in the table's order (a
 * change of order or spelling is a format change), and read back. */
static void test_every_key(void **state)
{
    gov_descriptor d, back;
    char buf[GOV_DESC_MAX_BYTES + 1];
    int n;

    (void)state;
    gov__descriptor_init(&d);
    d.job_id = 1, d.step_id = 2, d.node_index = 0, d.uid = 1001, d.pid = 77;
    d.pid_start = 88, d.created = 99, d.nodes = 2, d.tasks_total = 4, d.tasks_on_node = 2;
    d.cpus_on_node = 4, d.cpus_per_task = 2, d.job_mem_mib = 100, d.step_mem_mib = 50;
    d.gpus_on_node = 2, d.pid_ns = 5, d.user_ns = 6, d.cgroup_ns = 7, d.boot_hash = 0xabcdef;
    d.step_kind = GOV_STEP_BATCH, d.version = GOV_DESC_VERSION;
    d.topo.present = true, d.topo.packages = 2, d.topo.cores = 4, d.topo.pus = 8;
    d.topo.numa_nodes = 2, d.topo.numa_count = 2, d.topo.numa_mem_bytes[0] = 1;
    d.topo.numa_mem_bytes[1] = 2, d.topo.gpu_count = 2, d.topo.gpu_numa[0] = -1;
    d.topo.gpu_numa[1] = 1, d.topo.gpu_local[1] = true;
    d.policy.site.profile = GOV_PROFILE_INTERACTIVE, d.policy.site.profile_imposed = true;
    d.policy.site.mem_reserve_pct = 10, d.policy.site.cpu_reserve_threads = 2;
    d.policy.seal_required = true, d.policy.ttl_s = 60, d.policy.threads = true;
    d.policy.runtimes = true;
    d.gpu_share_kind = GOV_GPU_SHARE_MIG, d.gpu_share = 1, d.gpu_share_of = 1;
    d.gpu_mem_bytes = 5000000000;
    n = gov__descriptor_encode(&d, buf, sizeof buf);
    assert_true(n > 0);
    assert_string_equal(buf,
        "governor-descriptor/5\njob=1\nstep=2\nnode=0\nuid=1001\npid=77\nstart=88\n"
        "created=99\nnodes=2\ntasks=4\ntasks_node=2\nncpus=4\ncpt=2\njob_mem=100\n"
        "step_mem=50\ngpus_node=2\npidns=5\nuserns=6\ncgroupns=7\ngpu_share=1\n"
        "gpu_share_of=1\ngpu_mem=5000000000\nboot=0000000000abcdef\n"
        "kind=batch\ntopo=2,4,8,2\nnuma_mem=1,2\ngpus=-1/0,1/1\n"
        "profile=interactive\nimposed=1\nmem_reserve=10%\ncpu_reserve=2\nseal=required\n"
        "ttl=60\nthreads=1\nruntimes=1\ngpu_share_kind=mig\n");
    assert_int_equal(gov__descriptor_parse(buf, (size_t)n, &back), 0);
    assert_memory_equal(&back, &d, sizeof d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_every_key),
        cmocka_unit_test(test_unknown_facts_omitted),
        cmocka_unit_test(test_worst_case_fits),
        cmocka_unit_test(test_missing_binding_refused),
        cmocka_unit_test(test_strict_parse),
        cmocka_unit_test(test_proc_stat),
        cmocka_unit_test(test_boot_hash),
        cmocka_unit_test(test_binding),
        cmocka_unit_test(test_claim_signed_step_id),
        cmocka_unit_test(test_binding_deep_tree),
        cmocka_unit_test(test_binding_pid_namespace),
        cmocka_unit_test(test_binding_cycle),
        cmocka_unit_test(test_binding_het),
        cmocka_unit_test(test_seal_verify),
        cmocka_unit_test(test_expired_accepted),
        cmocka_unit_test(test_uid_restriction),
        cmocka_unit_test(test_munge_unreachable),
        cmocka_unit_test(test_collect),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_file_owner),
        cmocka_unit_test(test_collect_file),
        cmocka_unit_test(test_uid_map),
        cmocka_unit_test(test_own_namespaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
