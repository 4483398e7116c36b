/* The descriptor: text format round trip and strictness, the binding to a
 * process, and sealing through the real MUNGE daemon when one answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "descriptor.h"

static void sample(gov_descriptor *d)
{
    gov_descriptor_init(d);
    d->job_id = 1234;
    d->step_id = 0;
    d->node_index = 1;
    d->uid = 1001;
    d->boot_hash = UINT64_C(0x0123456789abcdef);
    d->pid = 4242;
    d->pid_start = 987654;
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
    d->gpus_usable = 2;
    d->gpus_verified = true;
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
    d->policy.profile = GOV_PROFILE_INTERACTIVE;
    d->policy.profile_imposed = true;
    d->policy.mem_reserve_bytes = UINT64_C(2147483648);
    d->policy.cpu_reserve_pct = 10;
    d->policy.seal_required = true;
    d->policy.ttl_s = 600;
    d->policy.threads = true;
}

static void test_roundtrip(void **state)
{
    gov_descriptor d, e;
    char buf[GOV_DESC_MAX_BYTES + 1];
    int n;

    sample(&d);
    n = gov_descriptor_encode(&d, buf, sizeof buf);
    assert_true(n > 0);
    assert_int_equal((size_t)n, strlen(buf));
    assert_true(strncmp(buf, "governor-descriptor/2\n", 22) == 0);
    assert_int_equal(gov_descriptor_parse(buf, (size_t)n, &e), 0);
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
    n = gov_descriptor_encode(&d, buf, sizeof buf);
    assert_true(n > 0);
    assert_null(strstr(buf, "step_mem="));
    assert_null(strstr(buf, "topo="));
    assert_int_equal(gov_descriptor_parse(buf, (size_t)n, &e), 0);
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
        d.gpus_on_node = d.gpus_per_task = d.gpus_visible = d.gpus_usable = UINT64_MAX - 1;
    d.topo.numa_count = GOV_DESC_MAX_NUMA;
    d.topo.gpu_count = GOV_DESC_MAX_GPUS;
    for (int i = 0; i < GOV_DESC_MAX_NUMA; i++)
        d.topo.numa_mem_bytes[i] = UINT64_MAX - 1;
    for (int i = 0; i < GOV_DESC_MAX_GPUS; i++)
        d.topo.gpu_numa[i] = INT32_MAX;
    assert_true(gov_descriptor_encode(&d, buf, sizeof buf) > 0);
    /* A smaller buffer is refused, never truncated. */
    assert_int_equal(gov_descriptor_encode(&d, buf, 64), GOV_ENOSPC);
    assert_string_equal(buf, "");
}

static void test_missing_binding_refused(void **state)
{
    gov_descriptor d;
    char buf[GOV_DESC_MAX_BYTES + 1];

    sample(&d);
    d.pid = GOV_UNKNOWN;
    assert_int_equal(gov_descriptor_encode(&d, buf, sizeof buf), GOV_EINVAL);
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
    return gov_descriptor_parse(buf, strlen(buf), &d);
}

static void test_strict_parse(void **state)
{
    gov_descriptor d;

    assert_int_equal(gov_descriptor_parse(good, strlen(good), &d), 0);
    assert_int_equal(d.job_id, 7);
    assert_int_equal(d.boot_hash, 0xff);
    assert_int_equal(d.cpus_per_task, GOV_UNKNOWN);
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/3"), GOV_EVERSION);
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/0"), GOV_EVERSION);
    /* Version 2 adds gpus_usable; version 1 text with it is refused. */
    assert_int_equal(parse_edit("governor-descriptor/1", "governor-descriptor/2"), 0);
    assert_int_equal(parse_edit("threads=0\n", "threads=0\ngpus_usable=2\n"), GOV_EPARSE);
    assert_int_equal(parse_edit("governor-descriptor/1\njob=7\n",
                                "governor-descriptor/2\njob=7\ngpus_usable=2\n"), 0);
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
    assert_int_equal(gov_descriptor_parse("", 0, &d), GOV_EPARSE);
    assert_int_equal(gov_descriptor_parse(good, strlen(good) - 1, &d), GOV_EPARSE);
}

static void test_proc_stat(void **state)
{
    uint64_t ppid = 0, start = 0;

    assert_int_equal(gov_proc_start_read(GOV_FIXTURES "/binding", 4242, &ppid, &start), 0);
    assert_int_equal(ppid, 4200);
    assert_int_equal(start, 987654);
    assert_int_equal(gov_proc_stat_parse("1 (x) S 0", 9, &ppid, &start), GOV_EPARSE);
    assert_int_equal(gov_proc_stat_parse("1 x S 0", 7, &ppid, &start), GOV_EPARSE);
    /* The live process: its own start time is readable. */
    assert_int_equal(gov_proc_start_read(NULL, 0, &ppid, &start), 0);
    assert_int_equal(ppid, (uint64_t)getppid());
}

