/* doctor_runtimes.c - `governor doctor --runtimes` (doctor_runtimes.h).
 * Each runtime of runtime_probes.c runs its probe twice, as the user's
 * program would start: with this process's environment, and under
 * `governor run` (this very binary), so that what it shows is the
 * runtime's own decision and never a copy of the governor's rules.  The
 * probes never run the user's program. */
#include "doctor_runtimes.h"
#include "base.h"
#include "cmd.h"
#include "json/render.h"
#include "probe_child.h"
#include "runtime_probes.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define SCHEMA "governor.doctor.runtimes/1"

typedef enum verdict {
    V_OK,          /* both ways within the budget */
    V_FIXED,       /* plainly not, under governor run within it */
    V_EXCEEDS,     /* more than the budget even under governor run */
    V_BELOW,       /* fewer threads than the budget under governor run */
    V_NO_BUDGET,   /* the allocation says nothing of this resource */
    V_NO_ANSWER,   /* the probe printed nothing usable */
    V_ABSENT,      /* the runtime, or what it is asked through, is not here */
} verdict;

static const char *const verdict_names[] = { "ok", "fixed", "exceeds", "below",
                                             "no_budget", "no_answer", "absent" };
static const char *const verdict_text[] = { "ok", "fixed by governor run", "exceeds the budget",
                                            "below the budget", "no budget to judge by",
                                            "no answer", "not installed" };

/* How asking one runtime went. */
typedef enum runtime_status {
    R_ASKED,
    R_ABSENT,      /* its program is not on PATH, or a module is missing */
    R_NO_PROBE,    /* a compiled runtime whose probe this installation lacks */
} runtime_status;

typedef struct asked {
    runtime_status status;
    char absent_module[64];       /* R_ABSENT by "absent=MODULE" */
    char version[80];
    gov_probe_output run[2];      /* plain, governed */
} asked;

/* A version as told to people: printable characters only. */
static void clean(char *s)
{
    for (; *s; s++)
        if (!isprint((unsigned char)*s))
            *s = '?';
}

static bool within(gov_probe_unit unit, gov_probe_figure f, uint64_t budget)
{
    if (f.kind != GOV_PROBE_VALUE)
        return false;
    return unit == GOV_PROBE_THREADS ? f.v == budget : f.v <= budget;
}

static verdict judge(gov_probe_unit unit, gov_probe_figure plain, gov_probe_figure governed,
                     uint64_t budget)
{
    if (governed.kind == GOV_PROBE_ABSENT || plain.kind == GOV_PROBE_ABSENT)
        return V_ABSENT;
    if (governed.kind == GOV_PROBE_NONE_GIVEN)
        return V_NO_ANSWER;
    if (budget == GOV_UNKNOWN)
        return V_NO_BUDGET;
    if (within(unit, governed, budget))
        return within(unit, plain, budget) ? V_OK : V_FIXED;
    /* A figure of threads short of the budget wastes CPUs; a limit past
     * it, or none, is the one that gets a step killed. */
    return unit == GOV_PROBE_THREADS && governed.v < budget ? V_BELOW : V_EXCEEDS;
}

/* argv for one side: [governor run [--sysroot R] [--require-descriptor] --]
 * program args... */
static void build_argv(const gov_runtime_probe *p, const char *program, bool governed,
                       const char *self, const gov_cmd_opts *o, char **argv)
{
    size_t n = 0;

    if (governed) {
        argv[n++] = (char *)self;
        argv[n++] = "run";
        if (o->sysroot) {
            argv[n++] = "--sysroot";
            argv[n++] = (char *)o->sysroot;
        }
        if (o->require_descriptor)
            argv[n++] = "--require-descriptor";
        argv[n++] = "--";
    }
    argv[n++] = (char *)program;
    for (size_t i = 0; i < GOV_PROBE_ARGS_MAX && p->args[i]; i++)
        argv[n++] = (char *)p->args[i];
    argv[n] = NULL;
}

static void ask(const gov_runtime_probe *p, const char *probe_dir, const char *self,
                const gov_cmd_opts *o, unsigned timeout_s, asked *a)
{
    char path[PATH_MAX], *argv[GOV_PROBE_ARGS_MAX + 10];
    const char *program = p->program;

    a->status = R_ASKED;
    a->absent_module[0] = a->version[0] = '\0';
    if (!program) {
        snprintf(path, sizeof path, "%s/%s", probe_dir, p->file);
        program = path;
    }
    if (!gov__probe_child_found(program)) {
        a->status = p->program ? R_ABSENT : R_NO_PROBE;
        return;
    }
    for (int side = 0; side < 2; side++) {
        gov_probe_output *out = &a->run[side];
        build_argv(p, program, side == 1, self, o, argv);
        if (gov__probe_child_run(argv, timeout_s * 1000u, out) < 0)
            continue;
        char *translated = p->translate ? malloc(sizeof out->text) : NULL;
        if (translated) {
            p->translate(out->text, translated, sizeof out->text);
            memcpy(out->text, translated, sizeof out->text);
            free(translated);
        } else if (p->translate) {
            out->text[0] = '\0';   /* unread rather than misread */
        }
    }
    if (gov__probe_answer(a->run[0].text, "absent", a->absent_module, sizeof a->absent_module)) {
        a->status = R_ABSENT;
        clean(a->absent_module);
        return;
    }
    if (!gov__probe_answer(a->run[0].text, "version", a->version, sizeof a->version))
        gov__probe_answer(a->run[1].text, "version", a->version, sizeof a->version);
    clean(a->version);
}

