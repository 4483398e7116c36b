/* knobs.c - the variables runtimes size themselves from (decide.h).  Each
 * entry names the runtime and version that reads it; docs/runtimes.md is
 * the long form, and tests/tool/test_run.sh checks that every name here is
 * documented there and in governor(1). */
#include "decide.h"

#include <string.h>

/* libuv's own pool size: its pool also waits on file I/O and DNS, so fewer
 * threads than this would stall the event loop behind one slow disk. */
#define GOV_UV_DEFAULT_THREADS 4

const gov_knob gov__knobs[] = {
    { "OMP_NUM_THREADS", NULL, GOV_KNOB_THREADS,
      "OpenMP (GCC libgomp, LLVM libomp, Intel); GNU coreutils nproc and sort" },
    { "OPENBLAS_NUM_THREADS", NULL, GOV_KNOB_THREADS, "OpenBLAS (numpy, scipy, R)" },
    { "MKL_NUM_THREADS", NULL, GOV_KNOB_THREADS, "Intel oneMKL" },
    { "BLIS_NUM_THREADS", NULL, GOV_KNOB_THREADS, "BLIS" },
    { "VECLIB_MAXIMUM_THREADS", NULL, GOV_KNOB_THREADS, "Apple Accelerate (macOS)" },
    { "NUMEXPR_NUM_THREADS", NULL, GOV_KNOB_THREADS,
      "numexpr (its threads: the host's cores otherwise, even in a 1-CPU task)" },
    { "NUMEXPR_MAX_THREADS", NULL, GOV_KNOB_THREADS, "numexpr (its pool: 64 otherwise)" },
    { "GOMAXPROCS", NULL, GOV_KNOB_THREADS,
      "Go (every version; before 1.25 Go ignores cgroup CPU quotas)" },
    { "PYTHON_CPU_COUNT", NULL, GOV_KNOB_THREADS,
      "CPython 3.13+: os.cpu_count(), os.process_cpu_count(), pool defaults" },
    { "RAYON_NUM_THREADS", NULL, GOV_KNOB_THREADS, "Rust rayon (global pool)" },
    { "TOKIO_WORKER_THREADS", NULL, GOV_KNOB_THREADS, "Rust tokio 1.24+ (multi-thread runtime)" },
    { "UV_THREADPOOL_SIZE", NULL, GOV_KNOB_IO_THREADS,
      "libuv, Node.js (fs, dns.lookup, crypto, zlib; never below libuv's default 4)" },
    { "JULIA_NUM_THREADS", NULL, GOV_KNOB_THREADS, "Julia" },
    { "POLARS_MAX_THREADS", NULL, GOV_KNOB_THREADS, "Polars" },
    { "DOTNET_PROCESSOR_COUNT", NULL, GOV_KNOB_THREADS, ".NET 6+ (Environment.ProcessorCount)" },
    { "NUMBA_NUM_THREADS", NULL, GOV_KNOB_THREADS, "Numba (parallel=True)" },
    { "MC_CORES", NULL, GOV_KNOB_THREADS, "R parallel (mclapply's mc.cores)" },
    { "LOKY_MAX_CPU_COUNT", NULL, GOV_KNOB_THREADS,
      "joblib and loky (joblib.cpu_count(), n_jobs=-1)" },
    { "GOMEMLIMIT", NULL, GOV_KNOB_GO_MEMLIMIT, "Go 1.19+ (soft memory limit of the Go runtime)" },
    { "NODE_OPTIONS", "--max-old-space-size", GOV_KNOB_NODE_HEAP,
      "Node.js (V8's old generation, MiB)" },
    { "NODE_OPTIONS", "--max-semi-space-size", GOV_KNOB_NODE_YOUNG,
      "Node.js 18.10+ (V8's young generation: three semi-spaces, MiB)" },
    { "JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount", GOV_KNOB_JAVA_CPUS,
      "HotSpot JVM (JDK 8u191+, 10+)" },
    { "JAVA_TOOL_OPTIONS", "-XX:MaxRAM", GOV_KNOB_JAVA_RAM,
      "HotSpot JVM (the memory its heap sizes are derived from)" },
    { "JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage", GOV_KNOB_JAVA_HEAP,
      "HotSpot JVM 8u191+, 10+ (the heap's share of that memory)" },
};

const size_t gov__knob_count = sizeof gov__knobs / sizeof gov__knobs[0];

int gov__knob_is_cpu(const gov_knob *k)
{
    return k->kind == GOV_KNOB_THREADS || k->kind == GOV_KNOB_IO_THREADS;
}

uint64_t gov__knob_threads(const gov_knob *k, uint64_t n)
{
    if (k->kind == GOV_KNOB_IO_THREADS && n < GOV_UV_DEFAULT_THREADS)
        return GOV_UV_DEFAULT_THREADS;
    return n;
}

size_t gov__runenv_inputs(const char **names, size_t cap)
{
    size_t n = 0;

    for (size_t i = 0; i < gov__knob_count; i++) {
        size_t j;
        for (j = 0; j < i && strcmp(gov__knobs[j].name, gov__knobs[i].name); j++)
            ;
        if (j == i) {
            if (n < cap)
                names[n] = gov__knobs[i].name;
            n++;
        }
    }
    if (n < cap)
        names[n] = GOV_THREADS_ENV;
    n++;
    if (n < cap)
        names[n] = GOV_MEMORY_ENV;
    n++;
    /* Where a narrowed mask starts (runenv.c). */
    if (n < cap)
        names[n] = GOV_LOCALID_ENV;
    return n + 1;
}
