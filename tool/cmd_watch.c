/* cmd_watch.c - `governor watch`: observe a snapshot every interval with a
 * governor of its own and print the pressure level, batch ceiling and
 * availability, for a person or (--json) as JSON lines for a script.
 * Handed pressure triggers (--governor=pressure, a systemd service), it
 * also prints a line the moment one fires. */
#include "cmd.h"
#include "cmd_common.h"
#include "governor.h"
#include "json/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WATCH_MIN_INTERVAL_MS 10

struct watch_args {
    gov_cmd_opts common;     /* --json, --sysroot */
    uint64_t interval_ms;
    uint64_t count;          /* 0 = until interrupted */
    uint64_t max_batch;
};

static void watch_usage(FILE *f)
{
    fprintf(f,
            "usage: governor watch [--json] [--interval MS] [--count N] [--max-batch N]\n"
            "                      [--require-descriptor] [--sysroot DIR]\n"
            "\n"
            "Every interval (default 1000 ms), capture a snapshot, feed it to a governor\n"
            "and print its memory pressure level (green/yellow/red), batch ceiling and\n"
            "what is free: RAM after the host reserve, CPU threads, I/O and GPU slots.\n"
            "This governor holds no reservations: it shows the budget, not other\n"
            "processes' reservations.  With pressure triggers in the environment\n"
            "(MEMORY_PRESSURE_WATCH and the CPU and IO ones) a line also comes the\n"
            "moment one fires.\n"
            "\n"
            "  --json          one JSON object per line (schema governor.watch/1)\n"
            "  --interval MS   milliseconds between lines, %d to 1000000\n"
            "  --count N       stop after N lines (default: run until interrupted)\n"
            "  --max-batch N   the largest batch the ceiling may grow to (default 64)\n"
            "  --sysroot DIR   read /proc and /sys under DIR (testing)\n"
            "  --require-descriptor  stop (exit 3) when there is no verified descriptor\n",
            WATCH_MIN_INTERVAL_MS);
}

/* --interval MS, --count N, --max-batch N. */
static int watch_arg(int argc, char **argv, int *i, void *ctx)
{
    struct watch_args *a = ctx;
    int r = gov__cmd_count_arg(argc, argv, i, "--interval", &a->interval_ms);

    if (!r)
        r = gov__cmd_count_arg(argc, argv, i, "--count", &a->count);
    if (!r)
        r = gov__cmd_count_arg(argc, argv, i, "--max-batch", &a->max_batch);
    return r;
}

static const char *human_pct(double v, char *buf, size_t cap)
{
    if (!gov_known_f(v))
        return "n/a";
    snprintf(buf, cap, "%.1f%%", v);
    return buf;
}

/* Which PSI gate would hold new admissions now (GOV_REASON_NONE: none). */
static gov_reason psi_gate(const gov_snapshot *s)
{
    if (gov_known_f(s->pressure.cpu_some_avg10) &&
        s->pressure.cpu_some_avg10 >= GOV_PSI_CPU_GATE_PCT)
        return GOV_REASON_CPU_PRESSURE;
    if (gov_known_f(s->pressure.memory_some_avg10) &&
        s->pressure.memory_some_avg10 >= GOV_PSI_MEMORY_GATE_PCT)
        return GOV_REASON_MEMORY_PRESSURE;
    return GOV_REASON_NONE;
}

/* The columns, once at the start, as vmstat prints them; PSI_FROM names
 * whose pressure the gate reads (system: the whole host, as on cgroup v1
 * and hybrid hosts; cgroup: the process's own). */
static void print_header(void)
{
    printf("%10s  %-6s %7s  %10s %10s %10s  %7s %3s %3s  %7s %7s %-8s  %s\n", "TIME", "LEVEL",
           "CEILING", "RAM_FREE", "RAM", "RESERVE", "THREADS", "IO", "GPU", "PSI_CPU", "PSI_MEM",
           "PSI_FROM", "NEW_WORK");
}

static void print_human(uint64_t t_ms, const gov_snapshot *s, const gov_pressure_state *ps,
                        const gov_availability *a, unsigned fired)
{
    gov_reason gate = psi_gate(s);
    const char *from = gov_pressure_source_name(s->pressure.source);
    char b1[32], b2[32], b3[32], c1[24], c2[24], th[48], p1[24], p2[24], t[24], w[32];

    gov__fmt_bytes(a->ram_bytes, b1, sizeof b1);
    gov__fmt_bytes(a->detected_ram_bytes, b2, sizeof b2);
    gov__fmt_bytes(a->ram_reserve_bytes, b3, sizeof b3);
    gov__fmt_count(a->threads, c1, sizeof c1);
    gov__fmt_count(a->detected_threads, c2, sizeof c2);
    snprintf(th, sizeof th, "%s/%s", c1, c2);
    snprintf(t, sizeof t, "%llu.%03llus", (unsigned long long)(t_ms / 1000),
             (unsigned long long)(t_ms % 1000));
    printf("%10s  %-6s %7llu  %10s %10s %10s  %7s %3llu %3llu  %7s %7s %-8s  %s%s%s%s%s\n", t,
           gov_pressure_level_name(ps->level), (unsigned long long)ps->ceiling, b1, b2, b3, th,
           (unsigned long long)a->io_slots, (unsigned long long)a->gpu_slots,
           human_pct(s->pressure.cpu_some_avg10, p1, sizeof p1),
           human_pct(s->pressure.memory_some_avg10, p2, sizeof p2), from ? from : "-",
           gate != GOV_REASON_NONE ? "waits: " : "may start",
           gate != GOV_REASON_NONE ? gov_reason_name(gate) : "",
           fired ? "  (trigger: " : "", fired ? gov__trigger_names(fired, w, sizeof w) : "",
           fired ? ")" : "");
}