static void test_boot_hash(void **state)
{
    uint64_t h;

    assert_int_equal(gov_boot_hash_read(GOV_FIXTURES "/binding", &h), 0);
    assert_int_equal(h, gov_boot_hash("8a870c85-e864-4aba-9d74-daa4873326ce", 36));
    assert_int_equal(gov_boot_hash("abc\n", 4), gov_boot_hash("abc", 3));
    assert_int_not_equal(gov_boot_hash("abc", 3), gov_boot_hash("abd", 3));
    assert_int_equal(gov_boot_hash_read(GOV_FIXTURES "/none", &h), GOV_ENOENT);
}

/* A descriptor for this very process, as the plugin would seal it. */
static void bound_to_self(gov_descriptor *d, gov_desc_claim *c)
{
    uint64_t ppid;

    sample(d);
    assert_int_equal(gov_proc_start_read(NULL, 0, &ppid, &d->pid_start), 0);
    d->pid = (uint64_t)getpid();
    d->uid = (uint64_t)getuid();
    gov_claim_collect("1234", "0", "1", c);
    d->boot_hash = c->boot_hash;
}

static void test_binding(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;

    bound_to_self(&d, &c);
    assert_true(c.n_ancestors >= 2);
    assert_int_equal(gov_descriptor_check_binding(&d, &c), 0);
    /* Sealed for our parent: its descendants, us included, verify. */
    d.pid = c.ancestors[1].pid;
    d.pid_start = c.ancestors[1].start;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), 0);
    /* Same pid, another start time: a recycled pid. */
    d.pid_start++;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);

    bound_to_self(&d, &c);
    d.uid++;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);
    bound_to_self(&d, &c);
    d.boot_hash ^= 1;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);
    bound_to_self(&d, &c);
    d.step_id = 1;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);
    bound_to_self(&d, &c);
    d.node_index = 0;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);

    /* Claims absent: only the batch script's environment lacks them. */
    bound_to_self(&d, &c);
    c.step_id = c.node_index = GOV_UNKNOWN;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);
    d.step_kind = GOV_STEP_BATCH;
    d.step_id = GOV_STEP_BATCH_ID;
    d.node_index = 0;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), 0);
    c.job_id = GOV_UNKNOWN;
    assert_int_equal(gov_descriptor_check_binding(&d, &c), GOV_EBINDING);
}

/* Sealing needs a MUNGE daemon; the test runs only where one answers. */
static char *seal_or_skip(const gov_descriptor *d)
{
    char text[GOV_DESC_MAX_BYTES + 1];
    char *cred = NULL;
    int n = gov_descriptor_encode(d, text, sizeof text);

    assert_true(n > 0);
    if (gov_seal_encode(NULL, 0, text, (size_t)n, &cred))
        return NULL;
    return cred;
}

