/* knobs.c - the variables runtimes size themselves from (decide.h), one
 * row each with everything about it: who reads it, from which version, its
 * figure and how it is written, the other spellings of its option, how a
 * user's own value is read, and what the runtime reads for itself.
 * docs/runtimes.md is the long form; tests/tool/test_run.sh checks that
 * every name here is documented there and in governor(1), whose lists, as
 * governor.so(8)'s, are made from this table (docs/man/knob_lists.c). */
#include "decide.h"
#include "base.h"

#include <math.h>
#include <string.h>

/* .NET's GC heap in a container defaults to three quarters of the limit
 * (garbage-collector.md, "Heap hard limit"): the same of the share. */
#define GOV_DOTNET_PERCENT 75

/* The GPU pools' part of a shared GPU's share (gpu_pool()). */
#define GOV_GPU_POOL_PERCENT 75

/* libuv's own pool size (UV_THREADPOOL_SIZE's default). */
#define GOV_UV_DEFAULT_THREADS 4

/* GOMEMLIMIT bounds only the Go runtime's own memory: cgo allocations and
 * the binary itself live in the same share, so leave them a tenth. */
#define GOV_GO_PERCENT 90
/* V8's old generation is most, not all, of a Node process: V8's young
 * generation (up to 48 MiB), code, and Node's own memory outside the heap
 * need the rest.  Leave them a quarter of the share, at least 128 MiB
 * (Node's documentation suggests three quarters of the memory for the old
 * generation); a share too small for that gets a quarter, V8's own ratio. */
#define GOV_NODE_HEADROOM_MIB 128
#define GOV_NODE_MIN_MIB 16
/* That headroom holds V8's young generation (three semi-spaces) only while
 * a semi-space stays at Node 20's 16 MiB: Node 22+ grow it with the host's
 * memory (64 MiB each on a 24 GiB host: 192 MiB, seen with Node 24), past
 * a step's memory.  So cap it: 16 MiB, or a sixteenth of a smaller share. */
#define GOV_NODE_SEMI_MIB 16
/* HotSpot gives its heap a quarter of the memory it sees (half below about
 * 250 MiB), and Go 90 % and Node 75 % of the same share leave the JVM the
 * worst off (issue 37: 200 MiB live in 512 MiB ran out of heap).  The rest
 * of a JVM (metaspace, code cache, the GC's own structures, thread stacks,
 * direct buffers) needs Node's headroom: a quarter, at least 128 MiB.  At
 * or under 256 MiB that leaves at most the half HotSpot takes itself. */
#define GOV_JAVA_HEADROOM_MIB 128
#define GOV_JAVA_OWN_PERCENT 50

/* ---- the figures ---------------------------------------------------------- */

/* Percent of a share, whole MiB. */
static uint64_t pct_mib(uint64_t share, unsigned percent)
{
    return (share / 100 * percent + share % 100 * percent / 100) / GOV_MIB;
}

static uint64_t node_heap_mib(uint64_t share)
{
    uint64_t mib = pct_mib(share, 100), room = mib / 4;

    if (room < GOV_NODE_HEADROOM_MIB)
        room = GOV_NODE_HEADROOM_MIB;
    return mib > room + GOV_NODE_MIN_MIB ? mib - room : mib / 4;
}

/* The heap's percentage of the share; 0 where HotSpot's own is as large. */
static uint64_t java_heap_percent(uint64_t share)
{
    uint64_t mib = pct_mib(share, 100), room = mib / 4, pct;

    if (room < GOV_JAVA_HEADROOM_MIB)
        room = GOV_JAVA_HEADROOM_MIB;
    if (mib <= room)
        return 0;
    pct = (mib - room) * 100 / mib;
    return pct > GOV_JAVA_OWN_PERCENT ? pct : 0;
}

static uint64_t node_semi_mib(uint64_t share)
{
    uint64_t mib = pct_mib(share, 100) / 16;

    return mib < GOV_NODE_SEMI_MIB ? mib : GOV_NODE_SEMI_MIB;
}

/* Each knob's figure for the basis, as written, into *value; *planned
 * gets the threads, bytes or thousandths of a GPU it stands for.  A figure
 * of 0 is nothing useful to set. */
static gov_runenv_reason nonzero(uint64_t v)
{
    return v ? GOV_RUNENV_PLANNED : GOV_RUNENV_TOO_SMALL;
}

