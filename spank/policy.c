/* policy.c - the site policy from the plugin's plugstack.conf arguments:
 * strict key=value words, every key documented in docs/admin-guide.md. */
#include "parse.h"
#include "run_dir.h"

#include <stdio.h>
#include <string.h>

#define GOV_SPANK_POLICY_KEYS \
    "default, profile, mem_reserve, cpu_reserve, seal, ttl, munge_socket, topology_cache, " \
    "allow_off, munge_timeout, run_dir, runtimes"

void gov_spank_policy_init(gov_spank_policy *p)
{
    memset(p, 0, sizeof *p);
    p->profile = GOV_PROFILE_BATCH;
    p->allow_off = true;
    p->munge_timeout_s = GOV_MUNGE_TIMEOUT_S;
    p->mem_reserve_bytes = GOV_UNKNOWN;
    p->cpu_reserve_threads = GOV_UNKNOWN;
    memcpy(p->run_dir, GOV_RUN_DIR_DEFAULT, sizeof GOV_RUN_DIR_DEFAULT);
}

/* Strict decimal: digits only, bounded. */
static int parse_num(const char *v, size_t n, uint64_t max, uint64_t *out)
{
    return gov_parse_dec(v, n, 0, max, out) ? GOV_EPARSE : 0;
}

static int parse_pct(const char *v, size_t n, uint32_t *pct)
{
    uint64_t x;

    if (n < 2 || v[n - 1] != '%' || parse_num(v, n - 1, 100, &x) || x == 0)
        return GOV_EPARSE;
    *pct = (uint32_t)x;
    return 0;
}

/* "0", or a count with a binary unit K/M/G/T ("512M", "2G"), or "N%".
 * A bare number other than 0 is refused: bytes or MiB would be a guess. */
static int parse_mem(const char *v, gov_spank_policy *p)
{
    size_t n = strlen(v);
    uint64_t bytes;

    if (!parse_pct(v, n, &p->mem_reserve_pct))
        return 0;
    if (n == 1 && v[0] == '0') {
        p->mem_reserve_bytes = GOV_UNKNOWN;
        return 0;
    }
    if (n < 2 || !strchr("KMGTkmgt", v[n - 1]) || gov_slurm_parse_mem(v, n, &bytes) != 0)
        return GOV_EPARSE;
    p->mem_reserve_bytes = bytes;
    return 0;
}

