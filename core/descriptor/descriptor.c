/* descriptor.c - the descriptor's text format and its verification; the
 * plugin writes it, descriptor_collect.c reads it into a snapshot.  The
 * format is documented in docs/descriptor.md. */
#include "descriptor.h"
#include "base.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOV_DESC_HEADER "governor-descriptor/"

/* Plain unsigned fields, in the order they are written, with the format
 * versions that have each (from `since` to `until`, 0: to this one).  The
 * other keys follow them in the one table of keys below (keys[]), which
 * they open. */
struct u64_field {
    const char *key;
    size_t off;
    bool required;
    unsigned since, until;
};

#define U64F(k, m, r) { k, offsetof(gov_descriptor, m), r, 1, 0 }
#define U64F_SINCE(k, m, v, u) { k, offsetof(gov_descriptor, m), false, v, u }
static const struct u64_field u64_fields[] = {
    U64F("job", job_id, true),
    U64F("step", step_id, true),
    U64F("node", node_index, true),
    U64F("uid", uid, true),
    U64F("pid", pid, true),
    U64F("start", pid_start, true),
    U64F("created", created, true),
    U64F("nodes", nodes, false),
    U64F("tasks", tasks_total, false),
    U64F("tasks_node", tasks_on_node, false),
    U64F("ncpus", cpus_on_node, false),
    U64F("cpt", cpus_per_task, false),
    U64F("job_mem", job_mem_mib, false),
    U64F("step_mem", step_mem_mib, false),
    U64F("mem_per_cpu", mem_per_cpu_mib, false),
    U64F("job_cores", job_cores, false),
    U64F("step_cores", step_cores, false),
    U64F("gpus_node", gpus_on_node, false),
    U64F("gpus_task", gpus_per_task, false),
    U64F("gpus_visible", gpus_visible, false),
    U64F_SINCE("gpus_usable", gpus_usable, 2, 3),
    U64F_SINCE("pidns", pid_ns, 3, 0),
    U64F_SINCE("userns", user_ns, 3, 0),
    U64F_SINCE("cgroupns", cgroup_ns, 4, 0),
    U64F_SINCE("gpu_share", gpu_share, 5, 0),
    U64F_SINCE("gpu_share_of", gpu_share_of, 5, 0),
    U64F_SINCE("gpu_mem", gpu_mem_bytes, 5, 0),
};

/* Whether a key of versions since..until (0: still) belongs to version v. */
static bool in_version(unsigned since, unsigned until, unsigned v)
{
    return since <= v && (until == 0 || v <= until);
}
#define N_U64 (sizeof u64_fields / sizeof u64_fields[0])

static uint64_t *u64_at(gov_descriptor *d, size_t i)
{
    return (uint64_t *)((char *)d + u64_fields[i].off);
}

static uint64_t u64_get(const gov_descriptor *d, size_t i)
{
    return *(const uint64_t *)((const char *)d + u64_fields[i].off);
}

/* A step kind without a name (base.h) is written "unknown". */
#define KIND_UNKNOWN "unknown"


void gov__descriptor_init(gov_descriptor *d)
{
    memset(d, 0, sizeof *d);
    for (size_t i = 0; i < N_U64; i++)
        *u64_at(d, i) = GOV_UNKNOWN;
    d->boot_hash = GOV_UNKNOWN;
    d->topo.packages = d->topo.cores = d->topo.pus = d->topo.numa_nodes = GOV_UNKNOWN;
    d->policy.site.profile = GOV_PROFILE_BATCH;
    d->policy.site.mem_reserve_bytes = GOV_UNKNOWN;
    d->policy.site.cpu_reserve_threads = GOV_UNKNOWN;
}

/* ---- encoding -------------------------------------------------------------- */

static void put_reserve(gov_text_buf *o, const char *key, uint64_t abs, uint32_t pct)
{
    if (pct)
        gov__text_put(o, "%s=%u%%\n", key, pct);
    else if (abs != GOV_UNKNOWN)
        gov__text_put(o, "%s=%llu\n", key, (unsigned long long)abs);
}

/* ---- parsing --------------------------------------------------------------- */

/* One text per value; the unknown sentinel is written by leaving a key
 * out, never spelled. */
static int parse_u64(const char *v, size_t n, uint64_t *out)
{
    return gov__parse_dec(v, n, GOV_NUM_CANONICAL, GOV_UNKNOWN - 1, out) ? GOV_EPARSE : 0;
}

