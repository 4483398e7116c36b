/* cmd_report.c - `governor report`: read step records (several nodes'
 * files at once), keep those the filters select, group them by job and
 * step, and show them (report_render.c).  Lines that are not records are
 * counted and skipped, never fatal: a file may hold a newer schema's lines
 * or a line cut off by a crash. */
#define _GNU_SOURCE /* getline, strptime, timegm */
#include "cmd.h"
#include "cmd_common.h"
#include "report.h"
#include "base.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: governor report [--json | --prometheus] [--by user|job] [--sort KEY]\n"
            "                       [--job N] [--user NAME|UID] [--since TIME] [--until TIME]\n"
            "                       [--finding NAME] [FILE...]\n"
            "\n"
            "Show what governed steps used against what they were sealed, from the step\n"
            "report's files (the plugstack key report=DIR writes DIR/steps.jsonl on each\n"
            "node; a directory stands for its steps.jsonl and, with --since, the rotated\n"
            "copies beside it written since then; no FILE: the directory this machine's\n"
            "plugstack.conf names): per job and step, per node, and in total for a step\n"
            "on several nodes, then what each job should ask next time.  --by user sums\n"
            "the jobs per user; --by job shows one line per job, its batch step's\n"
            "allocation holding the steps on its node, and its suggestions.  --sort:\n"
            "job, start, elapsed (longest first), cpu_eff, mem_eff (least efficient\n"
            "first) or user.  --since and --until keep the steps that started at or\n"
            "after, and before, TIME: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (local time),\n"
            "@SECONDS, or -N followed by s, m, h, d or w (that long ago: -7d).\n"
            "Findings: oom_killed, memory_near_limit, memory_underused, cpu_underused,\n"
            "throttled, stalled, memory_lowered, timeout, time_overrequested.\n"
            "Exit status: 0 shown, 2 usage error, 3 a file could not be read.\n");
}

typedef struct filters {
    uint64_t job, uid, since, until;   /* until: 0 for none */
    gov_finding finding;
    bool has_finding;
    bool by;                 /* --by given: by_what */
    gov_report_by by_what;
    gov_report_sort sort;
} filters;

typedef struct records {
    gov_step_record *v;
    size_t n, cap;
    size_t bad, other_schema, duplicate;
} records;

/* Skipped lines named by file and line; the rest are only counted. */
#define NAMED_SKIPS_MAX 10

/* "-7d": that long before now. */
static int parse_ago(const char *s, uint64_t *out)
{
    static const struct { char unit; uint64_t seconds; } units[] = {
        { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 604800 },
    };
    size_t len = strlen(s);
    uint64_t n, now = (uint64_t)time(NULL);

    if (len < 2 || gov__parse_u64(s, len - 1, &n))
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (s[len - 1] == units[i].unit) {
            if (n > now / units[i].seconds)
                return -1;
            *out = now - n * units[i].seconds;
            return 0;
        }
    return -1;
}

static int parse_time(const char *s, uint64_t *out)
{
    struct tm tm;
    const char *end;
    time_t t;

    if (s[0] == '@')
        return gov__parse_u64(s + 1, strlen(s + 1), out) ? -1 : 0;
    if (s[0] == '-')
        return parse_ago(s + 1, out);
    memset(&tm, 0, sizeof tm);
    if (!(end = strptime(s, "%Y-%m-%d", &tm)))
        return -1;
    if (*end == 'T' && !((end = strptime(end + 1, "%H:%M", &tm)) &&
                         (*end == '\0' || (*end == ':' && (end = strptime(end + 1, "%S", &tm))))))
        return -1;
    if (*end)
        return -1;
    tm.tm_isdst = -1;
    if ((t = mktime(&tm)) == (time_t)-1)
        return -1;
    *out = (uint64_t)t;
    return 0;
}

static int parse_user(const char *s, uint64_t *uid)
{
    struct passwd *pw;

    if (!gov__parse_u64(s, strlen(s), uid))
        return 0;
    if (!(pw = getpwnam(s)))
        return -1;
    *uid = pw->pw_uid;
    return 0;
}