static int parse_cpu(const char *v, gov_spank_policy *p)
{
    size_t n = strlen(v);
    uint64_t x;

    if (!parse_pct(v, n, &p->cpu_reserve_pct))
        return 0;
    if (parse_num(v, n, 1u << 20, &x))
        return GOV_EPARSE;
    p->cpu_reserve_threads = x ? x : GOV_UNKNOWN;
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

struct policy_key {
    const char *name;
    const char *expect;
};

static const struct policy_key policy_keys[] = {
    { "default", "on or off" },
    { "profile", "batch or interactive" },
    { "mem_reserve", "a size with a unit (512M, 2G) or a percentage (10%)" },
    { "cpu_reserve", "a thread count (2) or a percentage (10%)" },
    { "seal", "required or optional" },
    { "ttl", "seconds from 1 to 3600" },
    { "munge_socket", "an absolute path" },
    { "topology_cache", "on or off (or, as older versions spelled run_dir, the same "
                        "absolute directory as run_dir)" },
    { "allow_off", "yes or no" },
    { "munge_timeout", "seconds from 1 to 60" },
    { "run_dir", "an absolute directory path (the same as topology_cache's, if that names one)" },
    { "runtimes", "off, on or always" },
};
#define N_KEYS (sizeof policy_keys / sizeof policy_keys[0])

/* run_dir, from either of its spellings: given twice, they must agree. */
static int set_run_dir(const char *v, gov_spank_policy *p, bool *seen)
{
    char dir[GOV_SPANK_POLICY_PATH_MAX];

    if (parse_path(v, dir) || (*seen && strcmp(dir, p->run_dir)))
        return GOV_EPARSE;
    memcpy(p->run_dir, dir, sizeof dir);
    *seen = true;
    return 0;
}

static int set_key(size_t k, const char *v, gov_spank_policy *p, bool *run_dir_seen)
{
    bool b = false;
    uint64_t x;
    int rc;

    switch (k) {
    case 0:
        rc = parse_choice(v, "on", "off", &b);
        p->default_on = b;
        return rc;
    case 1:
        rc = parse_choice(v, "interactive", "batch", &b);
        p->profile = b ? GOV_PROFILE_INTERACTIVE : GOV_PROFILE_BATCH;
        p->profile_imposed = rc == 0;
        return rc;
    case 2:
        return parse_mem(v, p);
    case 3:
        return parse_cpu(v, p);
    case 4:
        rc = parse_choice(v, "required", "optional", &b);
        p->seal_required = b;
        return rc;
    case 5:
        if (parse_num(v, strlen(v), 3600, &x) || x == 0)
            return GOV_EPARSE;
        p->ttl_s = (uint32_t)x;
        return 0;
    case 6:
        return parse_path(v, p->munge_socket);
    case 7:
        if (!strcmp(v, "on") || !strcmp(v, "off")) {
            p->topology_cache_off = v[1] == 'f';
            return 0;
        }
        /* Until run_dir existed, the cache's directory was the only one. */
        return set_run_dir(v, p, run_dir_seen);
    case 8:
        rc = parse_choice(v, "yes", "no", &b);
        p->allow_off = b;
        return rc;
    case 9:
        if (parse_num(v, strlen(v), 60, &x) || x == 0)
            return GOV_EPARSE;
        p->munge_timeout_s = (uint32_t)x;
        return 0;
    case 10:
        return set_run_dir(v, p, run_dir_seen);
    case 11:
        if (!strcmp(v, "off"))
            p->runtimes = GOV_RUNTIMES_OFF;
        else if (!strcmp(v, "on"))
            p->runtimes = GOV_RUNTIMES_ON;
        else if (!strcmp(v, "always"))
            p->runtimes = GOV_RUNTIMES_ALWAYS;
        else
            return GOV_EPARSE;
        return 0;
    }
    return GOV_EPARSE;
}

int gov_spank_policy_parse(int argc, const char *const *argv, gov_spank_policy *out,
                     char *err, size_t errcap)
{
    bool seen[N_KEYS] = { false }, run_dir_seen = false;
    gov_spank_policy p;

    if (!out || argc < 0 || (argc && !argv))
        return GOV_EINVAL;
    if (err && errcap)
        err[0] = '\0';
    gov_spank_policy_init(out);
    gov_spank_policy_init(&p);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i] ? argv[i] : "";
        const char *eq = strchr(a, '=');
        size_t kn = eq ? (size_t)(eq - a) : strlen(a), k;

        for (k = 0; k < N_KEYS; k++)
            if (strlen(policy_keys[k].name) == kn && !memcmp(a, policy_keys[k].name, kn))
                break;
        if (k == N_KEYS) {
            if (err)
                snprintf(err, errcap, "unknown plugstack.conf argument '%.*s'; known keys: %s",
                         (int)(kn > 40 ? 40 : kn), a, GOV_SPANK_POLICY_KEYS);
            return GOV_EPARSE;
        }
        if (seen[k]) {
            if (err)
                snprintf(err, errcap, "plugstack.conf key '%s' is given twice; keep one",
                         policy_keys[k].name);
            return GOV_EPARSE;
        }
        seen[k] = true;
        if (!eq || !eq[1] || set_key(k, eq + 1, &p, &run_dir_seen)) {
            if (err)
                snprintf(err, errcap, "plugstack.conf key '%s' needs %s", policy_keys[k].name,
                         policy_keys[k].expect);
            return GOV_EPARSE;
        }
    }
    *out = p;
    return 0;
}

bool gov_spank_policy_resolve(const gov_spank_policy *site, const gov_mode *mode,
                        gov_desc_policy *out)
{
    bool on = mode->given && (!mode->off || site->allow_off) ? !mode->off : site->default_on;
    gov_profile user = mode->profile_set ? mode->profile : GOV_PROFILE_BATCH;

    memset(out, 0, sizeof *out);
    out->profile_imposed = site->profile_imposed;
    /* interactive keeps a host reserve, so it is the stricter profile: a
     * user may choose it under an imposed batch, never the reverse. */
    out->profile = site->profile_imposed && site->profile == GOV_PROFILE_INTERACTIVE
                   ? GOV_PROFILE_INTERACTIVE : user;
    out->mem_reserve_bytes = site->mem_reserve_bytes;
    out->mem_reserve_pct = site->mem_reserve_pct;
    out->cpu_reserve_threads = site->cpu_reserve_threads;
    out->cpu_reserve_pct = site->cpu_reserve_pct;
    out->seal_required = site->seal_required;
    out->ttl_s = site->ttl_s;
    out->threads = mode->given && mode->threads;
    switch (site->runtimes) {
    case GOV_RUNTIMES_OFF: out->runtimes = mode->given && mode->runtimes; break;
    case GOV_RUNTIMES_ON: out->runtimes = !(mode->given && mode->noruntimes); break;
    case GOV_RUNTIMES_ALWAYS: out->runtimes = true; break;
    }
    return on;
}
