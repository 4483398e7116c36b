/* topo_table.c - the node's topology table: its text form, its strict
 * parser, and the summary for a step's cores.
 *
 *   governor-topology/1
 *   cores=8
 *   package=0-3            one line per package, hwloc's logical order
 *   package=4-7
 *   pus=2:0-7              PUs per core, and the cores that have that many
 *   numa=68719476736:0-3   one line per NUMA node: bytes, the cores in it
 *   gpu=1:4-7              one line per GPU: NUMA OS index (-1), close cores
 *
 * Every list is a canonical Linux CPU list of core indexes (ascending,
 * ranges merged); numa and gpu lists may be empty; the lines come in the
 * order shown, so that each table has exactly one text.  The file is
 * root's, but it is still outside text: nothing in it is trusted before it
 * parses. */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOV_TOPO_HEADER "governor-topology/1\n"

/* Append "KEY=LIST\n", or "KEY=NUM:LIST\n" when with_num, at *used.
 * Returns false when buf is full. */
static bool line(char *buf, size_t cap, size_t *used, const char *key, bool with_num,
                 long long num, const gov_cpuset *set)
{
    int n = with_num ? snprintf(buf + *used, cap - *used, "%s=%lld:", key, num)
                     : snprintf(buf + *used, cap - *used, "%s=", key);

    if (n < 0 || (size_t)n >= cap - *used)
        return false;
    *used += (size_t)n;
    n = gov_cpuset_format(set, buf + *used, cap - *used);
    if (n < 0 || (size_t)n + 1 >= cap - *used)
        return false;
    *used += (size_t)n;
    buf[(*used)++] = '\n';
    buf[*used] = '\0';
    return true;
}

static void set_and(gov_cpuset *dst, const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        dst->bits[i] = a->bits[i] & b->bits[i];
}

static bool set_intersects(const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        if (a->bits[i] & b->bits[i])
            return true;
    return false;
}

/* The cores 0 .. n-1. */
static void set_first(gov_cpuset *s, uint32_t n)
{
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < n; i++)
        s->bits[i / 64] |= UINT64_C(1) << (i % 64);
}

/* Whether the sets are disjoint, inside the cores, and (when exact) cover
 * them all. */
static bool partition(const gov_cpuset *sets, size_t stride, uint32_t n, uint32_t cores,
                      bool exact)
{
    gov_cpuset all, seen;

    set_first(&all, cores);
    memset(&seen, 0, sizeof seen);
    for (uint32_t k = 0; k < n; k++) {
        const gov_cpuset *s = (const gov_cpuset *)((const char *)sets + k * stride);
        for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++) {
            if ((s->bits[i] & ~all.bits[i]) || (exact && (s->bits[i] & seen.bits[i])))
                return false;
            seen.bits[i] |= s->bits[i];
        }
    }
    return !exact || !memcmp(&seen, &all, sizeof all);
}

static bool valid(const gov_topo_table *t)
{
    if (t->cores == 0 || t->cores > GOV_CPUSET_BITS || t->n_packages == 0 ||
        t->n_packages > GOV_TOPO_MAX_PACKAGES || t->n_pu_groups == 0 ||
        t->n_pu_groups > GOV_TOPO_MAX_PU_GROUPS || t->n_numa > GOV_TOPO_MAX_NUMA ||
        t->n_gpus > GOV_DESC_MAX_GPUS)
        return false;
    for (uint32_t k = 0; k < t->n_pu_groups; k++)
        if (t->pu_group[k].pus == 0)
            return false;
    for (uint32_t k = 0; k < t->n_gpus; k++)
        if (t->gpu[k].numa_os < -1)
            return false;
    return partition(t->package, sizeof t->package[0], t->n_packages, t->cores, true) &&
           partition(&t->pu_group[0].cores, sizeof t->pu_group[0], t->n_pu_groups, t->cores,
                     true) &&
           partition(&t->numa[0].cores, sizeof t->numa[0], t->n_numa, t->cores, false) &&
           partition(&t->gpu[0].cores, sizeof t->gpu[0], t->n_gpus, t->cores, false);
}