static int report_arg(int argc, char **argv, int *i, filters *fl)
{
    const char *v;
    int r;

    if ((r = gov__cmd_value_arg(argc, argv, i, "--job", "a job id", &v)) != 0) {
        if (r > 0 && gov__parse_u64(v, strlen(v), &fl->job)) {
            fprintf(stderr, "governor: report: --job needs a job id (a number)\n");
            return -1;
        }
        return r;
    }
    if ((r = gov__cmd_value_arg(argc, argv, i, "--user", "a user name or uid", &v)) != 0) {
        if (r > 0 && parse_user(v, &fl->uid)) {
            fprintf(stderr, "governor: report: --user: no such user on this machine; "
                            "give the numeric uid\n");
            return -1;
        }
        return r;
    }
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "--until" : "--since";
        if ((r = gov__cmd_value_arg(argc, argv, i, name, "a time", &v)) != 0) {
            if (r > 0 && parse_time(v, k ? &fl->until : &fl->since)) {
                fprintf(stderr, "governor: report: %s needs YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], "
                                "@SECONDS or -N with s, m, h, d or w (-7d)\n", name);
                return -1;
            }
            return r;
        }
    }
    if ((r = gov__cmd_value_arg(argc, argv, i, "--by", "user or job", &v)) != 0) {
        if (r > 0 && strcmp(v, "user") && strcmp(v, "job")) {
            fprintf(stderr, "governor: report: --by: 'user' (the steps summed per user) or "
                            "'job' (one line per job)\n");
            return -1;
        }
        fl->by = r > 0;
        fl->by_what = r > 0 && !strcmp(v, "job") ? GOV_REPORT_BY_JOB : GOV_REPORT_BY_USER;
        return r;
    }
    if ((r = gov__cmd_value_arg(argc, argv, i, "--sort", "a key", &v)) != 0) {
        if (r > 0 && (fl->sort = gov__report_sort_from_name(v)) == GOV_REPORT_SORT_COUNT) {
            fprintf(stderr, "governor: report: --sort: job, start, elapsed, cpu_eff, mem_eff "
                            "or user\n");
            return -1;
        }
        return r;
    }
    if ((r = gov__cmd_value_arg(argc, argv, i, "--finding", "a finding's name", &v)) != 0) {
        if (r > 0) {
            fl->finding = gov__finding_from_name(v, strlen(v));
            fl->has_finding = true;
            if (fl->finding == GOV_FINDING_COUNT) {
                fprintf(stderr, "governor: report: --finding: unknown finding; see "
                                "'governor report --help' for the names\n");
                return -1;
            }
        }
        return r;
    }
    return 0;
}

static bool selected(const filters *fl, const gov_step_record *r)
{
    if (fl->job != GOV_UNKNOWN && r->job != fl->job)
        return false;
    if (fl->uid != GOV_UNKNOWN && r->uid != fl->uid)
        return false;
    if ((fl->since || fl->until) && r->start == GOV_UNKNOWN)
        return false;
    if (r->start < fl->since || (fl->until && r->start >= fl->until))
        return false;
    return !fl->has_finding || (r->findings & (1u << fl->finding));
}

static int add(records *rs, const gov_step_record *r)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 64;
        gov_step_record *v = realloc(rs->v, cap * sizeof *v);
        if (!v)
            return GOV_ENOMEM;
        rs->v = v;
        rs->cap = cap;
    }
    rs->v[rs->n++] = *r;
    return 0;
}

/* What read_file needs beside the file. */
typedef struct reading {
    const filters *fl;
    records *rs;
} reading;

/* The next line of in into buf (no newline), at most cap - 1 bytes: 1, 0
 * at the end, -1 for a longer line, which is read past and dropped (a
 * record is a line of at most GOV_REPORT_LINE_MAX bytes). */
static int next_line(FILE *in, char *buf, size_t cap, size_t *len)
{
    bool longer = false;

    for (;;) {
        size_t n;
        if (!fgets(buf, (int)cap, in))
            return longer ? -1 : 0;
        n = strlen(buf);
        if (n && buf[n - 1] == '\n') {
            buf[--n] = '\0';
            *len = n;
            return longer ? -1 : 1;
        }
        /* Short of the buffer without a newline: the file's last line. */
        if (n < cap - 1) {
            *len = n;
            return longer ? -1 : 1;
        }
        longer = true;
    }
}

static int read_file(FILE *in, const char *name, void *arg)
{
    const filters *fl = ((reading *)arg)->fl;
    records *rs = ((reading *)arg)->rs;
    char line[GOV_REPORT_LINE_MAX + 1];
    size_t len, lineno = 0;
    int rc = 0, got;

    while (!rc && (got = next_line(in, line, sizeof line, &len)) != 0) {
        gov_step_record r;
        int d;
        lineno++;
        if (got > 0 && len == 0)
            continue;
        d = got > 0 ? gov__step_record_decode(line, len, &r) : GOV_EPARSE;
        if (d && rs->bad + rs->other_schema < NAMED_SKIPS_MAX)
            fprintf(stderr, "governor: report: %s:%zu: skipped: %s\n", name, lineno,
                    got < 0 ? "a line longer than a record can be"
                    : d == GOV_EVERSION ? "a record of another schema" : "not a step record");
        if (d == GOV_EVERSION)
            rs->other_schema++;
        else if (d)
            rs->bad++;
        else if (selected(fl, &r))
            rc = add(rs, &r);
    }
    if (!rc && ferror(in)) {
        /* A read error is no end of the records. */
        fprintf(stderr, "governor: report: cannot read %s: %s\n", name, strerror(errno));
        return GOV_EIO;
    }
    if (rc)
        fprintf(stderr, "governor: report: %s\n", gov_strerror(rc));
    return rc;
}

