/* descriptor.c - the descriptor's text format and its verification; the
 * plugin writes it, descriptor_collect.c reads it into a snapshot.  The
 * format is documented in docs/descriptor.md. */
#include "descriptor.h"
#include "names.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOV_DESC_HEADER "governor-descriptor/"

/* Plain unsigned fields, in the order they are written, with the format
 * version that introduced each. */
struct u64_field {
    const char *key;
    size_t off;
    bool required;
    unsigned since;
};

#define U64F(k, m, r) { k, offsetof(gov_descriptor, m), r, 1 }
#define U64F_SINCE(k, m, v) { k, offsetof(gov_descriptor, m), false, v }
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
    U64F_SINCE("gpus_usable", gpus_usable, 2),
    U64F_SINCE("pidns", pid_ns, 3),
    U64F_SINCE("userns", user_ns, 3),
};
#define N_U64 (sizeof u64_fields / sizeof u64_fields[0])

static uint64_t *u64_at(gov_descriptor *d, size_t i)
{
    return (uint64_t *)((char *)d + u64_fields[i].off);
}

static uint64_t u64_get(const gov_descriptor *d, size_t i)
{
    return *(const uint64_t *)((const char *)d + u64_fields[i].off);
}

/* A step kind without a name (names.h) is written "unknown". */
#define KIND_UNKNOWN "unknown"


void gov_descriptor_init(gov_descriptor *d)
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
        gov_text_put(o, "%s=%u%%\n", key, pct);
    else if (abs != GOV_UNKNOWN)
        gov_text_put(o, "%s=%llu\n", key, (unsigned long long)abs);
}

int gov_descriptor_encode(const gov_descriptor *d, char *buf, size_t cap)
{
    gov_text_buf o = { buf, cap < GOV_DESC_MAX_BYTES + 1 ? cap : GOV_DESC_MAX_BYTES + 1, 0, false };
    const gov_desc_topology *t;
    const gov_desc_policy *p;

    if (!d || !buf || cap == 0)
        return GOV_EINVAL;
    t = &d->topo;
    p = &d->policy;
    if ((unsigned)d->step_kind > GOV_STEP_INTERACTIVE || !gov_profile_name(p->site.profile) ||
        t->numa_count > GOV_DESC_MAX_NUMA || t->gpu_count > GOV_DESC_MAX_GPUS)
        return GOV_EINVAL;
    for (size_t i = 0; i < N_U64; i++)
        if (u64_fields[i].required && u64_get(d, i) == GOV_UNKNOWN)
            return GOV_EINVAL;
    buf[0] = '\0';
    gov_text_put(&o, GOV_DESC_HEADER "%d\n", GOV_DESC_VERSION);
    for (size_t i = 0; i < N_U64; i++)
        if (u64_get(d, i) != GOV_UNKNOWN)
            gov_text_put(&o, "%s=%llu\n", u64_fields[i].key, (unsigned long long)u64_get(d, i));
    gov_text_put(&o, "boot=%016llx\n", (unsigned long long)d->boot_hash);
    gov_text_put(&o, "kind=%s\n", gov_step_kind_name(d->step_kind) ? gov_step_kind_name(d->step_kind)
                                                           : KIND_UNKNOWN);
    gov_text_put(&o, "gpus_verified=%d\n", d->gpus_verified ? 1 : 0);
    if (t->present) {
        gov_text_put(&o, "topo=%llu,%llu,%llu,%llu\n", (unsigned long long)t->packages,
            (unsigned long long)t->cores, (unsigned long long)t->pus,
            (unsigned long long)t->numa_nodes);
        if (t->numa_count) {
            gov_text_put(&o, "numa_mem=");
            for (uint32_t i = 0; i < t->numa_count; i++)
                gov_text_put(&o, "%s%llu", i ? "," : "", (unsigned long long)t->numa_mem_bytes[i]);
            gov_text_put(&o, "\n");
        }
        if (t->gpu_count) {
            gov_text_put(&o, "gpus=");
            for (uint32_t i = 0; i < t->gpu_count; i++)
                gov_text_put(&o, "%s%d/%d", i ? "," : "", t->gpu_numa[i], t->gpu_local[i] ? 1 : 0);
            gov_text_put(&o, "\n");
        }
    }
    gov_text_put(&o, "profile=%s\n", gov_profile_name(p->site.profile));
    gov_text_put(&o, "imposed=%d\n", p->site.profile_imposed ? 1 : 0);
    put_reserve(&o, "mem_reserve", p->site.mem_reserve_bytes, p->site.mem_reserve_pct);
    put_reserve(&o, "cpu_reserve", p->site.cpu_reserve_threads, p->site.cpu_reserve_pct);
    gov_text_put(&o, "seal=%s\n", p->seal_required ? "required" : "optional");
    if (p->ttl_s)
        gov_text_put(&o, "ttl=%u\n", p->ttl_s);
    gov_text_put(&o, "threads=%d\n", p->threads ? 1 : 0);
    gov_text_put(&o, "runtimes=%d\n", p->runtimes ? 1 : 0);
    if (o.full) {
        buf[0] = '\0';
        return GOV_ENOSPC;
    }
    return (int)o.used;
}