static gov_runenv_reason fig_threads(const gov_knob_basis *b, uint64_t *value, uint64_t *planned)
{
    return nonzero(*value = *planned = b->threads);
}

/* libuv's pool also waits on file I/O and DNS: fewer threads than its own
 * default would stall the event loop behind one slow disk. */
static gov_runenv_reason fig_io_threads(const gov_knob_basis *b, uint64_t *value,
                                        uint64_t *planned)
{
    *value = *planned = b->threads < GOV_UV_DEFAULT_THREADS ? GOV_UV_DEFAULT_THREADS : b->threads;
    return GOV_RUNENV_PLANNED;
}

/* A figure in MiB; planned, its bytes. */
static gov_runenv_reason in_mib(uint64_t mib, uint64_t *value, uint64_t *planned)
{
    *value = mib;
    *planned = mib * GOV_MIB;
    return nonzero(mib);
}

static gov_runenv_reason fig_go(const gov_knob_basis *b, uint64_t *value, uint64_t *planned)
{
    return in_mib(pct_mib(b->share, GOV_GO_PERCENT), value, planned);
}

static gov_runenv_reason fig_node_heap(const gov_knob_basis *b, uint64_t *value,
                                       uint64_t *planned)
{
    return in_mib(node_heap_mib(b->share), value, planned);
}

static gov_runenv_reason fig_node_young(const gov_knob_basis *b, uint64_t *value,
                                        uint64_t *planned)
{
    return in_mib(node_semi_mib(b->share), value, planned);
}

static gov_runenv_reason fig_java_ram(const gov_knob_basis *b, uint64_t *value,
                                      uint64_t *planned)
{
    return in_mib(pct_mib(b->share, 100), value, planned);
}

static gov_runenv_reason fig_dotnet_heap(const gov_knob_basis *b, uint64_t *value,
                                         uint64_t *planned)
{
    *value = *planned = pct_mib(b->share, GOV_DOTNET_PERCENT) * GOV_MIB;
    return nonzero(*value);
}

/* Julia takes its own reserve (250 MiB for LLVM and libraries) off the
 * hint: the whole share, in MiB. */
static gov_runenv_reason fig_julia_hint(const gov_knob_basis *b, uint64_t *value,
                                        uint64_t *planned)
{
    return in_mib(pct_mib(b->share, 100), value, planned);
}

/* Written as a percentage; planned, the heap it makes of the share.  None
 * where HotSpot's own half of a small share is as large. */
static gov_runenv_reason fig_java_heap(const gov_knob_basis *b, uint64_t *value,
                                       uint64_t *planned)
{
    uint64_t pct = java_heap_percent(b->share);

    *value = pct;
    *planned = pct_mib(b->share, (unsigned)pct) * GOV_MIB;
    if (pct)
        return GOV_RUNENV_PLANNED;
    return b->share >= GOV_MIB ? GOV_RUNENV_RUNTIME_HALF : GOV_RUNENV_TOO_SMALL;
}

/* The GPU pools' part of a shared GPU, in thousandths of the GPU: three
 * quarters of the share, JAX's own default proportion of a whole GPU,
 * which leaves the CUDA context and the libraries' workspaces the rest. */
static gov_runenv_reason gpu_pool(const gov_knob_basis *b, uint64_t *milli)
{
    if (!b->gpu_milli)
        return GOV_RUNENV_NO_GPU_SHARE;
    *milli = b->gpu_milli * GOV_GPU_POOL_PERCENT / 100;
    return nonzero(*milli);
}

static gov_runenv_reason fig_gpu_fraction(const gov_knob_basis *b, uint64_t *value,
                                          uint64_t *planned)
{
    gov_runenv_reason why = gpu_pool(b, value);

    *planned = *value;
    return why;
}

/* CuPy takes whole percents. */
static gov_runenv_reason fig_gpu_percent(const gov_knob_basis *b, uint64_t *value,
                                         uint64_t *planned)
{
    uint64_t milli = 0;
    gov_runenv_reason why = gpu_pool(b, &milli);

    *value = milli / 10;
    *planned = *value * 10;
    return why == GOV_RUNENV_PLANNED ? nonzero(*value) : why;
}

/* Growth on demand instead of the whole card: no figure. */
static gov_runenv_reason fig_gpu_grow(const gov_knob_basis *b, uint64_t *value,
                                      uint64_t *planned)
{
    *value = 1;
    *planned = GOV_UNKNOWN;
    return b->gpu_milli ? GOV_RUNENV_PLANNED : GOV_RUNENV_NO_GPU_SHARE;
}