static void fmt_figure(gov_probe_unit unit, gov_probe_figure f, char *buf, size_t cap)
{
    if (f.kind == GOV_PROBE_UNLIMITED)
        snprintf(buf, cap, "none");
    else if (f.kind != GOV_PROBE_VALUE)
        snprintf(buf, cap, "-");
    else if (unit == GOV_PROBE_BYTES)
        gov__fmt_bytes(f.v, buf, cap);
    else
        gov__fmt_count(f.v, buf, cap);
}

/* Why a side gave no answer, into buf. */
static void no_answer(const gov_probe_output *out, char *buf, size_t cap)
{
    if (out->timed_out)
        snprintf(buf, cap, "no answer within %llu ms", (unsigned long long)out->ms);
    else if (out->status < 0)
        snprintf(buf, cap, "could not be started");
    else if (out->status)
        snprintf(buf, cap, "ended with status %d", out->status);
    else
        snprintf(buf, cap, "printed no figure");
}

/* What one process may use: the plan's threads, and its memory where a
 * limit is known (without one, a runtime with no limit of its own is no
 * fault). */
typedef struct budget {
    uint64_t threads;
    uint64_t memory;
} budget;

static uint64_t budget_of(const gov_probe_decision *d, const budget *b)
{
    return d->unit == GOV_PROBE_THREADS ? b->threads : b->memory;
}

/* One decision of a runtime, both ways, judged against the budget. */
typedef struct judged {
    gov_probe_figure plain, governed;
    uint64_t budget;
    verdict v;
    const char *why;       /* the decision's reason, where the verdict needs one */
    char no_answer[64];    /* why the governed side gave none, for V_NO_ANSWER */
} judged;

static void judge_decision(const asked *a, const gov_probe_decision *d, const budget *b,
                           judged *j)
{
    j->plain = gov__probe_figure(a->run[0].text, d->key);
    j->governed = gov__probe_figure(a->run[1].text, d->key);
    j->budget = budget_of(d, b);
    j->v = judge(d->unit, j->plain, j->governed, j->budget);
    j->why = j->v == V_EXCEEDS || j->v == V_BELOW ? d->why : NULL;
    no_answer(&a->run[1], j->no_answer, sizeof j->no_answer);
}

static void print_runtime(const gov_runtime_probe *p, const asked *a, const budget *b)
{
    if (a->status == R_ABSENT) {
        printf("%s: not installed%s%s%s\n", p->name, a->absent_module[0] ? " (no module " : "",
               a->absent_module, a->absent_module[0] ? ")" : "");
        return;
    }
    if (a->status == R_NO_PROBE) {
        printf("%s: not asked: this installation has no probe for it (built without its "
               "compiler)\n", p->name);
        return;
    }
    printf("%s%s%s\n", p->name, a->version[0] ? ": " : "", a->version);
    for (size_t i = 0; i < GOV_PROBE_DECISIONS_MAX && p->decisions[i].key; i++) {
        const gov_probe_decision *d = &p->decisions[i];
        char fp[32], fg[32], fb[32];
        judged j;

        judge_decision(a, d, b, &j);
        if (j.v == V_ABSENT) {
            printf("  %-46s not installed\n", d->what);
            continue;
        }
        fmt_figure(d->unit, j.plain, fp, sizeof fp);
        fmt_figure(d->unit, j.governed, fg, sizeof fg);
        fmt_figure(d->unit,
                   (gov_probe_figure){ j.budget == GOV_UNKNOWN ? GOV_PROBE_NONE_GIVEN
                                                               : GOV_PROBE_VALUE, j.budget },
                   fb, sizeof fb);
        printf("  %-46s %10s %10s %10s  %s\n", d->what, fp, fg, fb, verdict_text[j.v]);
        if (j.v == V_NO_ANSWER)
            printf("  %-46s governed: %s\n", "", j.no_answer);
        else if (j.why)
            printf("    why: %s\n", j.why);
    }
}

static void json_figure(gov_jw *w, const char *key, gov_probe_figure f)
{
    if (f.kind == GOV_PROBE_VALUE)
        gov__jw_u64(w, key, f.v);
    else if (f.kind == GOV_PROBE_UNLIMITED)
        gov__jw_string(w, key, "none");
    else
        gov__jw_null(w, key);
}

