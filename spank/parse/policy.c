/* policy.c - the site policy from the plugin's plugstack.conf arguments:
 * strict key=value words, every key documented in docs/admin-guide.md. */
#include "base.h"
#include "parse.h"
#include "evidence.h"
#include "run_dir.h"
#include "step_report.h"

#include <stdio.h>
#include <string.h>

void gov__spank_policy_init(gov_spank_policy *p)
{
    memset(p, 0, sizeof *p);
    p->site.profile = GOV_PROFILE_BATCH;
    p->allow_off = true;
    p->munge_timeout_s = GOV_MUNGE_TIMEOUT_S;
    p->handoff_munge = true;
    p->site.mem_reserve_bytes = GOV_UNKNOWN;
    p->site.cpu_reserve_threads = GOV_UNKNOWN;
    memcpy(p->run_dir, GOV_RUN_DIR_DEFAULT, sizeof GOV_RUN_DIR_DEFAULT);
    p->report_min_s = GOV_REPORT_MIN_S_DEFAULT;
    p->pressure_threshold_ms = GOV_PRESSURE_THRESHOLD_MS_DEFAULT;
}

/* Strict decimal: digits only, bounded. */
static int parse_num(const char *v, size_t n, uint64_t max, uint64_t *out)
{
    return gov__parse_dec(v, n, 0, max, out) ? GOV_EPARSE : 0;
}

static int parse_pct(const char *v, size_t n, uint32_t *pct)
{
    uint64_t x;

    if (n < 2 || v[n - 1] != '%' || parse_num(v, n - 1, 100, &x) || x == 0)
        return GOV_EPARSE;
    *pct = (uint32_t)x;
    return 0;
}

/* What parsing the arguments builds: the policy, and whether run_dir is
 * set yet (it has two spellings, which must agree). */
struct policy_build {
    gov_spank_policy p;
    bool run_dir_seen;
};

/* "0", or a count with a binary unit K/M/G/T ("512M", "2G"), or "N%".
 * A bare number other than 0 is refused: bytes or MiB would be a guess. */
static int set_mem_reserve(const char *v, struct policy_build *b)
{
    gov_spank_policy *p = &b->p;
    size_t n = strlen(v);
    uint64_t bytes;

    if (!parse_pct(v, n, &p->site.mem_reserve_pct))
        return 0;
    if (n == 1 && v[0] == '0') {
        p->site.mem_reserve_bytes = GOV_UNKNOWN;
        return 0;
    }
    if (n < 2 || !strchr("KMGTkmgt", v[n - 1]) || gov__slurm_parse_mem(v, n, &bytes) != 0)
        return GOV_EPARSE;
    p->site.mem_reserve_bytes = bytes;
    return 0;
}

static int set_cpu_reserve(const char *v, struct policy_build *b)
{
    gov_spank_policy *p = &b->p;
    size_t n = strlen(v);
    uint64_t x;

    if (!parse_pct(v, n, &p->site.cpu_reserve_pct))
        return 0;
    if (parse_num(v, n, 1u << 20, &x))
        return GOV_EPARSE;
    p->site.cpu_reserve_threads = x ? x : GOV_UNKNOWN;
    return 0;
}

static int parse_path(const char *v, char *dst)
{
    size_t n = strlen(v);

    if (v[0] != '/' || n >= GOV_SPANK_POLICY_PATH_MAX)
        return GOV_EPARSE;
    memcpy(dst, v, n + 1);
    return 0;
}

static int parse_choice(const char *v, const char *a, const char *b, bool *is_a)
{
    if (!strcmp(v, a))
        *is_a = true;
    else if (!strcmp(v, b))
        *is_a = false;
    else
        return GOV_EPARSE;
    return 0;
}

/* 1 to max seconds. */
static int parse_seconds(const char *v, uint64_t max, uint32_t *out)
{
    uint64_t x;

    if (parse_num(v, strlen(v), max, &x) || x == 0)
        return GOV_EPARSE;
    *out = (uint32_t)x;
    return 0;
}

static int set_default(const char *v, struct policy_build *b)
{
    return parse_choice(v, "on", "off", &b->p.default_on);
}

static int set_profile(const char *v, struct policy_build *b)
{
    if (gov__profile_from_name(v, strlen(v), &b->p.site.profile))
        return GOV_EPARSE;
    b->p.site.profile_imposed = true;
    return 0;
}