/* ---- parsing --------------------------------------------------------------- */

/* One text per value; the unknown sentinel is written by leaving a key
 * out, never spelled. */
static int parse_u64(const char *v, size_t n, uint64_t *out)
{
    return gov_parse_dec(v, n, GOV_NUM_CANONICAL, GOV_UNKNOWN - 1, out) ? GOV_EPARSE : 0;
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
    return n != 16 || gov_parse_hex(v, n, GOV_HEX_LOWER, out) ? GOV_EPARSE : 0;
}

/* One "key=value" line; seen[] rejects duplicates. */
enum { K_BOOT = N_U64, K_KIND, K_GPUV, K_TOPO, K_NUMA, K_GPUS, K_PROFILE,
       K_IMPOSED, K_MEMRES, K_CPURES, K_SEAL, K_TTL, K_THREADS, K_RUNTIMES, K_COUNT };

static int parse_line(unsigned version, const char *k, size_t kn, const char *v,
                      size_t vn, gov_descriptor *d, bool *seen)
{
    static const char *const names[K_COUNT - N_U64] = {
        "boot", "kind", "gpus_verified", "topo", "numa_mem", "gpus", "profile",
        "imposed", "mem_reserve", "cpu_reserve", "seal", "ttl", "threads", "runtimes",
    };
    /* Keys of this table that a version introduced after 1. */
    static const unsigned since[K_COUNT - N_U64] = { [K_RUNTIMES - N_U64] = 3 };
    uint64_t x;
    size_t id = K_COUNT;

    for (size_t i = 0; i < N_U64 && id == K_COUNT; i++)
        if (gov_token_eq(k, kn, u64_fields[i].key))
            id = i;
    for (size_t i = 0; i < K_COUNT - N_U64 && id == K_COUNT; i++)
        if (gov_token_eq(k, kn, names[i]))
            id = N_U64 + i;
    if (id == K_COUNT || seen[id] || (id < N_U64 && u64_fields[id].since > version) ||
        (id >= N_U64 && since[id - N_U64] > version))
        return GOV_EPARSE;
    seen[id] = true;
    if (id < N_U64)
        return parse_u64(v, vn, u64_at(d, id));
    switch (id) {
    case K_BOOT:
        return parse_boot(v, vn, &d->boot_hash);
    case K_KIND:
        if (gov_token_eq(v, vn, KIND_UNKNOWN)) {
            d->step_kind = GOV_STEP_UNKNOWN;
            return 0;
        }
        return gov_step_kind_from_name(v, vn, &d->step_kind);
    case K_GPUV:
        return parse_bool(v, vn, &d->gpus_verified);
    case K_TOPO:
        return parse_topo(v, vn, &d->topo);
    case K_NUMA:
        return parse_list(v, vn, GOV_DESC_MAX_NUMA, &d->topo.numa_count, numa_item, &d->topo);
    case K_GPUS:
        return parse_list(v, vn, GOV_DESC_MAX_GPUS, &d->topo.gpu_count, gpu_item, &d->topo);
    case K_PROFILE:
        return gov_profile_from_name(v, vn, &d->policy.site.profile);
    case K_IMPOSED: {
        bool imposed = false;
        int rc = parse_bool(v, vn, &imposed);

        d->policy.site.profile_imposed = imposed;
        return rc;
    }
    case K_MEMRES:
        return parse_reserve(v, vn, &d->policy.site.mem_reserve_bytes, &d->policy.site.mem_reserve_pct);
    case K_CPURES:
        return parse_reserve(v, vn, &d->policy.site.cpu_reserve_threads, &d->policy.site.cpu_reserve_pct);
    case K_SEAL:
        if (gov_token_eq(v, vn, "required"))
            d->policy.seal_required = true;
        else if (!gov_token_eq(v, vn, "optional"))
            return GOV_EPARSE;
        return 0;
    case K_TTL:
        if (parse_small(v, vn, 3600, &x) || x == 0)
            return GOV_EPARSE;
        d->policy.ttl_s = (uint32_t)x;
        return 0;
    case K_THREADS:
        return parse_bool(v, vn, &d->policy.threads);
    case K_RUNTIMES:
        return parse_bool(v, vn, &d->policy.runtimes);
    }
    return GOV_EPARSE;
}