int gov_topo_encode(const gov_topo_table *t, char *buf, size_t cap)
{
    size_t used;
    bool ok;
    int n;

    if (!t || !buf || cap == 0 || !valid(t))
        return GOV_EINVAL;
    n = snprintf(buf, cap, "%scores=%u\n", GOV_TOPO_HEADER, t->cores);
    ok = n > 0 && (size_t)n < cap;
    used = ok ? (size_t)n : 0;
    for (uint32_t k = 0; ok && k < t->n_packages; k++)
        ok = line(buf, cap, &used, "package", false, 0, &t->package[k]);
    for (uint32_t k = 0; ok && k < t->n_pu_groups; k++)
        ok = line(buf, cap, &used, "pus", true, t->pu_group[k].pus, &t->pu_group[k].cores);
    for (uint32_t k = 0; ok && k < t->n_numa; k++)
        ok = line(buf, cap, &used, "numa", true, (long long)t->numa[k].mem_bytes,
                  &t->numa[k].cores);
    for (uint32_t k = 0; ok && k < t->n_gpus; k++)
        ok = line(buf, cap, &used, "gpu", true, t->gpu[k].numa_os, &t->gpu[k].cores);
    if (!ok) {
        buf[0] = '\0';
        return GOV_ENOSPC;
    }
    return (int)used;
}

/* Digits only, no leading zero but "0", at most max. */
static int number(const char *v, size_t n, uint64_t max, uint64_t *out)
{
    return gov_parse_dec(v, n, GOV_NUM_CANONICAL, max, out) ? GOV_EPARSE : 0;
}

/* A list of core indexes in the canonical form the encoder writes (so a
 * table has one text); the empty list only where allowed. */
static int list(const char *v, size_t n, bool may_be_empty, gov_cpuset *out)
{
    char *again;
    int rc;

    memset(out, 0, sizeof *out);
    if (n == 0)
        return may_be_empty ? 0 : GOV_EPARSE;
    if (gov_cpuset_parse(v, n, out) || !gov_cpuset_count(out))
        return GOV_EPARSE;
    again = malloc(n + 1);
    if (!again)
        return GOV_ENOMEM;
    rc = gov_cpuset_format(out, again, n + 1) == (int)n && !memcmp(again, v, n) ? 0 : GOV_EPARSE;
    free(again);
    return rc;
}

/* "NUMBER:LIST": the number bounded, the list possibly empty. */
static int pair(const char *v, size_t n, bool may_be_negative, uint64_t max, int64_t *num,
                gov_cpuset *set, bool may_be_empty)
{
    const char *colon = memchr(v, ':', n);
    size_t m;
    uint64_t x;

    if (!colon)
        return GOV_EPARSE;
    m = (size_t)(colon - v);
    if (may_be_negative && m == 2 && v[0] == '-' && v[1] == '1')
        *num = -1;
    else if (number(v, m, max, &x))
        return GOV_EPARSE;
    else
        *num = (int64_t)x;
    return list(colon + 1, n - m - 1, may_be_empty, set);
}

/* The sections in the order the encoder writes them: a text in any other
 * order would parse into a table that encodes differently. */
static const char *const sections[] = { "cores", "package", "pus", "numa", "gpu" };

