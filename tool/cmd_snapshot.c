/* cmd_snapshot.c - `governor snapshot [--json] [--sysroot DIR]`: the answer
 * first, then every field of the snapshot under its section and label, as
 * the field table (core/snapshot/snapshot_fields.c) gives them. */
#include "cmd.h"
#include "cmd_common.h"
#include "base.h"
#include "snapshot_base.h"
#include "decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: governor snapshot [--json | --get FIELD] [--require-descriptor]\n"
               "                         [--sysroot DIR]\n"
               "  Show what this process may use: first in one line, then each layer of\n"
               "  evidence, the effective budget and the layer that binds it.  --json\n"
               "  prints the governor.snapshot/1 object (docs/snapshot.md); --get prints\n"
               "  one of its fields (cpu.effective.workers), nothing and exit 3 when it\n"
               "  is unknown; --sysroot reads every file under DIR.\n"
               "  --require-descriptor: exit 3 instead of using the SLURM_* variables when\n"
               "  there is no verified descriptor.\n");
}

/* A figure the text lacks reads "unknown" (it exists, but was not read)
 * or "n/a" (it does not exist here: no allocation outside a scheduler,
 * no memory.high on cgroup v1, no GPU on the node): never a bare "-"
 * that could mean either.  The JSON has null for both. */
static const char *or_unknown(const char *s)
{
    return s ? s : "unknown";
}

static void cnt(uint64_t v, char *buf, size_t cap)
{
    if (v == GOV_UNKNOWN)
        snprintf(buf, cap, "unknown");
    else
        gov__fmt_count(v, buf, cap);
}

static void byt(uint64_t v, char *buf, size_t cap)
{
    if (v == GOV_UNKNOWN)
        snprintf(buf, cap, "unknown");
    else
        gov__fmt_bytes(v, buf, cap);
}

static bool no_allocation(const gov_snapshot *s)
{
    return s->scheduler.source == GOV_SCHED_NONE;
}

/* One row's value for people, by its kind and unit (the field table,
 * core/snapshot/snapshot_fields.c). */
static void value_text(const gov_field *f, const gov_snapshot *s, char *buf, size_t cap)
{
    const char *at = (const char *)s + f->offset;
    char tmp[64];
    uint64_t u64;
    uint32_t u32;
    unsigned e;
    double d;
    int i;

    switch (f->kind) {
    case GOV_FIELD_COUNT:
        memcpy(&u64, at, sizeof u64);
        if (f->unit == GOV_UNIT_BYTES)
            byt(u64, buf, cap);
        else if (f->unit == GOV_UNIT_SECONDS && u64 != GOV_UNKNOWN)
            snprintf(buf, cap, "%llu s", (unsigned long long)u64);
        else
            cnt(u64, buf, cap);
        break;
    case GOV_FIELD_FRACTION:
        memcpy(&d, at, sizeof d);
        if (!gov_known_f(d))
            snprintf(buf, cap, "unknown");
        else
            snprintf(buf, cap, f->unit == GOV_UNIT_CORES     ? "%.2f cores"
                               : f->unit == GOV_UNIT_PERCENT ? "%.2f%%"
                                                             : "%.2f", d);
        break;
    case GOV_FIELD_FLAG:
    case GOV_FIELD_TRISTATE:
        memcpy(&i, at, sizeof i);
        snprintf(buf, cap, "%s", i < 0 ? "unknown" : i ? "yes" : "no");
        break;
    case GOV_FIELD_INDEX:
        memcpy(&i, at, sizeof i);
        if (i < 0)
            snprintf(buf, cap, "unknown");
        else
            snprintf(buf, cap, "%d", i);
        break;
    case GOV_FIELD_PERCENT:
        memcpy(&u32, at, sizeof u32);
        if (u32)
            snprintf(buf, cap, "%u%%", u32);
        else
            snprintf(buf, cap, "none");
        break;
    case GOV_FIELD_VERSION:
        memcpy(&i, at, sizeof i);
        if (i == 1 || i == 2)
            snprintf(buf, cap, "v%d", i);
        else
            snprintf(buf, cap, "no cgroup found");
        break;
    case GOV_FIELD_NAME:
        memcpy(&e, at, sizeof e);
        snprintf(buf, cap, "%s", or_unknown(f->name(e)));
        break;
    case GOV_FIELD_CPUSET:
        memcpy(&u64, (const char *)s + f->aux, sizeof u64);
        /* A long list is cut: the JSON has it whole. */
        if (u64 == GOV_UNKNOWN || gov_cpuset_format((const gov_cpuset *)(const void *)at, buf,
                                                    cap) < 0)
            snprintf(buf, cap, "%s", u64 == GOV_UNKNOWN ? "unknown" : "(long; see --json)");
        break;
    case GOV_FIELD_DERIVED: {
        const char *v = f->derive(s, tmp, sizeof tmp);
        snprintf(buf, cap, "%s", v ? v : "n/a");
        break;
    }
    default:
        buf[0] = '\0';
        break;
    }
}

