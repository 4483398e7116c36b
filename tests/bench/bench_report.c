/* bench_report - what the step report costs slurmstepd per step and node,
 * next to the least any record could cost, measured interleaved in the
 * same run: (A) finding the step's cgroups from a task's /proc/PID/cgroup
 * and the mount table (task_post_fork), reading its figures, judging,
 * encoding and the checked, locked append (the last task_exit), on the
 * cgroup trees captured from real steps (v1 on this host, v2 in the guest);
 * (B) a bare open(O_APPEND), write and close of the same line.  Prints
 * medians and the ratio; not a test.
 * usage: bench_report FIXTURES (run as root: the directory must be root's) */
#include "bench_util.h"
#include "evidence.h"
#include "run_dir.h"
#include "step_report.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SAMPLES 51
#define CYCLES 100

static const char *dir;
static char line[GOV_REPORT_LINE_MAX];
static int line_len;

/* One step's record, as the plugin makes it. */
static int record(const gov_root *root)
{
    gov_cg_text t = { 0 };
    gov_step_cgroups cg;
    gov_step_record r;
    const char *why;
    int rc = -1;

    if (gov__cg_read_texts_of(root, "/proc/self/cgroup", &t) && !gov__step_cgroups_find(root, &t, &cg)) {
        gov__step_record_init(&r);
        r.job = 1;
        strcpy(r.step, "0");
        strcpy(r.node, "node1");
        r.elapsed_s = 10;
        r.budget_cpus = 2;
        r.budget_memory_bytes = 200u << 20;
        gov__step_usage_read(root, &cg, &r);
        gov__step_record_judge(&r, 60);
        line_len = gov__step_record_encode(&r, line, sizeof line);
        rc = line_len > 0 ? gov__report_append(dir, line, (size_t)line_len, &why) : -1;
    }
    free(t.mountinfo);
    return rc;
}

static int bare(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    ssize_t n;

    if (fd < 0)
        return -1;
    n = write(fd, line, (size_t)line_len);
    close(fd);
    return n == line_len ? 0 : -1;
}

static void bench(const char *fixtures, const char *tree)
{
    char path[512], bare_path[128], rec_path[128];
    double a[SAMPLES], b[SAMPLES];
    gov_root root;

    snprintf(path, sizeof path, "%s/cgroup/%s", fixtures, tree);
    snprintf(bare_path, sizeof bare_path, "%s/bare.jsonl", dir);
    snprintf(rec_path, sizeof rec_path, "%s/%s", dir, GOV_REPORT_FILE);
    gov__root_open(path, &root);
    if (record(&root)) {
        printf("bench_report: %s: no record (a tree without a task cgroup, or the directory)\n", tree);
        gov__root_close(&root);
        return;
    }
    for (int s = 0; s < SAMPLES; s++) {
        uint64_t t0 = now_ns();
        for (int c = 0; c < CYCLES; c++)
            record(&root);
        uint64_t t1 = now_ns();
        for (int c = 0; c < CYCLES; c++)
            bare(bare_path);
        uint64_t t2 = now_ns();
        a[s] = (double)(t1 - t0) / CYCLES;
        b[s] = (double)(t2 - t1) / CYCLES;
        truncate(rec_path, 0);
        truncate(bare_path, 0);
    }
    gov__root_close(&root);
    double ma = median(a, SAMPLES), mb = median(b, SAMPLES);
    printf("step report (%s): a record %.1f us, a bare append %.1f us, ratio %.2f\n", tree,
           ma / 1e3, mb / 1e3, ma / mb);
}

int main(int argc, char **argv)
{
    char tmp[64];

    if (argc != 2) {
        fprintf(stderr, "usage: bench_report FIXTURES\n");
        return 2;
    }
    if (geteuid() != 0) {
        printf("bench_report: not root: the report directory must be root's; nothing measured\n");
        return 0;
    }
    snprintf(tmp, sizeof tmp, "/run/gov-bench-report-%ld", (long)getpid());
    dir = tmp;
    bench(argv[1], "slurm-v1-report");
    bench(argv[1], "slurm-v2-report");
    if (system("rm -rf /run/gov-bench-report-[0-9]*") != 0)
        return 1;
    return 0;
}
