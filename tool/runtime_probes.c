/* runtime_probes.c - the runtimes `governor doctor --runtimes` asks
 * (runtime_probes.h).  Each probe only reads what its runtime decided at
 * start-up, the way the user's program would start: the interpreters
 * through their own command line, compiled runtimes through a program
 * built with them (tool/probes/).  docs/runtimes.md says which variable
 * each answer follows. */
#include "runtime_probes.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gov__probe_answer(const char *text, const char *key, char *val, size_t cap)
{
    size_t k = strlen(key);

    for (const char *p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
        if (strncmp(p, key, k) == 0 && p[k] == '=') {
            snprintf(val, cap, "%.*s", (int)strcspn(p + k + 1, "\n"), p + k + 1);
            return true;
        }
    }
    return false;
}

gov_probe_figure gov__probe_figure(const char *text, const char *key)
{
    gov_probe_figure f = { GOV_PROBE_NONE_GIVEN, 0 };
    char v[32], *end;

    if (!gov__probe_answer(text, key, v, sizeof v))
        return f;
    if (!strcmp(v, "none")) {
        f.kind = GOV_PROBE_UNLIMITED;
    } else if (!strcmp(v, "absent")) {
        f.kind = GOV_PROBE_ABSENT;
    } else if (isdigit((unsigned char)v[0])) {
        unsigned long long n = strtoull(v, &end, 10);
        if (*end == '\0' && n > 0 && n != ULLONG_MAX) {
            f.kind = GOV_PROBE_VALUE;
            f.v = n;
        }
    }
    return f;
}

/* Python: ProcessPoolExecutor() sizes itself as multiprocessing.Pool()
 * does and starts no process until work is submitted. */
#define PY_CORE \
    "import os, platform\n" \
    "from concurrent.futures import ProcessPoolExecutor\n" \
    "print('version=Python ' + platform.python_version())\n" \
    "print('cpu_count=%s' % os.cpu_count())\n" \
    "print('pool=%d' % ProcessPoolExecutor()._max_workers)\n"

#define PY_IMPORT(module) \
    "try:\n" \
    "    import " module "\n" \
    "except ImportError as e:\n" \
    "    print('absent=%s' % e.name)\n" \
    "    raise SystemExit(0)\n"

#define PY_BLAS \
    PY_IMPORT("numpy") \
    "try:\n" \
    "    from threadpoolctl import threadpool_info\n" \
    "except ImportError as e:\n" \
    "    print('absent=%s' % e.name)\n" \
    "    raise SystemExit(0)\n" \
    "b = [p for p in threadpool_info() if p['user_api'] == 'blas']\n" \
    "print('version=numpy %s' % numpy.__version__ + (' with %s %s' % (b[0]['internal_api'], " \
    "b[0]['version'] or '') if b else ''))\n" \
    "print('threads=%s' % (b[0]['num_threads'] if b else 'none'))\n"

#define PY_TORCH \
    PY_IMPORT("torch") \
    "print('version=PyTorch ' + torch.__version__)\n" \
    "print('threads=%d' % torch.get_num_threads())\n"

#define PY_JOBLIB \
    PY_IMPORT("joblib") \
    "print('version=joblib ' + joblib.__version__)\n" \
    "print('threads=%d' % joblib.cpu_count())\n"

#define NODE \
    "const os = require('os'), v8 = require('v8');\n" \
    "console.log('version=Node.js ' + process.version);\n" \
    "console.log('threads=' + (os.availableParallelism ? os.availableParallelism() : " \
    "os.cpus().length));\n" \
    "console.log('memory=' + v8.getHeapStatistics().heap_size_limit);\n"

/* mclapply's default is the option mc.cores, which parallel sets from
 * MC_CORES when it loads (else 2). */
#define R_PARALLEL \
    "cat('version=R ', R.version$major, '.', R.version$minor, '\\n', sep = '')\n" \
    "suppressMessages(library(parallel))\n" \
    "cat('mc_cores=', getOption('mc.cores', 2L), '\\n', sep = '')\n" \
    "cat('detect_cores=', detectCores(), '\\n', sep = '')\n" \
    "if (requireNamespace('parallelly', quietly = TRUE)) {\n" \
    "  cat('available_cores=', parallelly::availableCores(), '\\n', sep = '')\n" \
    "} else cat('available_cores=absent\\n')\n"

/* Appends "key=<prefix><value>\n" to buf: the value is the text after
 * `marker` on its first occurrence, up to a character of `end`. */
static void pick(const char *text, const char *marker, const char *end, const char *key,
                 const char *prefix, char *buf, size_t cap)
{
    const char *p = strstr(text, marker);
    size_t len = strlen(buf);

    if (p && len < cap) {
        p += strlen(marker);
        snprintf(buf + len, cap - len, "%s=%s%.*s\n", key, prefix, (int)strcspn(p, end), p);
    }
}

/* HotSpot says what it decided in its log (-Xlog:os=debug) and its final
 * flags; the version is the first line of -version. */
static void translate_java(const char *text, char *buf, size_t cap)
{
    const char *heap = strstr(text, " MaxHeapSize ");

    buf[0] = '\0';
    pick(text, "version \"", "\"\n", "version", "Java ", buf, cap);
    pick(text, "Initial active processor count set to ", "\n ", "threads", "", buf, cap);
    if (heap)
        pick(heap, "= ", " \n", "memory", "", buf, cap);
}