static void json_runtime(gov_jw *w, const gov_runtime_probe *p, const asked *a,
                         const budget *b)
{
    static const char *const status[] = { "asked", "absent", "no_probe" };

    gov__jw_object_begin(w, NULL);
    gov__jw_string(w, "runtime", p->id);
    gov__jw_string(w, "name", p->name);
    gov__jw_string(w, "status", status[a->status]);
    gov__jw_string(w, "missing_module", a->absent_module[0] ? a->absent_module : NULL);
    if (a->status == R_ASKED) {
        gov__jw_string(w, "version", a->version[0] ? a->version : NULL);
        gov__jw_object_begin(w, "ms");
        gov__jw_u64(w, "plain", a->run[0].ms);
        gov__jw_u64(w, "governed", a->run[1].ms);
        gov__jw_object_end(w);
        gov__jw_array_begin(w, "decisions");
        for (size_t i = 0; i < GOV_PROBE_DECISIONS_MAX && p->decisions[i].key; i++) {
            const gov_probe_decision *d = &p->decisions[i];
            judged j;
            judge_decision(a, d, b, &j);
            gov__jw_object_begin(w, NULL);
            gov__jw_string(w, "key", d->key);
            gov__jw_string(w, "what", d->what);
            gov__jw_string(w, "unit", d->unit == GOV_PROBE_THREADS ? "threads" : "bytes");
            json_figure(w, "plain", j.plain);
            json_figure(w, "governed", j.governed);
            gov__jw_u64(w, "budget", j.budget);
            gov__jw_string(w, "verdict", verdict_names[j.v]);
            gov__jw_string(w, "why", j.why);
            gov__jw_string(w, "no_answer", j.v == V_NO_ANSWER ? j.no_answer : NULL);
            gov__jw_object_end(w);
        }
        gov__jw_array_end(w);
    }
    gov__jw_object_end(w);
}

int gov__doctor_runtimes(const gov_snapshot *snap, const gov_cmd_opts *o, const char *probe_dir,
                         unsigned timeout_s)
{
    char self[PATH_MAX], threads[32], memory[32];
    gov_runenv *env;
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int rc;

    if (n <= 0) {
        fprintf(stderr, "governor: doctor: cannot find this program to run the probes under "
                        "governor run (/proc/self/exe)\n");
        return GOV_EXIT_FAILED;
    }
    self[n] = '\0';
    if ((rc = gov_runenv_compute(snap, 0, (const char *const *)environ, 0, &env))) {
        fprintf(stderr, "governor: doctor: cannot plan the budget: %s\n", gov_strerror(rc));
        return GOV_EXIT_FAILED;
    }
    asked *a = calloc(gov__runtime_probe_count, sizeof *a);
    if (!a) {
        gov_runenv_free(env);
        fprintf(stderr, "governor: doctor: out of memory\n");
        return GOV_EXIT_FAILED;
    }
    /* Every probe's output goes to a pipe of ours; nothing of the user's
     * terminal is handed to a runtime. */
    fflush(stdout);
    for (size_t i = 0; i < gov__runtime_probe_count; i++)
        ask(&gov__runtime_probes[i], probe_dir, self, o, timeout_s, &a[i]);

    budget b = { env->plan.threads_per_worker,
                 snap->memory.effective.binding == GOV_LAYER_NONE ||
                         snap->memory.effective.binding == GOV_LAYER_HOST
                     ? GOV_UNKNOWN : env->plan.memory_limit_per_worker };
    if (o->json) {
        gov_jw w;
        char *text = NULL;
        gov__jw_init(&w);
        gov__jw_object_begin(&w, NULL);
        gov__jw_string(&w, "schema", SCHEMA);
        gov__jw_object_begin(&w, "budget");
        gov__jw_u64(&w, "threads", b.threads);
        gov__jw_u64(&w, "memory_bytes", b.memory);
        gov__jw_object_end(&w);
        gov__jw_array_begin(&w, "runtimes");
        for (size_t i = 0; i < gov__runtime_probe_count; i++)
            json_runtime(&w, &gov__runtime_probes[i], &a[i], &b);
        gov__jw_array_end(&w);
        gov__jw_object_end(&w);
        rc = gov__cmd_put_json(gov__jw_finish(&w, &text, NULL), &text);
    } else {
        gov__fmt_count(b.threads, threads, sizeof threads);
        if (b.memory == GOV_UNKNOWN)
            snprintf(memory, sizeof memory, "no memory limit");
        else
            gov__fmt_bytes(b.memory, memory, sizeof memory);
        printf("governor doctor --runtimes: each runtime asked what it decides, plainly and "
               "under governor run\nbudget of one process: %s thread%s, %s%s\n\n",
               threads, b.threads == 1 ? "" : "s", memory,
               b.memory == GOV_UNKNOWN ? "" : " of memory");
        printf("%-48s %10s %10s %10s  %s\n", "runtime, decision", "plain", "governed", "budget",
               "verdict");
        for (size_t i = 0; i < gov__runtime_probe_count; i++)
            print_runtime(&gov__runtime_probes[i], &a[i], &b);
        rc = GOV_EXIT_OK;
    }
    free(a);
    gov_runenv_free(env);
    return rc;
}