/* An MPS client's pinned memory: the whole share, in MiB. */
static gov_runenv_reason fig_mps_memory(const gov_knob_basis *b, uint64_t *value,
                                        uint64_t *planned)
{
    if (!b->gpu_milli)
        return GOV_RUNENV_NO_GPU_SHARE;
    if (b->gpu_kind != GOV_GPU_SHARE_MPS)
        return GOV_RUNENV_NOT_MPS;
    if (b->gpu_memory == GOV_UNKNOWN)
        return GOV_RUNENV_GPU_MEMORY_UNKNOWN;
    return in_mib(b->gpu_memory / GOV_MIB, value, planned);
}

/* A user's figure in the knob's own setting (which: the index of the
 * spelling found, 0 the one we write), in the unit of planned; GOV_UNKNOWN
 * when it is not a number. */
static uint64_t user_count(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_count(v, n, &x) ? GOV_UNKNOWN : x;
}

static uint64_t user_go(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_go_bytes(v, n, &x) ? GOV_UNKNOWN : x;
}

static uint64_t user_mib(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_count(v, n, &x) || x > UINT64_MAX / GOV_MIB ? GOV_UNKNOWN : x * GOV_MIB;
}

static uint64_t user_java_size(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_java_size(v, n, &x) ? GOV_UNKNOWN : x;
}

/* A heap given as a percentage or a fraction counts against the share. */
static uint64_t user_java_heap(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    if (which == 1 || which == 2)
        return user_java_size(which, v, n, b);
    if (gov__envval_count(v, n, &x) || !x || (which == 0 && x > 100))
        return GOV_UNKNOWN;
    return which == 0 ? pct_mib(b->share, (unsigned)x) * GOV_MIB : b->share / x;
}

/* .NET's hexadecimal bytes ("0x" optional); its percentage names
 * (also[0], also[2]) are of the memory it sees, not comparable. */
static uint64_t user_dotnet(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)b;
    if (which == GOV_ALSO_WHICH || which == GOV_ALSO_WHICH + 2)
        return GOV_UNKNOWN;
    if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
        v += 2, n -= 2;
    return gov__parse_hex(v, n, 0, &x) ? GOV_UNKNOWN : x;
}

static uint64_t user_size(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_size(v, n, &x) ? GOV_UNKNOWN : x;
}

static uint64_t user_fraction(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_fraction(v, n, &x) ? GOV_UNKNOWN : x;
}

/* A word, not a figure ("true", "false"). */
static uint64_t user_word(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    (void)which, (void)v, (void)n, (void)b;
    return GOV_UNKNOWN;
}

/* CuPy's limit as a percentage, or bytes: those in thousandths of the GPU
 * where the share's memory tells the card's. */
static uint64_t user_gpu_limit(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which;
    if (!gov__envval_percent(v, n, &x))
        return x;
    if (gov__envval_count(v, n, &x) || !b->gpu_milli || b->gpu_memory == GOV_UNKNOWN ||
        !b->gpu_memory || x > UINT64_MAX / GOV_GPU_MILLI / GOV_GPU_MILLI)
        return GOV_UNKNOWN;
    return x * b->gpu_milli / b->gpu_memory;
}

static uint64_t user_mps_memory(size_t which, const char *v, size_t n, const gov_knob_basis *b)
{
    uint64_t x;

    (void)which, (void)b;
    return gov__envval_mps_limit(v, n, &x) ? GOV_UNKNOWN : x;
}

/* The CPUs HotSpot counts by itself: its affinity mask and, with container
 * support, the cgroup quota rounded up. */
static uint64_t jvm_cpus(const gov_snapshot *s)
{
    uint64_t n = s->cpu.affinity.count;
    double q = s->cpu.cgroup.quota_cores;

    if (!isnan(q)) {
        uint64_t c = q < 1.0 ? 1 : (uint64_t)ceil(q);
        if (n == GOV_UNKNOWN || c < n)
            n = c;
    }
    return n;
}

/* What the runtime reads itself, where that is what we would set: then
 * nothing needs setting.  GOV_UNKNOWN otherwise. */
static uint64_t sees_java_cpus(const gov_snapshot *s, const gov_knob_basis *b)
{
    uint64_t seen = jvm_cpus(s);

    return seen != GOV_UNKNOWN && b->threads >= seen ? seen : GOV_UNKNOWN;
}