static int parse_line(const char *k, size_t kn, const char *v, size_t vn, gov_topo_table *t,
                      int *section)
{
    uint64_t x;
    int64_t num;
    int at = -1;

    for (int i = 0; i < (int)(sizeof sections / sizeof sections[0]) && at < 0; i++)
        if (gov_token_eq(k, kn, sections[i]))
            at = i;
    /* cores comes first and once; the others in order, each repeatable. */
    if (at < 0 || at < *section || (at == 0 && *section == 0) || (at > 0 && *section < 0))
        return GOV_EPARSE;
    *section = at;
    if (at == 0) {
        if (number(v, vn, GOV_CPUSET_BITS, &x) || x == 0)
            return GOV_EPARSE;
        t->cores = (uint32_t)x;
        return 0;
    }
    if (gov_token_eq(k, kn, "package")) {
        if (t->n_packages == GOV_TOPO_MAX_PACKAGES)
            return GOV_EPARSE;
        return list(v, vn, false, &t->package[t->n_packages++]);
    }
    if (gov_token_eq(k, kn, "pus")) {
        if (t->n_pu_groups == GOV_TOPO_MAX_PU_GROUPS ||
            pair(v, vn, false, 4096, &num, &t->pu_group[t->n_pu_groups].cores, false) || !num)
            return GOV_EPARSE;
        t->pu_group[t->n_pu_groups++].pus = (uint32_t)num;
        return 0;
    }
    if (gov_token_eq(k, kn, "numa")) {
        if (t->n_numa == GOV_TOPO_MAX_NUMA ||
            pair(v, vn, false, INT64_MAX, &num, &t->numa[t->n_numa].cores, true))
            return GOV_EPARSE;
        t->numa[t->n_numa++].mem_bytes = (uint64_t)num;
        return 0;
    }
    if (gov_token_eq(k, kn, "gpu")) {
        if (t->n_gpus == GOV_DESC_MAX_GPUS ||
            pair(v, vn, true, INT32_MAX, &num, &t->gpu[t->n_gpus].cores, true))
            return GOV_EPARSE;
        t->gpu[t->n_gpus++].numa_os = (int32_t)num;
        return 0;
    }
    return GOV_EPARSE;
}

int gov_topo_parse(const char *text, size_t len, gov_topo_table *out)
{
    size_t hl = strlen(GOV_TOPO_HEADER), kn, vn;
    const char *k, *v;
    int section = -1;
    gov_lines it;
    int rc;

    if (!out || (!text && len))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    if (len > GOV_TOPO_MAX_BYTES || len < hl || memcmp(text, GOV_TOPO_HEADER, hl))
        return GOV_EPARSE;
    it = gov_lines_of(text + hl, len - hl, true);
    while ((rc = gov_record_next(&it, &k, &kn, &v, &vn)) == 1)
        if (parse_line(k, kn, v, vn, out, &section))
            goto bad;
    if (rc == 0 && valid(out))
        return 0;
bad:
    memset(out, 0, sizeof *out);
    return GOV_EPARSE;
}

void gov_topo_summarise(const gov_topo_table *t, const gov_cpuset *cores,
                        gov_desc_topology *out)
{
    gov_cpuset step, part, all;

    memset(out, 0, sizeof *out);
    out->packages = out->cores = out->pus = out->numa_nodes = GOV_UNKNOWN;
    set_first(&all, t->cores);
    set_and(&step, cores, &all);
    out->cores = gov_cpuset_count(&step);
    if (out->cores == 0) {
        out->cores = GOV_UNKNOWN;
        return;
    }
    out->packages = out->pus = out->numa_nodes = 0;
    for (uint32_t k = 0; k < t->n_packages; k++)
        out->packages += set_intersects(&t->package[k], &step);
    for (uint32_t k = 0; k < t->n_pu_groups; k++) {
        set_and(&part, &t->pu_group[k].cores, &step);
        out->pus += t->pu_group[k].pus * gov_cpuset_count(&part);
    }
    for (uint32_t k = 0; k < t->n_numa; k++) {
        if (!set_intersects(&t->numa[k].cores, &step))
            continue;
        out->numa_nodes++;
        if (out->numa_count < GOV_DESC_MAX_NUMA)
            out->numa_mem_bytes[out->numa_count++] = t->numa[k].mem_bytes;
    }
    out->gpu_count = t->n_gpus;
    for (uint32_t k = 0; k < t->n_gpus; k++) {
        out->gpu_numa[k] = t->gpu[k].numa_os;
        out->gpu_local[k] = set_intersects(&t->gpu[k].cores, &step);
    }
    out->present = true;
}
