/* report_gather.c - the step report's record, gathered in slurmstepd (root).
 *
 * Found by experiment on 22.05, 24.11 and 26.05 (docs/admin-guide.md): the
 * step's cgroups still exist in the last task_exit and are gone by
 * slurm_spank_exit, so the record is written when the last of the node's
 * tasks has exited.  The step's cgroup is read off the first task at its
 * fork (task_post_fork: it is in its cgroups by then).  CPU time comes from
 * the step's cgroup where it counts CPU (v2; v1 with a cpuacct step
 * cgroup), else from the rusage of the tasks slurmstepd reaped.  What the
 * tasks were sealed and told comes back from their own processes through
 * a page shared before the fork.  Every failure here costs a log line,
 * never the step. */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include "report_gather.h"
#include "report_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void gov__report_begin(gov_report *r, const gov_descriptor *step)
{
    memset(r, 0, sizeof *r);
    r->on = true;
    clock_gettime(CLOCK_MONOTONIC, &r->start);
    r->start_wall = (uint64_t)time(NULL);
    getrusage(RUSAGE_CHILDREN, &r->base);
    if (step->tasks_on_node == GOV_UNKNOWN || !step->tasks_on_node ||
        step->tasks_on_node > 1u << 16)
        return;
    r->slots = mmap(NULL, step->tasks_on_node * sizeof *r->slots, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r->slots == MAP_FAILED) {
        r->slots = NULL;
        slurm_info("governor: the step report will not say what tasks were told (no shared page)");
        return;
    }
    r->nslots = step->tasks_on_node;
}

bool gov__report_task_forked(gov_report *r, spank_t sp)
{
    char path[64];
    pid_t pid;

    if (!r->on || r->have_cgroups || spank_get_item(sp, S_TASK_PID, &pid) != ESPANK_SUCCESS)
        return false;
    snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    r->have_cgroups = gov__step_cgroups_of(path, &r->cg) == 0;
    return r->have_cgroups;
}

static gov_report_slot *slot_of(const gov_report *r, spank_t sp)
{
    int id;   /* spank.h: int * */

    if (!r->slots || spank_get_item(sp, S_TASK_ID, &id) != ESPANK_SUCCESS || id < 0 ||
        (size_t)id >= r->nslots)
        return NULL;
    return &r->slots[id];
}

/* The step report's GPU budget: the sealed grant only where the kernel
 * confirms it, counted as root here, in the task's device cgroup (a grant
 * a user exported on a node without gres/gpu is no budget of root's
 * record); GOV_UNKNOWN otherwise. */
static uint64_t confirmed_gpus(uint64_t grant)
{
    gov_gpu_nodes nvidia, render;
    uint64_t n;
    bool verified;

    gov__gpu_devices_count(NULL, &nvidia, &render);
    gov__gpu_seal(grant, gov__gpu_kind(&nvidia, &render), &n, &verified);
    return verified ? n : GOV_UNKNOWN;
}

void gov__report_sealed(const gov_report *r, spank_t sp, uint64_t grant)
{
    gov_report_slot *s = r->on ? slot_of(r, sp) : NULL;

    if (s) {
        s->gpus = confirmed_gpus(grant);
        s->sealed = 1;
    }
}

void gov__report_told(const gov_report *r, spank_t sp, uint64_t threads, uint64_t memory_bytes)
{
    gov_report_slot *s = slot_of(r, sp);

    if (s) {
        s->threads = threads;
        s->memory_bytes = memory_bytes;
        s->told = 1;
    }
}

/* A variable setup_env wrote into the task's environment before task_init;
 * 0 when unset or not a number. */
static uint64_t env_time(spank_t sp, const char *name)
{
    char buf[32];
    uint64_t v;

    if (spank_getenv(sp, name, buf, sizeof buf) != ESPANK_SUCCESS ||
        gov__parse_u64(buf, strlen(buf), &v))
        return 0;
    return v;
}

void gov__report_task_times(const gov_report *r, spank_t sp)
{
    gov_report_slot *s = slot_of(r, sp);

    if (s) {
        s->job_start = env_time(sp, "SLURM_JOB_START_TIME");
        s->job_end = env_time(sp, "SLURM_JOB_END_TIME");
    }
}

static uint64_t max_known(uint64_t a, uint64_t b)
{
    if (a == GOV_UNKNOWN)
        return b;
    return b == GOV_UNKNOWN || a > b ? a : b;
}