static int set_seal(const char *v, struct policy_build *b)
{
    return parse_choice(v, "required", "optional", &b->p.seal_required);
}

static int set_ttl(const char *v, struct policy_build *b)
{
    return parse_seconds(v, 3600, &b->p.ttl_s);
}

static int set_munge_socket(const char *v, struct policy_build *b)
{
    return parse_path(v, b->p.munge_socket);
}

/* run_dir, from either of its spellings: given twice, they must agree. */
static int set_run_dir(const char *v, struct policy_build *b)
{
    char dir[GOV_SPANK_POLICY_PATH_MAX];

    if (parse_path(v, dir) || (b->run_dir_seen && strcmp(dir, b->p.run_dir)))
        return GOV_EPARSE;
    memcpy(b->p.run_dir, dir, sizeof dir);
    b->run_dir_seen = true;
    return 0;
}

static int set_topology_cache(const char *v, struct policy_build *b)
{
    if (!strcmp(v, "on") || !strcmp(v, "off")) {
        b->p.topology_cache_off = v[1] == 'f';
        return 0;
    }
    /* Until run_dir existed, the cache's directory was the only one. */
    return set_run_dir(v, b);
}

static int set_allow_off(const char *v, struct policy_build *b)
{
    return parse_choice(v, "yes", "no", &b->p.allow_off);
}

static int set_munge_timeout(const char *v, struct policy_build *b)
{
    return parse_seconds(v, 60, &b->p.munge_timeout_s);
}

/* Keys whose values are the names of one of parse.h's X-lists. */
#define POLICY_NAME_(id, name) [id] = name,
#define POLICY_ENUM_SETTER(fn, list, field, type)                 \
    static int fn(const char *v, struct policy_build *b)          \
    {                                                             \
        static const char *const names[] = { list(POLICY_NAME_) }; \
        int i = gov__name_lookup(GOV_NAMES(names), v, strlen(v)); \
                                                                  \
        if (i < 0)                                                \
            return GOV_EPARSE;                                    \
        b->p.field = (type)i;                                     \
        return 0;                                                 \
    }
POLICY_ENUM_SETTER(set_runtimes, GOV_RUNTIMES_POLICY_LIST, runtimes, gov_runtimes_policy)
POLICY_ENUM_SETTER(set_pressure, GOV_PRESSURE_POLICY_LIST, pressure, gov_pressure_policy)
POLICY_ENUM_SETTER(set_on_init_error, GOV_INIT_ERROR_POLICY_LIST, on_init_error,
                   gov_init_error_policy)

/* Below the 2 s window (GOV_PRESSURE_WINDOW_US): a trigger the kernel takes. */
static int set_pressure_threshold(const char *v, struct policy_build *b)
{
    uint64_t x;

    if (parse_num(v, strlen(v), GOV_PRESSURE_WINDOW_US / 1000 - 1, &x) || x == 0)
        return GOV_EPARSE;
    b->p.pressure_threshold_ms = (uint32_t)x;
    return 0;
}

static int set_per_core(const char *v, struct policy_build *b)
{
    return parse_choice(v, "yes", "no", &b->p.per_core);
}

/* handoff=munge, file, or both as a comma list (docs/admin-guide.md). */
static int set_handoff(const char *v, struct policy_build *b)
{
    bool munge = false, file = false;
    const char *p = v;

    for (;;) {
        size_t n = strcspn(p, ",");
        bool *which = gov__token_eq(p, n, "munge") ? &munge
                      : gov__token_eq(p, n, "file") ? &file : NULL;
        if (!which || *which)
            return GOV_EPARSE;
        *which = true;
        if (!p[n])
            break;
        p += n + 1;
    }
    b->p.handoff_munge = munge;
    b->p.handoff_file = file;
    return 0;
}

static int set_report(const char *v, struct policy_build *b)
{
    return parse_path(v, b->p.report_dir);
}

/* 0 (judge every step) to a day. */
static int set_report_min(const char *v, struct policy_build *b)
{
    uint64_t x;

    if (parse_num(v, strlen(v), 86400, &x))
        return GOV_EPARSE;
    b->p.report_min_s = (uint32_t)x;
    return 0;
}

