/* cmd_doctor.c - `governor doctor [--json] [--sysroot DIR]`: a site audit.
 * Prints the findings of doctor.c, errors first; the exit status says
 * whether every known allocation is enforced. */
#include "cmd.h"
#include "cmd_common.h"
#include "doctor/doctor.h"
#include "doctor_runtimes.h"
#include "json/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: governor doctor [--json] [--require-descriptor] [--sysroot DIR]\n"
            "       governor doctor --runtimes [--json] [--probes DIR] [--probe-timeout S]\n"
            "\n"
            "Audit what the kernel enforces for this process against what the scheduler\n"
            "allocated, and name the Slurm setting that would close each gap.  Run it\n"
            "inside a step (srun -c1 --mem=100M governor doctor) on the nodes to check.\n"
            "\n"
            "  --json          one object: {\"schema\":\"governor.doctor/1\",\n"
            "                  \"findings\":[{\"id\",\"severity\",\"resource\",\"allocation\",\n"
            "                  \"unit\",\"enforced_by\",\"summary\",\"fix\"}...],\"exit\":N}\n"
            "  --sysroot DIR   read /proc and /sys under DIR (testing)\n"
            "  --require-descriptor  exit 3 when there is no verified descriptor, rather\n"
            "                  than judge the SLURM_* variables\n"
            "\n"
            "  --runtimes      instead, ask each runtime installed here (Go, Java, Node.js,\n"
            "                  Python, BLAS through numpy, OpenMP, PyTorch, joblib, Rust, R)\n"
            "                  what it decides, started plainly and under governor run, beside\n"
            "                  the budget; never runs your program.  --json: {\"schema\":\n"
            "                  \"governor.doctor.runtimes/1\",\"budget\",\"runtimes\":[...]}\n"
            "  --probes DIR    the compiled probes (default " GOV_PROBE_DIR ")\n"
            "  --probe-timeout S  seconds each probe may take (default 20, at most 600)\n"
            "\n"
            "Severities: ok, info, warn, error (an allocation the kernel does not enforce).\n"
            "Exit status: 0 every known allocation is enforced, 1 some allocation is not\n"
            "(an error finding), 2 usage error, 3 the snapshot could not be captured.\n"
            "With --runtimes: 0 once the runtimes were asked, whatever they answered.\n"
            "docs/rollout.md lists every finding.\n");
}

static void fmt_cpus(uint64_t n, char *buf, size_t cap)
{
    if (n == GOV_UNKNOWN)
        snprintf(buf, cap, "unknown");
    else
        snprintf(buf, cap, "%llu CPU%s", (unsigned long long)n, n == 1 ? "" : "s");
}

static void fmt_allocation(const gov_doctor_finding *f, char *buf, size_t cap)
{
    if (strcmp(f->resource, "cpu") == 0)
        fmt_cpus(f->allocation, buf, cap);
    else if (strcmp(f->resource, "gpu") == 0)
        snprintf(buf, cap, "%llu GPU%s", (unsigned long long)f->allocation,
                 f->allocation == 1 ? "" : "s");
    else
        gov__fmt_bytes(f->allocation, buf, cap);
}

/* What the kernel holds the process to, from the snapshot's layers. */
static void fmt_kernel(const gov_snapshot *s, const gov_doctor_finding *f, char *buf, size_t cap)
{
    char a[32], b[32], c[32];

    if (strcmp(f->resource, "cpu") == 0) {
        fmt_cpus(s->cpu.affinity.count, a, sizeof a);
        fmt_cpus(s->cpu.cgroup.cpuset_count, b, sizeof b);
        if (gov_known_f(s->cpu.cgroup.quota_cores))
            snprintf(c, sizeof c, "%.2f cores", s->cpu.cgroup.quota_cores);
        else
            snprintf(c, sizeof c, "%s", gov_limit_status_name(s->cpu.cgroup.quota_status));
        snprintf(buf, cap, "affinity %s, cpuset %s, quota %s", a, b, c);
    } else {
        if (s->memory.cgroup.limit_bytes != GOV_UNKNOWN)
            gov__fmt_bytes(s->memory.cgroup.limit_bytes, a, sizeof a);
        else
            snprintf(a, sizeof a, "%s", gov_limit_status_name(s->memory.cgroup.status));
        gov__fmt_memory_high(s, b, sizeof b);
        snprintf(buf, cap, "cgroup limit %s, memory.high %s", a, b);
    }
}