/* slurmctld gives a job without a time limit an end a year after its
 * start (job_mgr.c: "secs in year"): that is no limit. */
#define NO_LIMIT_S (365 * 24 * 3600ULL)

/* The job's limit and end from a task that knew both. */
static void job_times(const gov_report_slot *s, gov_step_record *rec)
{
    if (!s->job_start || s->job_end <= s->job_start || rec->job_end != GOV_UNKNOWN ||
        s->job_end - s->job_start >= NO_LIMIT_S)
        return;
    rec->job_end = s->job_end;
    rec->time_limit_s = s->job_end - s->job_start;
}

/* From the slots: the node's sealed GPUs, what the tasks were told, the
 * job's time limit. */
static void from_slots(const gov_report *r, gov_step_record *rec)
{
    for (size_t i = 0; i < r->nslots; i++) {
        const gov_report_slot *s = &r->slots[i];
        job_times(s, rec);
        if (s->sealed)
            rec->budget_gpus = max_known(rec->budget_gpus, s->gpus);
        if (!s->told)
            continue;
        rec->told_tasks++;
        rec->told_threads = max_known(rec->told_threads, s->threads);
        rec->told_memory_bytes = max_known(rec->told_memory_bytes, s->memory_bytes);
    }
}

static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void identity(const gov_descriptor *step, gov_step_record *rec)
{
    const char *node = getenv("SLURMD_NODENAME");   /* slurmd's, inherited */
    char host[64];

    rec->job = step->job_id;
    rec->uid = step->uid;
    if (step->step_kind == GOV_STEP_BATCH || step->step_kind == GOV_STEP_INTERACTIVE)
        snprintf(rec->step, sizeof rec->step, "%s", gov_step_kind_name(step->step_kind));
    else
        snprintf(rec->step, sizeof rec->step, "%llu", (unsigned long long)step->step_id);
    if (!node || !*node) {
        host[0] = '\0';
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        host[strcspn(host, ".")] = '\0';
        node = host;
    }
    snprintf(rec->node, sizeof rec->node, "%s", node);
    /* Names in records are plain; another character is replaced. */
    for (char *c = rec->node; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c))
            *c = '_';
    if (!rec->node[0])
        strcpy(rec->node, "unknown");
}

void gov__report_record_start(const gov_report *r, const gov_descriptor *step,
                              gov_step_record *rec)
{
    gov__step_record_init(rec);
    identity(step, rec);
    rec->start = r->start_wall;
    rec->tasks = step->tasks_on_node;
    rec->budget_cpus = step->cpus_on_node;
    if (step->step_mem_mib != GOV_UNKNOWN && step->step_mem_mib)
        rec->budget_memory_bytes = step->step_mem_mib << 20;
    if (step->gpu_share != GOV_UNKNOWN && step->gpu_share_of != GOV_UNKNOWN && step->gpu_share_of)
        rec->budget_gpu_share = (double)step->gpu_share / (double)step->gpu_share_of;
    rec->budget_gpu_memory_bytes = step->gpu_mem_bytes;
}

static void write_record(gov_report *r, const gov_spank_policy *site, const gov_descriptor *step)
{
    gov_step_record rec;
    struct timespec now;
    struct rusage ru;

    r->on = false;
    gov__report_record_start(r, step, &rec);
    clock_gettime(CLOCK_MONOTONIC, &now);
    rec.elapsed_s = (double)(now.tv_sec - r->start.tv_sec) +
                    (double)(now.tv_nsec - r->start.tv_nsec) / 1e9;
    from_slots(r, &rec);
    if (r->have_cgroups)
        gov__step_usage_read(NULL, &r->cg, &rec);
    if (isnan(rec.cpu_s) && !getrusage(RUSAGE_CHILDREN, &ru))
        rec.cpu_s = tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime) - tv_s(&r->base.ru_utime) -
                    tv_s(&r->base.ru_stime);
    gov__report_write(site, &rec);
}

void gov__report_task_exited(gov_report *r, const gov_spank_policy *site,
                             const gov_descriptor *step)
{
    if (!r->on)
        return;
    if (++r->exited == step->tasks_on_node)
        write_record(r, site, step);
}

void gov__report_end(gov_report *r, const gov_spank_policy *site, const gov_descriptor *step)
{
    if (r->on)
        write_record(r, site, step);
    if (r->slots)
        munmap(r->slots, r->nslots * sizeof *r->slots);
    r->slots = NULL;
    r->nslots = 0;
}
