/* bench_snapshot: in-process snapshot capture next to a floor that only
 * opens and reads the same files, and a whole `governor snapshot --json`
 * process.  Prints medians and ratios; asserts nothing about speed.
 *
 * usage: bench_snapshot FILELIST GOVERNOR [ROUNDS] | bench_snapshot --trace
 *   FILELIST  paths a capture opens, one per line (tests/bench/run.sh
 *             records them with strace from a real capture)
 *   GOVERNOR  the tool, for the whole-process figure */
#include "governor.h"
#include "collect/collect.h"

#include <hwloc.h>

#include <dirent.h>
#include "bench_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median_u64(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    return v[n / 2];
}

/* The floor: what any capture must at least do with the same files. */
static void read_all(char **paths, size_t n)
{
    static char buf[65536];

    for (size_t i = 0; i < n; i++) {
        struct stat st;
        int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = fdopendir(fd);
            if (d) {
                while (readdir(d))
                    ;
                closedir(d);
            } else {
                close(fd);
            }
            continue;
        }
        while (read(fd, buf, sizeof buf) > 0)
            ;
        close(fd);
    }
}

static size_t load_list(const char *file, char ***out)
{
    FILE *f = fopen(file, "r");
    char line[4096];
    char **v = NULL;
    size_t n = 0;

    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        char **nv;
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        nv = realloc(v, (n + 1) * sizeof *v);
        if (!nv)
            break;
        v = nv;
        v[n++] = strdup(line);
    }
    fclose(f);
    *out = v;
    return n;
}

static uint64_t run_process(const char *gov)
{
    uint64_t t0 = now_ns();
    pid_t pid = fork();
    int status;

    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        execl(gov, gov, "snapshot", "--json", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, &status, 0);
    return now_ns() - t0;
}

int main(int argc, char **argv)
{
    size_t rounds = argc > 3 ? (size_t)atoi(argv[3]) : 2000;
    size_t procs = 50;
    char **paths = NULL;
    size_t npaths;
    uint64_t *cap, *flo, *topo, *proc;
    uint64_t t_load, cap_med, flo_med, topo_med, proc_med;
    struct hwloc_topology *hw;
    gov_context *ctx;
    gov_snapshot snap;

    /* --trace: one capture after a marker, for strace to record which
     * files a capture (not the topology load) opens. */
    if (argc == 2 && !strcmp(argv[1], "--trace")) {
        if (gov_context_create(NULL, &ctx) != 0)
            return 1;
        access("/governor-bench-capture-starts", F_OK);
        gov_snapshot_capture(ctx, &snap);
        gov_context_destroy(ctx);
        return 0;
    }
    if (argc < 3 || rounds < 10) {
        fprintf(stderr, "usage: bench_snapshot FILELIST GOVERNOR [ROUNDS>=10]\n");
        return 2;
    }
    npaths = load_list(argv[1], &paths);
    cap = calloc(rounds, sizeof *cap);
    flo = calloc(rounds, sizeof *flo);
    topo = calloc(rounds, sizeof *topo);
    proc = calloc(procs, sizeof *proc);
    if (!npaths || !cap || !flo || !topo || !proc) {
        fprintf(stderr, "bench_snapshot: cannot read the file list\n");
        return 1;
    }

    t_load = now_ns();
    if (gov_context_create(NULL, &ctx) != 0)
        return 1;
    t_load = now_ns() - t_load;
    /* The topology part alone, on a topology loaded as the context loads
     * it: what it adds to each capture. */
    if (gov__inventory_load_topology(&hw) != 0)
        return 1;

    /* Interleave so both see the same machine state. */
    for (size_t i = 0; i < rounds; i++) {
        uint64_t t0 = now_ns();
        gov_snapshot_capture(ctx, &snap);
        uint64_t t1 = now_ns();
        read_all(paths, npaths);
        uint64_t t2 = now_ns();
        gov__topology_collect(hw, &snap.cpu.affinity.set, snap.cpu.affinity.count, &snap.topology);
        topo[i] = now_ns() - t2;
        flo[i] = t2 - t1;
        cap[i] = t1 - t0;
    }
    hwloc_topology_destroy(hw);
    for (size_t i = 0; i < procs; i++)
        proc[i] = run_process(argv[2]);
    gov_context_destroy(ctx);

    cap_med = median_u64(cap, rounds);
    flo_med = median_u64(flo, rounds);
    topo_med = median_u64(topo, rounds);
    proc_med = median_u64(proc, procs);
    printf("snapshot bench: %zu files, %zu rounds\n", npaths, rounds);
    printf("  context create (topology load, once): %10.1f us\n", (double)t_load / 1e3);
    printf("  capture, median:                      %10.1f us\n", (double)cap_med / 1e3);
    printf("  floor (open+read same files), median: %10.1f us\n", (double)flo_med / 1e3);
    printf("  ratio capture/floor:                  %10.2f   (target <= 1.5)\n",
           (double)cap_med / (double)flo_med);
    printf("  of the capture, the task's topology:  %10.1f us  (%.1f%% of the capture)\n",
           (double)topo_med / 1e3, 100.0 * (double)topo_med / (double)cap_med);
    printf("  governor snapshot --json process:     %10.2f ms  (target < 5 ms, median of %zu)\n",
           (double)proc_med / 1e6, procs);
    for (size_t i = 0; i < npaths; i++)
        free(paths[i]);
    free(paths);
    free(cap);
    free(flo);
    free(topo);
    free(proc);
    return 0;
}