/* Every row of the field table under its section's title: what the
 * JSON has, in its order, for people. */
static void print_table(const gov_snapshot *s)
{
    size_t n;
    const gov_field *f = gov__snapshot_fields(&n);
    char v[128], buf[160];
    const char *note;

    for (size_t i = 0; i < n; i++) {
        if (f[i].kind == GOV_FIELD_SECTION) {
            printf("%s\n", f[i].label);
            continue;
        }
        if (f[i].hidden)
            continue;
        if (f[i].kind == GOV_FIELD_CUSTOM) {
            f[i].text(s, stdout);
            continue;
        }
        note = NULL;
        if (f[i].applies && !f[i].applies(s)) {
            snprintf(v, sizeof v, "n/a");
        } else {
            value_text(&f[i], s, v, sizeof v);
            note = f[i].note ? f[i].note(s, buf, sizeof buf) : NULL;
        }
        printf("  %-*s %s%s%s%s\n", GOV_FIELD_LABEL_MAX, f[i].label, v, note ? " (" : "",
               note ? note : "", note ? ")" : "");
    }
}

/* "not enforced" for people; the names are the JSON's. */
static const char *enforcement_words(gov_enforcement e)
{
    return e == GOV_NOT_ENFORCED ? "not enforced" : gov_enforcement_name(e);
}

/* The answer first: what this task may use, its share where a limit is
 * the step's and shared by its tasks, and whether the kernel holds it. */
static void print_summary(const gov_snapshot *s)
{
    uint64_t limit = s->memory.effective.limit_bytes;
    uint64_t share = gov__memory_task_share(s, limit);
    char cpu[96], mem[192], a[32], b[32];

    if (gov_known_f(s->cpu.effective.capacity_cores)) {
        cnt(s->cpu.effective.workers, a, sizeof a);
        snprintf(cpu, sizeof cpu, "%.2f cores (%s worker%s)", s->cpu.effective.capacity_cores,
                 a, s->cpu.effective.workers == 1 ? "" : "s");
    } else {
        snprintf(cpu, sizeof cpu, "an unknown number of CPUs");
    }
    byt(share, a, sizeof a);
    byt(limit, b, sizeof b);
    if (limit == GOV_UNKNOWN)
        snprintf(mem, sizeof mem, "an unknown amount of memory");
    else if (share != limit)
        snprintf(mem, sizeof mem, "%s of memory (its share of the %s the step's %llu tasks on "
                 "this node share)", a, b, (unsigned long long)s->scheduler.tasks_on_node);
    else if (s->memory.effective.binding == GOV_LAYER_HOST)
        snprintf(mem, sizeof mem, "%s of memory (the host's: no limit found)", b);
    else
        snprintf(mem, sizeof mem, "%s of memory", b);
    if (no_allocation(s))
        printf("this process may use %s and %s; no allocation to check them against\n", cpu,
               mem);
    else
        printf("this task may use %s and %s; CPU %s, memory %s\n", cpu, mem,
               enforcement_words(s->enforcement.cpu), enforcement_words(s->enforcement.memory));
}

/* The table's terms, once, under it. */
static void print_terms(void)
{
    static const char *const terms[][2] = {
        { "packages, PUs", "sockets; processing units (hardware threads)" },
        { "max, high", "cgroup memory.max: the kernel kills past it; memory.high: it throttles" },
        { "working set", "usage minus the page cache the kernel can drop" },
        { "some, full", "PSI: the share of time some, or all, of the tasks waited" },
        { "inventory", "what the host has, not what this process may use" },
        { "n/a, unknown", "does not exist here; exists but could not be read" },
    };

    printf("TERMS\n");
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        printf("  %-*s %s\n", GOV_FIELD_LABEL_MAX, terms[i][0], terms[i][1]);
}

