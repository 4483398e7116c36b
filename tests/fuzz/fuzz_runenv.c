/* Fuzz the run environment's decisions on the environment a user writes
 * (core/decide/runenv.c: what `governor run` and the plugin do in every task):
 * lines of the input are the values of the variables it reads.  Never
 * crash; every memory figure set stays within the allocation; and applied
 * once, the result is a fixpoint: a second run sets every variable to the
 * same value again (a task and a `governor run` in it agree). */
#include "governor.h"
#include "decide.h"

#include <stdlib.h>
#include <string.h>

#define MIB (UINT64_C(1) << 20)
/* The names below and every variable a run may set. */
#define MAX_VARS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An allocation of 2 CPUs and 512 MiB, a scheduler bound of 256 MiB, and
 * a quarter of a 16 GiB GPU through gres/shard or gres/mps. */
static void allocation(gov_snapshot *s, bool mps)
{
    gov_snapshot_init(s);
    s->cpu.affinity.count = 2;
    s->cpu.affinity.set.bits[0] = 3;
    s->cpu.host.logical = 8;
    s->memory.host.total_bytes = 16384 * MIB;
    s->memory.host.available_bytes = 12000 * MIB;
    s->memory.cgroup.version = 1;
    s->memory.cgroup.status = GOV_LIMIT_LIMITED;
    s->memory.cgroup.limit_bytes = 512 * MIB;
    s->scheduler.source = GOV_SCHED_DESCRIPTOR;
    s->scheduler.tasks_on_node = 1;
    s->scheduler.mem_per_node_bytes = 256 * MIB;
    s->scheduler.gpu_share_kind = mps ? GOV_GPU_SHARE_MPS : GOV_GPU_SHARE_SHARD;
    s->scheduler.gpu_share = 0.25;
    s->scheduler.gpu_memory_bytes = 4096 * MIB;
    gov_snapshot_resolve(s);
}

/* envp with each of env's changes applied; strings malloc'd into owned. */
static size_t apply(char **envp, size_t n, const gov_runenv *env, char **owned, size_t *nowned)
{
    for (size_t i = 0; i < env->nvars; i++) {
        const gov_runenv_var *v = &env->vars[i];
        size_t len = strlen(v->name), k;
        for (k = 0; k < n; k++)
            if (!strncmp(envp[k], v->name, len) && envp[k][len] == '=')
                break;
        if (k == n && !v->value)
            continue;
        if (!v->value) {
            envp[k] = envp[--n];
            continue;
        }
        owned[*nowned] = malloc(len + strlen(v->value) + 2);
        if (!owned[*nowned])
            abort();
        strcpy(owned[*nowned], v->name);
        strcat(owned[*nowned], "=");
        strcat(owned[*nowned], v->value);
        envp[k] = owned[(*nowned)++];
        if (k == n)
            n++;
    }
    envp[n] = NULL;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "OMP_NUM_THREADS",
                                         "GOMEMLIMIT", "GOVERNOR_THREADS",
                                         "GOVERNOR_MEMORY_SHARE", "UV_THREADPOOL_SIZE",
                                         "XLA_PYTHON_CLIENT_MEM_FRACTION", "CUPY_GPU_MEMORY_LIMIT",
                                         "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "GOVERNOR_GPU_SHARE",
                                         "GOVERNOR_GPU_MEMORY", "XLA_CLIENT_MEM_FRACTION",
                                         "DOTNET_GCHeapHardLimit", "COMPlus_GCHeapHardLimit",
                                         "JULIA_HEAP_SIZE_HINT" };
    char *text, *envp[MAX_VARS + 1], *owned[2 * MAX_VARS];
    size_t n = 0, nowned = 0, start = 1;
    unsigned flags;
    gov_snapshot s;
    gov_runenv *env = NULL, *again = NULL;

    if (size == 0)
        return 0;
    /* The first byte picks the mode: all, CPU only, clear; force or not;
     * a shard or an MPS client. */
    flags = (data[0] & 1 ? GOV_RUNENV_FORCE : 0) |
            ((data[0] >> 1) % 3 == 1 ? GOV_RUNENV_CPU_ONLY : 0) |
            ((data[0] >> 1) % 3 == 2 ? GOV_RUNENV_CLEAR : 0);
    text = malloc(size + 64);
    if (!text)
        abort();
    for (size_t i = 1; i <= size && n < sizeof names / sizeof names[0]; i++) {
        if (i < size && data[i] != '\n')
            continue;
        size_t len = strlen(names[n]);
        envp[n] = malloc(len + 1 + (i - start) + 1);
        if (!envp[n])
            abort();
        memcpy(envp[n], names[n], len);
        envp[n][len] = '=';
        memcpy(envp[n] + len + 1, data + start, i - start);
        envp[n][len + 1 + (i - start)] = '\0';
        /* A NUL inside a value ends it, as in a real environment. */
        owned[nowned++] = envp[n++];
        start = i + 1;
    }
    envp[n] = NULL;
    allocation(&s, data[0] & 8);
    if (gov_runenv_compute(&s, 0, (const char *const *)envp, flags, &env))
        abort();
    for (size_t i = 0; i < env->count; i++) {
        const gov_runenv_entry *e = &env->entries[i];
        if (e->bytes && !e->gpu && e->action == GOV_RUNENV_SET && e->planned != GOV_UNKNOWN &&
            e->planned > s.memory.effective.limit_bytes)
            abort();
    }
    n = apply(envp, n, env, owned, &nowned);
    if (gov_runenv_compute(&s, 0, (const char *const *)envp, flags & ~GOV_RUNENV_FORCE,
                           &again))
        abort();
    /* Whatever the first run set, the second sets to the same value. */
    for (size_t i = 0; i < env->count; i++) {
        const gov_runenv_entry *a = &env->entries[i], *b = &again->entries[i];
        if (a->action == GOV_RUNENV_SET &&
            (b->action != GOV_RUNENV_SET || strcmp(a->setting, b->setting)))
            abort();
    }
    gov_runenv_free(env);
    gov_runenv_free(again);
    for (size_t i = 0; i < nowned; i++)
        free(owned[i]);
    free(text);
    return 0;
}