/* Every key: its name, what a bad value's message says it needs, and its
 * parser.  The only list of them: the "known keys" message comes from it,
 * and tests/consistency/test_plugstack_keys.sh holds the documentation to
 * it. */
static const struct policy_key {
    const char *name;
    const char *expect;
    int (*set)(const char *value, struct policy_build *b);
} policy_keys[] = {
    { "default", "on or off", set_default },
    { "profile", "batch or interactive", set_profile },
    { "mem_reserve", "a size with a unit (512M, 2G) or a percentage (10%)", set_mem_reserve },
    { "cpu_reserve", "a thread count (2) or a percentage (10%)", set_cpu_reserve },
    { "seal", "required or optional", set_seal },
    { "ttl", "seconds from 1 to 3600", set_ttl },
    { "munge_socket", "an absolute path", set_munge_socket },
    { "topology_cache", "on or off (or, as older versions spelled run_dir, the same "
                        "absolute directory as run_dir)", set_topology_cache },
    { "allow_off", "yes or no", set_allow_off },
    { "munge_timeout", "seconds from 1 to 60", set_munge_timeout },
    { "run_dir", "an absolute directory path (the same as topology_cache's, if that names one)",
      set_run_dir },
    { "runtimes", "off, on or always", set_runtimes },
    { "per_core", "yes or no", set_per_core },
    { "report", "an absolute directory path", set_report },
    { "report_min_s", "seconds from 0 to 86400", set_report_min },
    { "handoff", "munge, file, or munge,file", set_handoff },
    { "pressure", "off, allow or on", set_pressure },
    { "pressure_threshold_ms", "milliseconds from 1 to 1999", set_pressure_threshold },
    { "on_init_error", "run, fail_job or drain_node", set_on_init_error },
};
#define N_KEYS (sizeof policy_keys / sizeof policy_keys[0])

/* "default, profile, ...", in the table's order. */
static void key_list(char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);

    gov__text_append(&o, "", 0);
    for (size_t k = 0; k < N_KEYS; k++)
        gov__text_put(&o, "%s%s", k ? ", " : "", policy_keys[k].name);
}

int gov__spank_policy_parse(int argc, const char *const *argv, gov_spank_policy *out,
                     char *err, size_t errcap)
{
    bool seen[N_KEYS] = { false };
    struct policy_build b = { .run_dir_seen = false };

    if (!out || argc < 0 || (argc && !argv))
        return GOV_EINVAL;
    if (err && errcap)
        err[0] = '\0';
    gov__spank_policy_init(out);
    gov__spank_policy_init(&b.p);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i] ? argv[i] : "";
        const char *eq = strchr(a, '=');
        size_t kn = eq ? (size_t)(eq - a) : strlen(a), k;

        for (k = 0; k < N_KEYS; k++)
            if (strlen(policy_keys[k].name) == kn && !memcmp(a, policy_keys[k].name, kn))
                break;
        if (k == N_KEYS) {
            char keys[384];

            key_list(keys, sizeof keys);
            if (err)
                snprintf(err, errcap, "unknown plugstack.conf argument '%.*s'; known keys: %s",
                         (int)(kn > 40 ? 40 : kn), a, keys);
            return GOV_EPARSE;
        }
        if (seen[k]) {
            if (err)
                snprintf(err, errcap, "plugstack.conf key '%s' is given twice; keep one",
                         policy_keys[k].name);
            return GOV_EPARSE;
        }
        seen[k] = true;
        if (!eq || !eq[1] || policy_keys[k].set(eq + 1, &b)) {
            if (err)
                snprintf(err, errcap, "plugstack.conf key '%s' needs %s", policy_keys[k].name,
                         policy_keys[k].expect);
            return GOV_EPARSE;
        }
    }
    *out = b.p;
    return 0;
}

gov_init_error_policy gov__spank_policy_on_init_error(int argc, const char *const *argv)
{
    static const char key[] = "on_init_error=";
    struct policy_build b;

    gov__spank_policy_init(&b.p);
    for (int i = 0; argv && i < argc; i++)
        if (argv[i] && !strncmp(argv[i], key, sizeof key - 1))
            (void)set_on_init_error(argv[i] + sizeof key - 1, &b);
    return b.p.on_init_error;
}