static int parse_bool(const char *v, size_t n, bool *out)
{
    if (n != 1 || (v[0] != '0' && v[0] != '1'))
        return GOV_EPARSE;
    *out = v[0] == '1';
    return 0;
}

static int parse_small(const char *v, size_t n, uint64_t max, uint64_t *out)
{
    if (parse_u64(v, n, out) || *out > max)
        return GOV_EPARSE;
    return 0;
}

/* Split "a,b,c" into at most max items; calls fn on each. */
static int parse_list(const char *v, size_t n, uint32_t max, uint32_t *count,
                      int (*fn)(const char *, size_t, uint32_t, void *), void *arg)
{
    size_t start = 0;
    uint32_t k = 0;

    for (size_t i = 0; i <= n; i++) {
        if (i < n && v[i] != ',')
            continue;
        if (k == max || fn(v + start, i - start, k, arg))
            return GOV_EPARSE;
        k++;
        start = i + 1;
    }
    *count = k;
    return 0;
}

static int numa_item(const char *v, size_t n, uint32_t k, void *arg)
{
    return parse_u64(v, n, &((gov_desc_topology *)arg)->numa_mem_bytes[k]);
}

static int gpu_item(const char *v, size_t n, uint32_t k, void *arg)
{
    gov_desc_topology *t = arg;
    const char *slash = memchr(v, '/', n);
    uint64_t numa;
    size_t m;

    if (!slash)
        return GOV_EPARSE;
    m = (size_t)(slash - v);
    if (m == 2 && v[0] == '-' && v[1] == '1')
        t->gpu_numa[k] = -1;
    else if (parse_small(v, m, INT32_MAX, &numa))
        return GOV_EPARSE;
    else
        t->gpu_numa[k] = (int32_t)numa;
    return parse_bool(slash + 1, n - m - 1, &t->gpu_local[k]);
}

static int parse_reserve(const char *v, size_t n, uint64_t *abs, uint32_t *pct)
{
    uint64_t x;

    if (n > 1 && v[n - 1] == '%') {
        if (parse_small(v, n - 1, 100, &x) || x == 0)
            return GOV_EPARSE;
        *pct = (uint32_t)x;
        return 0;
    }
    return parse_u64(v, n, abs);
}

static int parse_topo(const char *v, size_t n, gov_desc_topology *t)
{
    uint64_t *dst[4] = { &t->packages, &t->cores, &t->pus, &t->numa_nodes };
    size_t start = 0, k = 0;

    for (size_t i = 0; i <= n; i++) {
        if (i < n && v[i] != ',')
            continue;
        if (k == 4 || parse_u64(v + start, i - start, dst[k]))
            return GOV_EPARSE;
        k++;
        start = i + 1;
    }
    if (k != 4)
        return GOV_EPARSE;
    t->present = true;
    return 0;
}

/* Exactly 16 lowercase hex digits, as the encoder writes them. */
static int parse_boot(const char *v, size_t n, uint64_t *out)
{
    return n != 16 || gov__parse_hex(v, n, GOV_HEX_LOWER, out) ? GOV_EPARSE : 0;
}

/* ---- the keys after the plain numbers ------------------------------------- */

/* Each key's writer (nothing when the descriptor has no value for it) and
 * reader, side by side. */
static void put_boot(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    gov__text_put(o, "%s=%016llx\n", key, (unsigned long long)d->boot_hash);
}

static int get_boot(const char *v, size_t n, gov_descriptor *d)
{
    return parse_boot(v, n, &d->boot_hash);
}

static void put_kind(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    const char *name = gov_step_kind_name(d->step_kind);

    gov__text_put(o, "%s=%s\n", key, name ? name : KIND_UNKNOWN);
}

static int get_kind(const char *v, size_t n, gov_descriptor *d)
{
    if (gov__token_eq(v, n, KIND_UNKNOWN)) {
        d->step_kind = GOV_STEP_UNKNOWN;
        return 0;
    }
    return gov__step_kind_from_name(v, n, &d->step_kind);
}

static void put_flag(gov_text_buf *o, const char *key, bool v)
{
    gov__text_put(o, "%s=%d\n", key, v ? 1 : 0);
}

static int get_gpus_verified(const char *v, size_t n, gov_descriptor *d)
{
    return parse_bool(v, n, &d->gpus_verified);
}

static void put_topo(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    const gov_desc_topology *t = &d->topo;

    if (t->present)
        gov__text_put(o, "%s=%llu,%llu,%llu,%llu\n", key, (unsigned long long)t->packages,
                      (unsigned long long)t->cores, (unsigned long long)t->pus,
                      (unsigned long long)t->numa_nodes);
}