int gov_descriptor_parse(const char *text, size_t len, gov_descriptor *out)
{
    bool seen[K_COUNT] = { false };
    gov_lines it = gov_lines_of(text, len, true);
    const char *line, *k, *v;
    size_t n, kn, vn, hl = strlen(GOV_DESC_HEADER);
    gov_descriptor d;
    uint64_t version;
    int rc;

    if (!out || (!text && len))
        return GOV_EINVAL;
    gov_descriptor_init(out);
    if (len > GOV_DESC_MAX_BYTES)
        return GOV_EPARSE;
    gov_descriptor_init(&d);
    if (!gov_line_next(&it, &line, &n) || n <= hl || memcmp(line, GOV_DESC_HEADER, hl) ||
        parse_u64(line + hl, n - hl, &version))
        return GOV_EPARSE;
    /* Versions 1 (no gpus_usable, never verified GPUs) and 2 (no
     * namespaces) are still read: nodes and jobs upgrade at different times. */
    if (version < 1 || version > GOV_DESC_VERSION)
        return GOV_EVERSION;
    while ((rc = gov_record_next(&it, &k, &kn, &v, &vn)) == 1)
        if (parse_line((unsigned)version, k, kn, v, vn, &d, seen))
            return GOV_EPARSE;
    if (rc)
        return GOV_EPARSE;
    for (size_t i = 0; i < N_U64; i++)
        if (u64_fields[i].required && !seen[i])
            return GOV_EPARSE;
    if (!seen[K_BOOT] || !seen[K_KIND] || !seen[K_GPUV] || !seen[K_PROFILE] ||
        !seen[K_IMPOSED] || !seen[K_SEAL] || !seen[K_THREADS] ||
        (version >= 3 && !seen[K_RUNTIMES]) ||
        (d.topo.numa_count && !d.topo.present) || (d.topo.gpu_count && !d.topo.present) ||
        (d.policy.site.mem_reserve_pct && d.policy.site.mem_reserve_bytes != GOV_UNKNOWN) ||
        (d.policy.site.cpu_reserve_pct && d.policy.site.cpu_reserve_threads != GOV_UNKNOWN))
        return GOV_EPARSE;
    *out = d;
    return 0;
}

/* ---- verification ---------------------------------------------------------- */

int gov_descriptor_verify(const char *cred, const char *socket,
                          uint32_t trusted_uid, const gov_desc_claim *claim,
                          gov_descriptor *out, gov_seal_info *info)
{
    char *payload = NULL;
    size_t len = 0;
    int rc;

    gov_descriptor_init(out);
    rc = gov_seal_decode(socket, cred, &payload, &len, info);
    if (rc)
        return rc;
    /* Only root (slurmstepd's privileged callbacks) or the configured
     * SlurmUser can have written the budget; a user's own `munge` does not
     * count, however well-formed its payload. */
    if (info->uid != 0 && (trusted_uid == GOV_UID_NONE || info->uid != trusted_uid))
        rc = GOV_EUNTRUSTED;
    else
        rc = gov_descriptor_parse(payload, len, out);
    free(payload);
    if (!rc)
        rc = gov_descriptor_check_binding(out, claim);
    if (rc)
        gov_descriptor_init(out);
    return rc;
}