static void test_seal_verify(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_seal_info info;
    char *cred;

    bound_to_self(&d, &c);
    cred = seal_or_skip(&d);
    if (!cred) {
        skip();
        return;
    }
    if (geteuid() != 0) {
        /* Sealed by a user: authentic, but not trusted. */
        assert_int_equal(gov_descriptor_verify(cred, NULL, GOV_UID_NONE, &c, &out, &info),
                         GOV_EUNTRUSTED);
        assert_int_equal(gov_descriptor_verify(cred, NULL, (uint32_t)geteuid(), &c, &out, &info),
                         0);
    } else {
        assert_int_equal(gov_descriptor_verify(cred, NULL, GOV_UID_NONE, &c, &out, &info), 0);
        assert_false(info.replayed);
        assert_int_equal(out.cpus_per_task, 1);
        /* Decoded before on this host: REPLAYED, still accepted. */
        assert_int_equal(gov_descriptor_verify(cred, NULL, GOV_UID_NONE, &c, &out, &info), 0);
        assert_true(info.replayed);
    }
    /* One flipped character in the credential never verifies. */
    cred[strlen(cred) / 2] ^= 0x01;
    assert_int_equal(gov_descriptor_verify(cred, NULL, GOV_UID_NONE, &c, &out, &info),
                     GOV_ESEAL);
    assert_int_equal(out.job_id, GOV_UNKNOWN);
    free(cred);

    /* Bound to another step: sealed fine, refused by the binding. */
    d.step_id = 5;
    cred = seal_or_skip(&d);
    assert_non_null(cred);
    if (geteuid() == 0)
        assert_int_equal(gov_descriptor_verify(cred, NULL, GOV_UID_NONE, &c, &out, &info),
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
    char text[GOV_DESC_MAX_BYTES + 1];
    char *cred = NULL;
    int n;

    bound_to_self(&d, &c);
    n = gov_descriptor_encode(&d, text, sizeof text);
    assert_true(n > 0);
    if (geteuid() != 0 || gov_seal_encode(NULL, 1, text, (size_t)n, &cred)) {
        skip();
        return;
    }
    sleep(2);
    assert_int_equal(gov_descriptor_verify(cred, NULL, GOV_UID_NONE, &c, &out, &info), 0);
    assert_true(info.expired);
    assert_int_equal(out.cpus_per_task, 1);
    free(cred);
}

static void test_munge_unreachable(void **state)
{
    gov_descriptor d, out;
    gov_desc_claim c;
    gov_seal_info info;
    char *cred = NULL;

    bound_to_self(&d, &c);
    assert_int_equal(gov_seal_encode("/nonexistent/munge.socket", 0, "x", 1, &cred), GOV_EMUNGE);
    assert_null(cred);
    assert_int_equal(gov_descriptor_verify("MUNGE:AAAA:", "/nonexistent/munge.socket",
                                           GOV_UID_NONE, &c, &out, &info), GOV_EMUNGE);
    assert_int_equal(gov_seal_encode(NULL, 3601, "x", 1, &cred), GOV_EINVAL);
}

static void test_collect(void **state)
{
    gov_descriptor d;
    gov_desc_claim c;
    gov_sched_evidence sched;
    gov_snapshot snap;
    gov_options opts = { .trusted_uid = GOV_UID_NONE };
    char env_desc[8192], env_job[] = "SLURM_JOB_ID=1234", env_step[] = "SLURM_STEP_ID=0",
         env_node[] = "SLURM_NODEID=1";
    const char *envp[] = { env_desc, env_job, env_step, env_node, NULL };
    char *cred;

    memset(&snap, 0, sizeof snap);
    gov_descriptor_collect(&opts, (const char *const *)(envp + 1), &sched, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_ABSENT);
    assert_int_equal(snap.descriptor.age_s, GOV_UNKNOWN);

    snprintf(env_desc, sizeof env_desc, "%s=garbage", GOV_DESCRIPTOR_ENV);
    opts.sysroot = GOV_FIXTURES "/binding";
    gov_descriptor_collect(&opts, envp, &sched, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_ABSENT);
    opts.sysroot = NULL;

    bound_to_self(&d, &c);
    cred = seal_or_skip(&d);
    if (!cred || geteuid() != 0) {
        free(cred);
        skip();
        return;
    }
    snprintf(env_desc, sizeof env_desc, "%s=%s", GOV_DESCRIPTOR_ENV, cred);
    free(cred);
    memset(&sched, 0, sizeof sched);
    gov_descriptor_collect(&opts, envp, &sched, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_VERIFIED);
    assert_int_equal(snap.descriptor.reason, 0);
    assert_int_equal(sched.source, GOV_SCHED_DESCRIPTOR);
    assert_int_equal(sched.tasks_on_node, 1);
    assert_int_equal(sched.mem_per_node_bytes, UINT64_C(200) << 20);
    assert_int_equal(sched.mem_per_cpu_bytes, GOV_UNKNOWN);
    assert_int_equal(snap.policy.present, 1);
    assert_int_equal(snap.policy.profile, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(snap.policy.cpu_reserve_pct, 10);

    /* The process claims another job: bound elsewhere, invalid. */
    snprintf(env_job, sizeof env_job, "SLURM_JOB_ID=1235");
    memset(&sched, 0, sizeof sched);
    gov_descriptor_collect(&opts, envp, &sched, &snap);
    assert_int_equal(snap.descriptor.status, GOV_DESCRIPTOR_INVALID);
    assert_int_equal(snap.descriptor.reason, GOV_EBINDING);
    assert_int_equal(sched.source, GOV_SCHED_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_unknown_facts_omitted),
        cmocka_unit_test(test_worst_case_fits),
        cmocka_unit_test(test_missing_binding_refused),
        cmocka_unit_test(test_strict_parse),
        cmocka_unit_test(test_proc_stat),
        cmocka_unit_test(test_boot_hash),
        cmocka_unit_test(test_binding),
        cmocka_unit_test(test_seal_verify),
        cmocka_unit_test(test_expired_accepted),
        cmocka_unit_test(test_munge_unreachable),
        cmocka_unit_test(test_collect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