static int get_topo(const char *v, size_t n, gov_descriptor *d)
{
    return parse_topo(v, n, &d->topo);
}

static void put_numa_mem(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    const gov_desc_topology *t = &d->topo;

    if (!t->present || !t->numa_count)
        return;
    gov__text_put(o, "%s=", key);
    for (uint32_t i = 0; i < t->numa_count; i++)
        gov__text_put(o, "%s%llu", i ? "," : "", (unsigned long long)t->numa_mem_bytes[i]);
    gov__text_put(o, "\n");
}

static int get_numa_mem(const char *v, size_t n, gov_descriptor *d)
{
    return parse_list(v, n, GOV_DESC_MAX_NUMA, &d->topo.numa_count, numa_item, &d->topo);
}

static void put_gpus(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    const gov_desc_topology *t = &d->topo;

    if (!t->present || !t->gpu_count)
        return;
    gov__text_put(o, "%s=", key);
    for (uint32_t i = 0; i < t->gpu_count; i++)
        gov__text_put(o, "%s%d/%d", i ? "," : "", t->gpu_numa[i], t->gpu_local[i] ? 1 : 0);
    gov__text_put(o, "\n");
}

static int get_gpus(const char *v, size_t n, gov_descriptor *d)
{
    return parse_list(v, n, GOV_DESC_MAX_GPUS, &d->topo.gpu_count, gpu_item, &d->topo);
}

static void put_profile(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    gov__text_put(o, "%s=%s\n", key, gov_profile_name(d->policy.site.profile));
}

static int get_profile(const char *v, size_t n, gov_descriptor *d)
{
    return gov__profile_from_name(v, n, &d->policy.site.profile);
}

static void put_imposed(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    put_flag(o, key, d->policy.site.profile_imposed);
}

static int get_imposed(const char *v, size_t n, gov_descriptor *d)
{
    bool imposed = false;
    int rc = parse_bool(v, n, &imposed);

    d->policy.site.profile_imposed = imposed;
    return rc;
}

static void put_mem_reserve(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    put_reserve(o, key, d->policy.site.mem_reserve_bytes, d->policy.site.mem_reserve_pct);
}

static int get_mem_reserve(const char *v, size_t n, gov_descriptor *d)
{
    return parse_reserve(v, n, &d->policy.site.mem_reserve_bytes, &d->policy.site.mem_reserve_pct);
}

static void put_cpu_reserve(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    put_reserve(o, key, d->policy.site.cpu_reserve_threads, d->policy.site.cpu_reserve_pct);
}

static int get_cpu_reserve(const char *v, size_t n, gov_descriptor *d)
{
    return parse_reserve(v, n, &d->policy.site.cpu_reserve_threads,
                         &d->policy.site.cpu_reserve_pct);
}

static void put_seal(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    gov__text_put(o, "%s=%s\n", key, d->policy.seal_required ? "required" : "optional");
}

static int get_seal(const char *v, size_t n, gov_descriptor *d)
{
    if (gov__token_eq(v, n, "required"))
        d->policy.seal_required = true;
    else if (!gov__token_eq(v, n, "optional"))
        return GOV_EPARSE;
    return 0;
}

static void put_ttl(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    if (d->policy.ttl_s)
        gov__text_put(o, "%s=%u\n", key, d->policy.ttl_s);
}

static int get_ttl(const char *v, size_t n, gov_descriptor *d)
{
    uint64_t x;

    if (parse_small(v, n, 3600, &x) || x == 0)
        return GOV_EPARSE;
    d->policy.ttl_s = (uint32_t)x;
    return 0;
}

static void put_threads(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    put_flag(o, key, d->policy.threads);
}

static int get_threads(const char *v, size_t n, gov_descriptor *d)
{
    return parse_bool(v, n, &d->policy.threads);
}

/* The grant's kind by its name; none: the key is left out. */
static void put_share_kind(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    const char *name = gov_gpu_share_kind_name(d->gpu_share_kind);

    if (name)
        gov__text_put(o, "%s=%s\n", key, name);
}

static int get_share_kind(const char *v, size_t n, gov_descriptor *d)
{
    for (unsigned k = 1; k < GOV_GPU_SHARE_KIND_COUNT; k++)
        if (gov__token_eq(v, n, gov_gpu_share_kind_name((gov_gpu_share_kind)k))) {
            d->gpu_share_kind = (gov_gpu_share_kind)k;
            return 0;
        }
    return GOV_EPARSE;
}