static uint64_t sees_java_ram(const gov_snapshot *s, const gov_knob_basis *b)
{
    uint64_t seen, share = b->share;

    /* The heap's percentage needs its base pinned: a JVM in a container
     * with its own cgroup namespace sees the host, not the limit this task
     * saw before it entered (75 % of a 24 GiB host in a 512 MiB step). */
    if (java_heap_percent(share))
        return GOV_UNKNOWN;
    /* With container support HotSpot reads the cgroup's hard limit (v1:
     * the hierarchical one) but nothing of the scheduler or our share. */
    seen = s->memory.cgroup.status == GOV_LIMIT_LIMITED ? s->memory.cgroup.limit_bytes
                                                        : GOV_UNKNOWN;
    return seen != GOV_UNKNOWN && share >= seen ? seen : GOV_UNKNOWN;
}

/* ---- the knobs --------------------------------------------------------------- */

/* A count of threads, read as a plain number. */
#define THREADS(name_, runtime_) \
    { .name = (name_), .runtime = (runtime_), .kind = GOV_KNOB_CPU, .figure = fig_threads, \
      .user = user_count }

const gov_knob gov__knobs[] = {
    THREADS("OMP_NUM_THREADS",
            "OpenMP (GCC libgomp, LLVM libomp, Intel); GNU coreutils nproc and sort"),
    THREADS("OPENBLAS_NUM_THREADS", "OpenBLAS (numpy, scipy, R)"),
    THREADS("MKL_NUM_THREADS", "Intel oneMKL"),
    THREADS("BLIS_NUM_THREADS", "BLIS"),
    THREADS("VECLIB_MAXIMUM_THREADS", "Apple Accelerate (macOS)"),
    THREADS("NUMEXPR_NUM_THREADS",
            "numexpr (its threads: the host's cores otherwise, even in a 1-CPU task)"),
    THREADS("NUMEXPR_MAX_THREADS", "numexpr (its pool: 64 otherwise)"),
    THREADS("GOMAXPROCS", "Go (every version; before 1.25 Go ignores cgroup CPU quotas)"),
    THREADS("PYTHON_CPU_COUNT",
            "CPython 3.13+: os.cpu_count(), os.process_cpu_count(), pool defaults"),
    THREADS("RAYON_NUM_THREADS", "Rust rayon (global pool)"),
    THREADS("TOKIO_WORKER_THREADS", "Rust tokio 1.24+ (multi-thread runtime)"),
    { .name = "UV_THREADPOOL_SIZE", .kind = GOV_KNOB_CPU, .figure = fig_io_threads, .user = user_count,
      .runtime = "libuv, Node.js (fs, dns.lookup, crypto, zlib; never below libuv's default 4)" },
    THREADS("JULIA_NUM_THREADS", "Julia"),
    THREADS("POLARS_MAX_THREADS", "Polars"),
    THREADS("DOTNET_PROCESSOR_COUNT", ".NET 6+ (Environment.ProcessorCount)"),
    THREADS("NUMBA_NUM_THREADS", "Numba (parallel=True)"),
    THREADS("MC_CORES", "R parallel (mclapply's mc.cores)"),
    THREADS("LOKY_MAX_CPU_COUNT", "joblib and loky (joblib.cpu_count(), n_jobs=-1)"),
    { .name = "GOMEMLIMIT", .kind = GOV_KNOB_MEMORY, .figure = fig_go, .unit = "MiB", .user = user_go,
      .runtime = "Go 1.19+ (soft memory limit of the Go runtime)" },
    { .name = "NODE_OPTIONS", .option = "--max-old-space-size", .kind = GOV_KNOB_MEMORY,
      .figure = fig_node_heap,
      .spellings = { "--max_old_space_size" }, .user = user_mib,
      .runtime = "Node.js (V8's old generation, MiB)" },
    { .name = "NODE_OPTIONS", .option = "--max-semi-space-size", .kind = GOV_KNOB_MEMORY,
      .figure = fig_node_young,
      .spellings = { "--max_semi_space_size" }, .user = user_mib,
      .runtime = "Node.js 18.10+ (V8's young generation: three semi-spaces, MiB)" },
    { .name = "JAVA_TOOL_OPTIONS", .option = "-XX:ActiveProcessorCount", .kind = GOV_KNOB_CPU,
      .figure = fig_threads, .same_word = true, .user = user_count, .sees = sees_java_cpus,
      .runtime = "HotSpot JVM (JDK 8u191+, 10+)" },
    { .name = "JAVA_TOOL_OPTIONS", .option = "-XX:MaxRAM", .kind = GOV_KNOB_MEMORY, .figure = fig_java_ram, .unit = "m",
      .same_word = true, .spellings = { "-Xmx", "-XX:MaxHeapSize=" }, .heap_from = 1,
      .user = user_java_size, .sees = sees_java_ram,
      .runtime = "HotSpot JVM (the memory its heap sizes are derived from)" },
    { .name = "JAVA_TOOL_OPTIONS", .option = "-XX:MaxRAMPercentage", .kind = GOV_KNOB_MEMORY,
      .figure = fig_java_heap,
      .same_word = true, .spellings = { "-Xmx", "-XX:MaxHeapSize=", "-XX:MaxRAMFraction=" },
      .heap_from = 1, .user = user_java_heap,
      .runtime = "HotSpot JVM 8u191+, 10+ (the heap's share of that memory)" },
    { .name = "DOTNET_GCHeapHardLimit", .kind = GOV_KNOB_MEMORY, .figure = fig_dotnet_heap,
      .format = GOV_KNOB_HEX, .user = user_dotnet,
      .also = { "DOTNET_GCHeapHardLimitPercent", "COMPlus_GCHeapHardLimit",
                "COMPlus_GCHeapHardLimitPercent" },
      .runtime = ".NET Core 3.0+ (the GC heap's hard limit, hexadecimal bytes)" },
    { .name = "JULIA_HEAP_SIZE_HINT", .kind = GOV_KNOB_MEMORY, .figure = fig_julia_hint,
      .unit = "M", .user = user_size,
      .runtime = "Julia 1.12+ (the heap size its GC works to stay under, MiB)" },
    /* A shared GPU's memory (docs/runtimes.md, "GPU variables"): only for
     * a shard or an MPS client; a whole GPU is the runtime's to size. */
    { .name = "XLA_PYTHON_CLIENT_MEM_FRACTION", .kind = GOV_KNOB_GPU, .figure = fig_gpu_fraction,
      .format = GOV_KNOB_MILLI, .also = { "XLA_CLIENT_MEM_FRACTION" }, .user = user_fraction,
      .runtime = "JAX (the fraction of the GPU's memory it preallocates)" },
    { .name = "TF_FORCE_GPU_ALLOW_GROWTH", .kind = GOV_KNOB_GPU, .figure = fig_gpu_grow,
      .format = GOV_KNOB_TRUE, .user = user_word,
      .runtime = "TensorFlow 2 (grow the GPU memory it holds, not all of it at once)" },
    { .name = "CUPY_GPU_MEMORY_LIMIT", .kind = GOV_KNOB_GPU, .figure = fig_gpu_percent,
      .unit = "%", .user = user_gpu_limit,
      .runtime = "CuPy 7+ (its memory pool's limit on each GPU)" },
    { .name = "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", .kind = GOV_KNOB_GPU,
      .figure = fig_mps_memory, .prefix = "0=", .unit = "MB", .planned_bytes = true,
      .user = user_mps_memory,
      .runtime = "CUDA MPS clients, CUDA 11.5+ (device memory a client may allocate)" },
};

const size_t gov__knob_count = sizeof gov__knobs / sizeof gov__knobs[0];

size_t gov__runenv_inputs(const char **names, size_t cap)
{
    size_t n = 0;

    /* The markers, and where a narrowed mask starts (runenv.c). */
    static const char *const more[] = { GOV_THREADS_ENV, GOV_MEMORY_ENV, GOV_GPU_SHARE_ENV,
                                        GOV_GPU_MEMORY_ENV, GOV_LOCALID_ENV };

    for (size_t i = 0; i < gov__knob_count; i++) {
        size_t j;
        for (j = 0; j < i && strcmp(gov__knobs[j].name, gov__knobs[i].name); j++)
            ;
        if (j == i) {
            if (n < cap)
                names[n] = gov__knobs[i].name;
            n++;
        }
        for (size_t a = 0; a < GOV_ALSO_MAX && gov__knobs[i].also[a]; a++, n++)
            if (n < cap)
                names[n] = gov__knobs[i].also[a];
    }
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++, n++)
        if (n < cap)
            names[n] = more[i];
    return n;
}