static void print_finding(const gov_snapshot *s, const gov_doctor_finding *f)
{
    const char *label = gov__doctor_severity_label(f->severity);
    char alloc[64], held[64], kernel[160];

    if (f->assessed) {
        fmt_allocation(f, alloc, sizeof alloc);
        gov__doctor_held_names(f, held, sizeof held);
        printf("%-6s %-11s allocation %s, enforced by %s\n", label, f->resource, alloc, held);
        if (f->severity == GOV_DOCTOR_OK)
            return;
        fmt_kernel(s, f, kernel, sizeof kernel);
        printf("%-18s %s\n", "", f->summary);
        printf("%-18s kernel: %s\n", "", kernel);
    } else {
        printf("%-6s %-11s %s\n", label, f->resource, f->summary);
    }
    if (f->fix)
        printf("%-18s fix: %s\n", "", f->fix);
}

static void print_human(const gov_snapshot *s, const gov_doctor_report *r)
{
    size_t n[GOV_DOCTOR_SEVERITY_COUNT] = { 0 };

    for (size_t i = 0; i < r->count; i++)
        n[r->findings[i].severity]++;
    printf("governor doctor: %zu error%s, %zu warning%s, %zu note%s, %zu ok\n",
           n[GOV_DOCTOR_ERROR], n[GOV_DOCTOR_ERROR] == 1 ? "" : "s", n[GOV_DOCTOR_WARN],
           n[GOV_DOCTOR_WARN] == 1 ? "" : "s", n[GOV_DOCTOR_INFO],
           n[GOV_DOCTOR_INFO] == 1 ? "" : "s", n[GOV_DOCTOR_OK]);
    /* Errors first: what needs doing is what a person reads. */
    for (int sev = GOV_DOCTOR_ERROR; sev >= GOV_DOCTOR_OK; sev--)
        for (size_t i = 0; i < r->count; i++)
            if ((int)r->findings[i].severity == sev)
                print_finding(s, &r->findings[i]);
}

struct doctor_args {
    bool runtimes;
    const char *probes;
    uint64_t timeout_s;
};

static int doctor_arg(int argc, char **argv, int *i, void *ctx)
{
    struct doctor_args *a = ctx;
    int r;

    if (!strcmp(argv[*i], "--runtimes")) {
        a->runtimes = true;
        return 1;
    }
    if ((r = gov__cmd_value_arg(argc, argv, i, "--probes", "a directory", &a->probes)))
        return r;
    r = gov__cmd_count_arg(argc, argv, i, "--probe-timeout", &a->timeout_s);
    if (r > 0 && a->timeout_s > 600) {
        fprintf(stderr, "governor: doctor: --probe-timeout takes 1 to 600 seconds\n");
        return -1;
    }
    return r;
}

int gov__cmd_doctor(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    struct doctor_args a = { 0 };
    gov_snapshot snap;
    gov_doctor_report rep;

    int rc = gov__cmd_parse(argc, argv, "doctor", usage, &o, doctor_arg, &a);

    if (rc >= 0)
        return rc;
    if (!a.runtimes && (a.probes || a.timeout_s)) {
        fprintf(stderr, "governor: doctor: --probes and --probe-timeout go with --runtimes\n");
        return GOV_EXIT_USAGE;
    }
    if ((rc = gov__cmd_capture(&o, &snap)))
        return rc;
    if (a.runtimes)
        return gov__doctor_runtimes(&snap, &o, a.probes ? a.probes : GOV_PROBE_DIR,
                                    a.timeout_s ? (unsigned)a.timeout_s : GOV_PROBE_TIMEOUT_S);
    gov__doctor_examine(&snap, &rep);
    if (o.json) {
        char *text = NULL;
        if ((rc = gov__cmd_put_json(gov__doctor_json(&rep, &text, NULL), &text)))
            return rc;
    } else {
        print_human(&snap, &rep);
    }
    return rep.exit_status ? GOV_EXIT_NO : GOV_EXIT_OK;
}