static void put_runtimes(gov_text_buf *o, const char *key, const gov_descriptor *d)
{
    put_flag(o, key, d->policy.runtimes);
}

static int get_runtimes(const char *v, size_t n, gov_descriptor *d)
{
    return parse_bool(v, n, &d->policy.runtimes);
}

/* Every key after the plain numbers, in the order they are written: its
 * name, the format versions that have it (since..until, 0: to this one),
 * whether a descriptor of those versions must have it, and its writer
 * (none for a key this version no longer writes) and reader.  The one list of them: the encoder, the parser and its duplicate
 * and missing-key checks all walk it. */
static const struct key {
    const char *name;
    unsigned since, until;
    bool required;
    void (*put)(gov_text_buf *o, const char *key, const gov_descriptor *d);
    int (*parse)(const char *v, size_t n, gov_descriptor *d);
} keys[] = {
    { "boot", 1, 0, true, put_boot, get_boot },
    { "kind", 1, 0, true, put_kind, get_kind },
    /* Until version 3 the plugin sealed its own check of the task's
     * devices; version 4 seals before the task has its device cgroup. */
    { "gpus_verified", 1, 3, true, NULL, get_gpus_verified },
    { "topo", 1, 0, false, put_topo, get_topo },
    { "numa_mem", 1, 0, false, put_numa_mem, get_numa_mem },
    { "gpus", 1, 0, false, put_gpus, get_gpus },
    { "profile", 1, 0, true, put_profile, get_profile },
    { "imposed", 1, 0, true, put_imposed, get_imposed },
    { "mem_reserve", 1, 0, false, put_mem_reserve, get_mem_reserve },
    { "cpu_reserve", 1, 0, false, put_cpu_reserve, get_cpu_reserve },
    { "seal", 1, 0, true, put_seal, get_seal },
    { "ttl", 1, 0, false, put_ttl, get_ttl },
    { "threads", 1, 0, true, put_threads, get_threads },
    { "runtimes", 3, 0, true, put_runtimes, get_runtimes },
    { "gpu_share_kind", 5, 0, false, put_share_kind, get_share_kind },
};
#define N_KEYS (sizeof keys / sizeof keys[0])

/* ---- the whole ---------------------------------------------------------- */

int gov__descriptor_encode(const gov_descriptor *d, char *buf, size_t cap)
{
    gov_text_buf o =
        gov__text_fixed(buf, cap < GOV_DESC_MAX_BYTES + 1 ? cap : GOV_DESC_MAX_BYTES + 1);
    const gov_desc_topology *t;
    const gov_desc_policy *p;

    if (!d || !buf || cap == 0)
        return GOV_EINVAL;
    t = &d->topo;
    p = &d->policy;
    if ((unsigned)d->step_kind >= GOV_STEP_KIND_COUNT || !gov_profile_name(p->site.profile) ||
        t->numa_count > GOV_DESC_MAX_NUMA || t->gpu_count > GOV_DESC_MAX_GPUS)
        return GOV_EINVAL;
    for (size_t i = 0; i < N_U64; i++)
        if (u64_fields[i].required && u64_get(d, i) == GOV_UNKNOWN)
            return GOV_EINVAL;
    buf[0] = '\0';
    gov__text_put(&o, GOV_DESC_HEADER "%d\n", GOV_DESC_VERSION);
    for (size_t i = 0; i < N_U64; i++)
        if (u64_get(d, i) != GOV_UNKNOWN &&
            in_version(u64_fields[i].since, u64_fields[i].until, GOV_DESC_VERSION))
            gov__text_put(&o, "%s=%llu\n", u64_fields[i].key, (unsigned long long)u64_get(d, i));
    for (size_t i = 0; i < N_KEYS; i++)
        if (in_version(keys[i].since, keys[i].until, GOV_DESC_VERSION))
            keys[i].put(&o, keys[i].name, d);
    if (o.err) {
        buf[0] = '\0';
        return GOV_ENOSPC;
    }
    return (int)o.used;
}

/* One "key=value" line; seen[] (N_U64 + N_KEYS) rejects duplicates. */
static int parse_line(unsigned version, const char *k, size_t kn, const char *v,
                      size_t vn, gov_descriptor *d, bool *seen)
{
    for (size_t i = 0; i < N_U64; i++)
        if (gov__token_eq(k, kn, u64_fields[i].key)) {
            if (seen[i] || !in_version(u64_fields[i].since, u64_fields[i].until, version))
                return GOV_EPARSE;
            seen[i] = true;
            return parse_u64(v, vn, u64_at(d, i));
        }
    for (size_t i = 0; i < N_KEYS; i++)
        if (gov__token_eq(k, kn, keys[i].name)) {
            if (seen[N_U64 + i] || !in_version(keys[i].since, keys[i].until, version))
                return GOV_EPARSE;
            seen[N_U64 + i] = true;
            return keys[i].parse(v, vn, d);
        }
    return GOV_EPARSE;
}