#define PY_POOL_WHY \
    "Python 3.13+ reads PYTHON_CPU_COUNT; before 3.13 only python3-governor's startup " \
    "hook makes os.cpu_count() follow it (docs/runtimes.md): install it, or size the " \
    "pool with GOVERNOR_WORKERS"

const gov_runtime_probe gov__runtime_probes[] = {
    { .id = "go", .name = "Go", .file = "governor-probe-go",
      .decisions = {
          { "threads", "GOMAXPROCS", GOV_PROBE_THREADS,
            "Go reads GOMAXPROCS; a program calling runtime.GOMAXPROCS() keeps its own" },
          { "memory", "memory limit (GOMEMLIMIT)", GOV_PROBE_BYTES,
            "Go 1.19+ reads GOMEMLIMIT; a program calling debug.SetMemoryLimit() keeps its own" },
      } },
    { .id = "java", .name = "Java", .program = "java",
      .args = { "-Xlog:os=debug:stdout", "-XX:+PrintFlagsFinal", "-version" },
      .translate = translate_java,
      .decisions = {
          { "threads", "Runtime.availableProcessors()", GOV_PROBE_THREADS,
            "the JVM reads -XX:ActiveProcessorCount from JAVA_TOOL_OPTIONS; the java command "
            "line's own -XX options come after it and win" },
          { "memory", "max heap", GOV_PROBE_BYTES,
            "a heap size on the java command line (-Xmx) wins over JAVA_TOOL_OPTIONS: size it "
            "to the budget" },
      } },
    { .id = "node", .name = "Node.js", .program = "node", .args = { "-e", NODE },
      .decisions = {
          { "threads", "os.availableParallelism()", GOV_PROBE_THREADS,
            "Node.js counts the affinity mask, which governor run narrows only under a CPU "
            "quota: size pools from GOVERNOR_WORKERS" },
          { "memory", "V8 heap limit", GOV_PROBE_BYTES,
            "V8 reads --max-old-space-size from NODE_OPTIONS; the node command line's own "
            "option wins" },
      } },
    { .id = "python", .name = "Python", .program = "python3", .args = { "-c", PY_CORE },
      .decisions = {
          { "cpu_count", "os.cpu_count()", GOV_PROBE_THREADS, PY_POOL_WHY },
          { "pool", "default Pool() and ProcessPoolExecutor() size", GOV_PROBE_THREADS,
            PY_POOL_WHY },
      } },
    { .id = "openblas", .name = "BLAS (numpy)", .program = "python3", .args = { "-c", PY_BLAS },
      .decisions = {
          { "threads", "BLAS threads (threadpoolctl)", GOV_PROBE_THREADS,
            "OpenBLAS reads OPENBLAS_NUM_THREADS (else OMP_NUM_THREADS) when it loads; "
            "threadpoolctl or openblas_set_num_threads() in the program wins" },
      } },
    { .id = "openmp", .name = "OpenMP (libgomp)", .file = "governor-probe-openmp",
      .decisions = {
          { "threads", "omp_get_max_threads()", GOV_PROBE_THREADS,
            "libgomp reads OMP_NUM_THREADS; omp_set_num_threads() or a num_threads clause "
            "in the program wins" },
      } },
    { .id = "pytorch", .name = "PyTorch", .program = "python3", .args = { "-c", PY_TORCH },
      .decisions = {
          { "threads", "intra-op threads (torch.get_num_threads())", GOV_PROBE_THREADS,
            "PyTorch sizes its intra-op pool from OMP_NUM_THREADS, else its own count of "
            "the node's cores; torch.set_num_threads() in the program wins" },
      } },
    { .id = "joblib", .name = "joblib (loky)", .program = "python3", .args = { "-c", PY_JOBLIB },
      .decisions = {
          { "threads", "joblib.cpu_count() (n_jobs=-1)", GOV_PROBE_THREADS,
            "loky reads LOKY_MAX_CPU_COUNT; an n_jobs given as a number is the program's own" },
      } },
    { .id = "rust", .name = "Rust", .file = "governor-probe-rust",
      .decisions = {
          { "threads", "std::thread::available_parallelism()", GOV_PROBE_THREADS,
            "the standard library counts the affinity mask and the cgroup's quota, never a "
            "variable: rayon and tokio read RAYON_NUM_THREADS and TOKIO_WORKER_THREADS, size "
            "other pools from GOVERNOR_WORKERS" },
      } },
    { .id = "r", .name = "R", .program = "Rscript", .args = { "-e", R_PARALLEL },
      .decisions = {
          { "mc_cores", "mclapply()'s default mc.cores", GOV_PROBE_THREADS,
            "parallel sets mc.cores from MC_CORES when it loads; an mc.cores given in the "
            "call is the program's own" },
          { "detect_cores", "parallel::detectCores()", GOV_PROBE_THREADS,
            "detectCores() counts the node's CPUs by design, and R's documentation says not "
            "to size work from it: use parallelly::availableCores() or mclapply()'s default" },
          { "available_cores", "parallelly::availableCores()", GOV_PROBE_THREADS,
            "availableCores() reads Slurm's variables, the affinity mask and the cgroup "
            "itself, never the governor's reserve (governor plan shows it)" },
      } },
};

const size_t gov__runtime_probe_count = sizeof gov__runtime_probes / sizeof gov__runtime_probes[0];