/* The members of the object at path (leaves "PATH.member..."), each once,
 * comma-separated, as many as fit in out. */
static void object_members(const gov_json_leaf *l, int n, const char *path, char *out, size_t cap)
{
    size_t pl = strlen(path), used = 0, last_len = 0;
    const char *last = NULL;

    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *m = l[i].path + pl + 1;
        size_t ml;
        if (strncmp(l[i].path, path, pl) || l[i].path[pl] != '.')
            continue;
        ml = strcspn(m, ".[");
        /* A member's leaves come together: one name per run of them. */
        if (last && ml == last_len && !strncmp(m, last, ml))
            continue;
        last = m;
        last_len = ml;
        if (used + ml + 3 >= cap)
            break;
        used += (size_t)snprintf(out + used, cap - used, "%s%.*s", used ? ", " : "", (int)ml, m);
    }
}

/* --get FIELD: the value of one member of the JSON snapshot, its path as
 * docs/snapshot.md writes it (a leading '.' allowed); an array prints one
 * element a line. */
static int print_field(const gov_snapshot *s, const char *field)
{
    enum { LEAVES_MAX = 1024 };
    gov_json_leaf *leaves = calloc(LEAVES_MAX, sizeof *leaves);
    char *text = NULL, want[64];
    size_t len = 0, found = 0, nulls = 0;
    int n = -1, rc = GOV_EXIT_OK;

    if (*field == '.')
        field++;
    if (leaves && !gov_snapshot_json(s, &text, &len))
        n = gov__json_leaves(text, len, leaves, LEAVES_MAX);
    if (n < 0) {
        fprintf(stderr, "governor: snapshot: cannot render the snapshot\n");
        free(leaves);
        free(text);
        return GOV_EXIT_FAILED;
    }
    snprintf(want, sizeof want, "%s", field);
    for (int i = 0; i < n; i++) {
        const gov_json_leaf *l = &leaves[i];
        size_t fl = strlen(want);
        if (strcmp(l->path, want) && !(strncmp(l->path, want, fl) == 0 &&
                                       !strcmp(l->path + fl, "[]")))
            continue;
        found++;
        if (l->type == GOV_JSON_NULL)
            nulls++;
        else
            printf("%.*s\n", (int)l->len, l->text);
    }
    if (!found) {
        char members[256];
        object_members(leaves, n, want, members, sizeof members);
        if (*members)
            fprintf(stderr, "governor: snapshot: --get: '%s' is an object; name one of its "
                            "members: %s\n", field, members);
        else
            fprintf(stderr, "governor: snapshot: --get: no field '%s'; 'governor snapshot "
                            "--json' shows them (docs/snapshot.md)\n", field);
        rc = GOV_EXIT_USAGE;
    } else if (nulls == found) {
        rc = GOV_EXIT_FAILED;   /* unknown: nothing printed, as scripts expect */
    }
    free(leaves);
    free(text);
    return rc;
}

static int snapshot_arg(int argc, char **argv, int *i, void *ctx)
{
    return gov__cmd_value_arg(argc, argv, i, "--get", "a field of the JSON snapshot",
                              (const char **)ctx);
}

int gov__cmd_snapshot(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    gov_snapshot snap;
    const char *field = NULL;

    int rc = gov__cmd_parse(argc, argv, "snapshot", usage, &o, snapshot_arg, &field);

    if (rc >= 0)
        return rc;
    if (field && o.json) {
        fprintf(stderr, "governor: snapshot: --get or --json, not both\n");
        return GOV_EXIT_USAGE;
    }
    if ((rc = gov__cmd_capture(&o, &snap)))
        return rc;
    if (field)
        return print_field(&snap, field);
    if (o.json) {
        char *text = NULL;
        return gov__cmd_put_json(gov_snapshot_json(&snap, &text, NULL), &text);
    }
    print_summary(&snap);
    printf("descriptor: %s", gov_descriptor_status_name(snap.descriptor.status));
    if (snap.descriptor.status == GOV_DESCRIPTOR_INVALID)
        printf(" (%s)", gov_strerror(snap.descriptor.reason));
    printf("; scheduler facts from: %s\n",
           snap.scheduler.source == GOV_SCHED_NONE ? "no scheduler"
                                                   : gov_sched_source_name(snap.scheduler.source));
    gov__cmd_print_container(&snap.descriptor);
    printf("\n");
    print_table(&snap);
    print_terms();
    return GOV_EXIT_OK;
}