static int print_json(uint64_t t_ms, const gov_snapshot *s, const gov_pressure_state *ps,
                      const gov_availability *a, unsigned fired)
{
    char *text = NULL;

    return gov__cmd_put_json(gov__watch_json(t_ms, s, ps, a, psi_gate(s), fired, &text, NULL),
                             &text)
               ? GOV_ENOMEM : 0;
}

/* The triggers this process was handed; one that cannot be used is said
 * once, and the tool keeps its interval. */
static gov_pressure_triggers *open_triggers(void)
{
    gov_pressure_triggers *t = NULL;
    int rc = gov_pressure_triggers_open(&t);

    if (rc)
        fprintf(stderr, "governor: watch: the pressure triggers in the environment cannot be "
                        "used (%s); lines come every interval only\n", gov_strerror(rc));
    return t;   /* NULL on an error; watching nothing when none was handed */
}

static uint64_t monotonic_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void sleep_ms(uint64_t ms)
{
    struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Until the next line: the interval, or a trigger's firing first (its
 * GOV_TRIGGER_* bits returned).  A file that fails (its cgroup is gone)
 * is said once and the interval alone stays. */
static unsigned wait_line(gov_pressure_triggers **trig, uint64_t interval_ms)
{
    unsigned fired = 0;
    int rc;

    if (!*trig) {
        sleep_ms(interval_ms);
        return 0;
    }
    rc = gov_pressure_triggers_wait(*trig, interval_ms, &fired);
    if (rc && rc != GOV_ETIMEDOUT) {
        fprintf(stderr, "governor: watch: waiting on the pressure triggers failed (%s); "
                        "lines come every interval only\n", gov_strerror(rc));
        gov_pressure_triggers_close(*trig);
        *trig = NULL;
    }
    return fired;
}

int gov__cmd_watch(int argc, char **argv)
{
    struct watch_args a = { .interval_ms = 1000, .max_batch = 64 };
    gov_options opts;
    gov_governor_options gopts = { 0 };
    gov_context *ctx = NULL;
    gov_governor *gov = NULL;
    gov_pressure_triggers *trig = NULL;
    uint64_t start;
    int rc, status = GOV_EXIT_OK;

    rc = gov__cmd_parse(argc, argv, "watch", watch_usage, &a.common, watch_arg, &a);
    if (rc >= 0)
        return rc;
    if (a.interval_ms < WATCH_MIN_INTERVAL_MS) {
        fprintf(stderr, "governor: watch: --interval is at least %d ms\n", WATCH_MIN_INTERVAL_MS);
        return GOV_EXIT_USAGE;
    }
    gov__cmd_options(&a.common, &opts);
    rc = gov_context_create(&opts, &ctx);
    gopts.max_batch = a.max_batch;
    if (rc == 0)
        rc = gov_governor_create(&gopts, &gov);
    if (rc != 0) {
        gov__cmd_capture_error(&a.common, rc, NULL);
        gov_context_destroy(ctx);
        return GOV_EXIT_FAILED;
    }
    trig = open_triggers();
    start = monotonic_ms();
    if (!a.common.json)
        print_header();
    for (uint64_t n = 0; a.count == 0 || n < a.count; n++) {
        gov_snapshot snap;
        gov_pressure_state ps;
        gov_availability av;
        unsigned fired = 0;

        if (n)
            fired = wait_line(&trig, a.interval_ms);
        rc = gov_snapshot_capture(ctx, &snap);
        if (rc != 0) {
            gov__cmd_capture_error(&a.common, rc, &snap);
            status = GOV_EXIT_FAILED;
            break;
        }
        rc = gov_governor_pressure(gov, &snap, &ps);
        if (rc == 0)
            rc = gov_governor_availability(gov, &snap, &av);
        if (rc == 0 && a.common.json)
            rc = print_json(monotonic_ms() - start, &snap, &ps, &av, fired);
        else if (rc == 0)
            print_human(monotonic_ms() - start, &snap, &ps, &av, fired);
        if (rc != 0) {
            fprintf(stderr, "governor: watch: %s\n", gov_strerror(rc));
            status = GOV_EXIT_FAILED;
            break;
        }
        fflush(stdout);
    }
    gov_pressure_triggers_close(trig);
    gov_governor_destroy(gov);
    gov_context_destroy(ctx);
    return status;
}