int gov__descriptor_parse(const char *text, size_t len, gov_descriptor *out)
{
    bool seen[N_U64 + N_KEYS] = { false };
    gov_lines it = gov__lines_of(text, len, true);
    const char *line, *k, *v;
    size_t n, kn, vn, hl = strlen(GOV_DESC_HEADER);
    gov_descriptor d;
    uint64_t version;
    int rc;

    if (!out || (!text && len))
        return GOV_EINVAL;
    gov__descriptor_init(out);
    if (len > GOV_DESC_MAX_BYTES)
        return GOV_EPARSE;
    gov__descriptor_init(&d);
    if (!gov__line_next(&it, &line, &n) || n <= hl || memcmp(line, GOV_DESC_HEADER, hl) ||
        parse_u64(line + hl, n - hl, &version))
        return GOV_EPARSE;
    /* Versions 1 (no gpus_usable, never verified GPUs), 2 (no namespaces)
     * and 3 (one seal a task) are still read: nodes and jobs upgrade at
     * different times. */
    if (version < 1 || version > GOV_DESC_VERSION)
        return GOV_EVERSION;
    while ((rc = gov__record_next(&it, &k, &kn, &v, &vn)) == 1)
        if (parse_line((unsigned)version, k, kn, v, vn, &d, seen))
            return GOV_EPARSE;
    if (rc)
        return GOV_EPARSE;
    for (size_t i = 0; i < N_U64; i++)
        if (u64_fields[i].required && !seen[i])
            return GOV_EPARSE;
    for (size_t i = 0; i < N_KEYS; i++)
        if (keys[i].required && in_version(keys[i].since, keys[i].until, (unsigned)version) &&
            !seen[N_U64 + i])
            return GOV_EPARSE;
    if ((d.topo.numa_count && !d.topo.present) || (d.topo.gpu_count && !d.topo.present) ||
        (d.policy.site.mem_reserve_pct && d.policy.site.mem_reserve_bytes != GOV_UNKNOWN) ||
        (d.policy.site.cpu_reserve_pct && d.policy.site.cpu_reserve_threads != GOV_UNKNOWN))
        return GOV_EPARSE;
    d.version = (unsigned)version;
    *out = d;
    return 0;
}

/* ---- verification ---------------------------------------------------------- */

int gov__descriptor_verify(const char *cred, const char *socket,
                           uint32_t trusted_uid, const gov_desc_claim *claim,
                           gov_descriptor *out, gov_seal_info *info, gov_desc_check *chk)
{
    char *payload = NULL;
    size_t len = 0;
    const char *why;
    /* Only in the node's initial user namespace do owners say who they
     * are: there munged must be root's or munge's, as the plugin checks it
     * before it seals; in a namespace of the process's own the user may run
     * a munged of theirs behind any path, so its word goes unchecked. */
    bool initial = gov__userns_initial() == GOV_VOUCH_YES;
    int rc;

    gov__descriptor_init(out);
    memset(chk, 0, sizeof *chk);
    if (initial && gov__munge_path_check(socket, gov__munge_user(), &why))
        return GOV_ESOCKET;
    rc = gov__seal_decode(socket, cred, &payload, &len, info);
    if (rc)
        return rc;
    /* Only root (slurmstepd's privileged callbacks) or the configured
     * SlurmUser can have written the budget; a user's own `munge` does not
     * count, however well-formed its payload. */
    if (info->uid != 0 && (trusted_uid == GOV_UID_NONE || info->uid != trusted_uid))
        rc = GOV_EUNTRUSTED;
    else
        rc = gov__descriptor_parse(payload, len, out);
    free(payload);
    /* munged decodes a credential restricted to a uid only for a client
     * whose real uid (in munged's own namespace) is that uid: its word,
     * where it is munged's. */
    if (!rc)
        rc = gov__descriptor_check_binding(out, claim,
                                           initial && info->uid_restriction != GOV_UID_NONE &&
                                               info->uid_restriction == out->uid,
                                           chk);
    if (!initial)
        chk->unchecked |= 1u << GOV_BINDING_MUNGED;
    if (rc)
        gov__descriptor_init(out);
    return rc;
}