static int read_all(char **files, size_t nfiles, const filters *fl, records *rs)
{
    reading r = { fl, rs };

    for (size_t i = 0; i < nfiles; i++)
        if (gov__report_read_arg(files[i], fl->since, read_file, &r))
            return GOV_EXIT_FAILED;
    return GOV_EXIT_OK;
}

/* No file named: the configured report directory, or a usage error that
 * says where it was looked for. */
static int configured(char *dir, size_t cap)
{
    char plugstack[4096];
    int rc = gov__report_configured_dir(dir, cap, plugstack, sizeof plugstack);

    if (rc)
        fprintf(stderr, "governor: report: no report=DIR for governor.so in %s (or its "
                        "includes; $SLURM_CONF names slurm.conf): name the record files "
                        "(DIR/steps.jsonl)\n", plugstack);
    return rc;
}

static int show(const filters *fl, bool json, bool prometheus, gov_report_step *steps, size_t n)
{
    gov__report_sort(steps, n, fl->by ? GOV_REPORT_SORT_JOB : fl->sort);
    if (fl->by)
        return gov__report_groups(stdout, steps, n, fl->by_what, true, fl->sort, json)
                   ? GOV_EXIT_FAILED
                   : GOV_EXIT_OK;
    if (json)
        return gov__report_json(stdout, steps, n) ? GOV_EXIT_FAILED : GOV_EXIT_OK;
    if (prometheus) {
        gov__report_prometheus(stdout, steps, n);
        return GOV_EXIT_OK;
    }
    gov__report_table(stdout, steps, n, true);
    return gov__report_advice(stdout, steps, n) ? GOV_EXIT_FAILED : GOV_EXIT_OK;
}

int gov__cmd_report(int argc, char **argv)
{
    filters fl = { .job = GOV_UNKNOWN, .uid = GOV_UNKNOWN };
    char dir[4096];
    records rs = { 0 };
    gov_report_step *steps = NULL;
    bool json = false, prometheus = false;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0, nsteps;
    int rc = GOV_EXIT_OK;

    if (!files)
        return GOV_EXIT_FAILED;
    for (int i = 1; i < argc && rc == GOV_EXIT_OK; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(files);
            return GOV_EXIT_OK;
        }
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--prometheus"))
            prometheus = true;
        else if ((r = report_arg(argc, argv, &i, &fl)) < 0)
            rc = GOV_EXIT_USAGE;
        else if (r == 0 && argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "governor: report: unknown option '%s'; 'governor report --help' "
                            "lists them\n", argv[i]);
            rc = GOV_EXIT_USAGE;
        } else if (r == 0) {
            files[nfiles++] = argv[i];
        }
    }
    if (rc == GOV_EXIT_OK && (json && prometheus)) {
        fprintf(stderr, "governor: report: --json or --prometheus, not both\n");
        rc = GOV_EXIT_USAGE;
    }
    if (rc == GOV_EXIT_OK && fl.by && prometheus) {
        fprintf(stderr, "governor: report: --by shows a table or --json\n");
        rc = GOV_EXIT_USAGE;
    }
    if (rc == GOV_EXIT_OK && nfiles == 0) {
        if (configured(dir, sizeof dir))
            rc = GOV_EXIT_USAGE;
        else
            files[nfiles++] = dir;
    }
    if (rc == GOV_EXIT_OK)
        rc = read_all(files, nfiles, &fl, &rs);
    if (rc == GOV_EXIT_OK && rs.n && !(steps = calloc(rs.n, sizeof *steps)))
        rc = GOV_EXIT_FAILED;
    if (rc == GOV_EXIT_OK) {
        nsteps = gov__report_group(rs.v, &rs.n, steps, &rs.duplicate);
        if (rs.bad || rs.other_schema || rs.duplicate)
            fprintf(stderr, "governor: report: skipped %zu lines that are not step records, "
                            "%zu of another schema, %zu repeated\n",
                    rs.bad, rs.other_schema, rs.duplicate);
        if (nsteps == 0)
            fprintf(stderr, "governor: report: no steps matched\n");
        rc = show(&fl, json, prometheus, steps, nsteps);
        if (fflush(stdout))
            rc = GOV_EXIT_FAILED;
    }
    free(steps);
    free(rs.v);
    free(files);
    return rc;
}
