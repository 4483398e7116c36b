/* topo_table.c - the node's topology table: its text form, its strict
 * parser, the summary for a step's cores, and what a task's affinity mask
 * covers.
 *
 *   governor-topology/1
 *   cores=8
 *   package=0-3                  one line per package, hwloc's logical order
 *   package=4-7
 *   pus=2:0-7                    PUs per core, and the cores that have that many
 *   core=0,8                     one line per core, in order: its PUs
 *   ...
 *   core=7,15
 *   numa=0:68719476736:0-3,8-11  one line per CPU NUMA node: OS index, bytes,
 *                                the PUs it is nearest to (numa_nearest.h)
 *   gpu=1:4-7                    one line per GPU: NUMA OS index (-1), close cores
 *
 * Package, pus and gpu lines list core indexes; core and numa lines list
 * PUs by OS index, the CPU numbers of an affinity mask, so that a task's
 * mask is counted on the table as the library counts it on hwloc's
 * objects.  Every list is a canonical Linux CPU list (ascending, ranges
 * merged); only gpu lists may be empty; the lines come in the order shown,
 * so that each table has exactly one text.  The file is root's, but it is
 * still outside text: nothing in it is trusted before it parses. */
#include "topo.h"
#include "base.h"

#include <stdlib.h>
#include <string.h>

#define GOV_TOPO_HEADER "governor-topology/1\n"

/* pu_core holds core indexes. */
_Static_assert(GOV_CPUSET_BITS <= UINT16_MAX + 1, "a core index fits in pu_core");

/* Append the list and its newline. */
static void line(gov_text_buf *o, const gov_cpuset *set)
{
    gov__cpuset_put(o, set);
    gov__text_append(o, "\n", 1);
}

/* The cores 0 .. n-1. */
static void set_first(gov_cpuset *s, uint32_t n)
{
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < n; i++)
        gov__cpu_add(s, i);
}

/* Whether the sets are disjoint, inside all, and (when exact) cover it. */
static bool partition(const gov_cpuset *sets, size_t stride, uint32_t n, const gov_cpuset *all,
                      bool exact)
{
    gov_cpuset seen;

    memset(&seen, 0, sizeof seen);
    for (uint32_t k = 0; k < n; k++) {
        const gov_cpuset *s = (const gov_cpuset *)((const char *)sets + k * stride);
        if (!gov__cpuset_within(s, all) || (exact && gov__cpuset_intersects(s, &seen)))
            return false;
        gov__cpuset_or(&seen, s);
    }
    return !exact || !memcmp(&seen, all, sizeof seen);
}

/* Every PU on a core of the node (and pu_core 0 elsewhere, so that a text
 * has one table), each core with as many PUs as its group says. */
static bool cores_hold_their_pus(const gov_topo_table *t)
{
    uint16_t count[GOV_CPUSET_BITS] = { 0 };

    for (unsigned p = 0; p < GOV_CPUSET_BITS; p++) {
        if (!gov__cpu_in(&t->pus, p)) {
            if (t->pu_core[p])
                return false;
            continue;
        }
        if (t->pu_core[p] >= t->cores)
            return false;
        count[t->pu_core[p]]++;
    }
    for (uint32_t k = 0; k < t->n_pu_groups; k++)
        GOV_CPU_FOREACH(c, &t->pu_group[k].cores)
            if (count[c] != t->pu_group[k].pus)
                return false;
    return true;
}

static bool valid(const gov_topo_table *t)
{
    gov_cpuset all;

    if (t->cores == 0 || t->cores > GOV_CPUSET_BITS || t->n_packages == 0 ||
        t->n_packages > GOV_TOPO_MAX_PACKAGES || t->n_pu_groups == 0 ||
        t->n_pu_groups > GOV_TOPO_MAX_PU_GROUPS || t->n_numa > GOV_TOPO_MAX_NUMA ||
        t->n_gpus > GOV_DESC_MAX_GPUS)
        return false;
    for (uint32_t k = 0; k < t->n_pu_groups; k++)
        if (t->pu_group[k].pus == 0 || t->pu_group[k].pus > GOV_CPUSET_BITS)
            return false;
    for (uint32_t k = 0; k < t->n_numa; k++) {
        if (t->numa[k].os_index > INT32_MAX || t->numa[k].mem_bytes > INT64_MAX)
            return false;
        for (uint32_t j = 0; j < k; j++)
            if (t->numa[j].os_index == t->numa[k].os_index)
                return false;
    }
    for (uint32_t k = 0; k < t->n_gpus; k++)
        if (t->gpu[k].numa_os < -1)
            return false;
    set_first(&all, t->cores);
    return partition(t->package, sizeof t->package[0], t->n_packages, &all, true) &&
           partition(&t->pu_group[0].cores, sizeof t->pu_group[0], t->n_pu_groups, &all,
                     true) &&
           partition(&t->gpu[0].cores, sizeof t->gpu[0], t->n_gpus, &all, false) &&
           partition(&t->numa[0].pus, sizeof t->numa[0], t->n_numa, &t->pus, true) &&
           cores_hold_their_pus(t);
}

/* The "core=" lines: each core's PUs, sorted by core into order[] (a
 * counting sort: ends[c] first counts core c's PUs, then where they end). */
static int core_lines(const gov_topo_table *t, gov_text_buf *o)
{
    size_t npus = gov_cpuset_count(&t->pus);
    uint32_t *ends = calloc(t->cores + npus, sizeof *ends), *order;
    gov_cpuset *one = calloc(1, sizeof *one);

    if (!ends || !one) {
        free(ends);
        free(one);
        return GOV_ENOMEM;
    }
    order = ends + t->cores;
    GOV_CPU_FOREACH(p, &t->pus)
        ends[t->pu_core[p]]++;
    for (uint32_t c = 1; c < t->cores; c++)
        ends[c] += ends[c - 1];
    /* Backwards, so that each core's PUs land in ascending order and ends[]
     * is left holding each core's start. */
    for (unsigned p = GOV_CPUSET_BITS; p-- > 0;)
        if (gov__cpu_in(&t->pus, p))
            order[--ends[t->pu_core[p]]] = p;
    for (uint32_t c = 0; c < t->cores && !o->err; c++) {
        uint32_t end = c + 1 < t->cores ? ends[c + 1] : (uint32_t)npus;
        for (uint32_t i = ends[c]; i < end; i++)
            gov__cpu_add(one, order[i]);
        gov__text_put(o, "core=");
        line(o, one);
        for (uint32_t i = ends[c]; i < end; i++)
            gov__cpu_del(one, order[i]);
    }
    free(one);
    free(ends);
    return 0;
}

int gov__topo_encode(const gov_topo_table *t, char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);
    int rc;

    if (!t || !buf || cap == 0 || !valid(t))
        return GOV_EINVAL;
    gov__text_put(&o, "%scores=%u\n", GOV_TOPO_HEADER, t->cores);
    for (uint32_t k = 0; k < t->n_packages; k++) {
        gov__text_put(&o, "package=");
        line(&o, &t->package[k]);
    }
    for (uint32_t k = 0; k < t->n_pu_groups; k++) {
        gov__text_put(&o, "pus=%u:", t->pu_group[k].pus);
        line(&o, &t->pu_group[k].cores);
    }
    rc = core_lines(t, &o);
    for (uint32_t k = 0; k < t->n_numa; k++) {
        gov__text_put(&o, "numa=%u:%llu:", t->numa[k].os_index,
                      (unsigned long long)t->numa[k].mem_bytes);
        line(&o, &t->numa[k].pus);
    }
    for (uint32_t k = 0; k < t->n_gpus; k++) {
        gov__text_put(&o, "gpu=%d:", (int)t->gpu[k].numa_os);
        line(&o, &t->gpu[k].cores);
    }
    if (rc || o.err) {
        buf[0] = '\0';
        return rc ? rc : o.err;
    }
    return (int)o.used;
}

/* Digits only, no leading zero but "0", at most max. */
static int number(const char *v, size_t n, uint64_t max, uint64_t *out)
{
    return gov__parse_dec(v, n, GOV_NUM_CANONICAL, max, out) ? GOV_EPARSE : 0;
}

/* A list in the canonical form the encoder writes (so a table has one
 * text); the empty list only where allowed. */
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

/* "NUMBER:" at the start of *v: the number bounded ("-1" too where
 * allowed); *v and *n move past the colon. */
static int field(const char **v, size_t *n, bool may_be_negative, uint64_t max, int64_t *num)
{
    const char *colon = memchr(*v, ':', *n);
    size_t m;
    uint64_t x;

    if (!colon)
        return GOV_EPARSE;
    m = (size_t)(colon - *v);
    if (may_be_negative && m == 2 && (*v)[0] == '-' && (*v)[1] == '1')
        *num = -1;
    else if (number(*v, m, max, &x))
        return GOV_EPARSE;
    else
        *num = (int64_t)x;
    *v += m + 1;
    *n -= m + 1;
    return 0;
}

/* Core number c's PUs: none of them already on another core. */
static int core_line(const char *v, size_t n, uint32_t c, gov_topo_table *t)
{
    gov_cpuset pus;

    if (c >= t->cores || list(v, n, false, &pus))
        return GOV_EPARSE;
    if (gov__cpuset_intersects(&pus, &t->pus))
        return GOV_EPARSE;
    GOV_CPU_FOREACH(p, &pus) {
        gov__cpu_add(&t->pus, p);
        t->pu_core[p] = (uint16_t)c;
    }
    return 0;
}

/* The sections in the order the encoder writes them: a text in any other
 * order would parse into a table that encodes differently. */
static const char *const sections[] = { "cores", "package", "pus", "core", "numa", "gpu" };

/* What parsing has seen so far. */
struct parse_state {
    int section;           /* the last line's, -1 before the first */
    uint32_t core_lines;
};

static int parse_line(const char *k, size_t kn, const char *v, size_t vn, gov_topo_table *t,
                      struct parse_state *st)
{
    uint64_t x;
    int64_t num, os;
    int at = -1;

    for (int i = 0; i < (int)(sizeof sections / sizeof sections[0]) && at < 0; i++)
        if (gov__token_eq(k, kn, sections[i]))
            at = i;
    /* cores comes first and once; the others in order, each repeatable. */
    if (at < 0 || at < st->section || (at == 0 && st->section == 0) ||
        (at > 0 && st->section < 0))
        return GOV_EPARSE;
    st->section = at;
    switch (at) {
    case 0:
        if (number(v, vn, GOV_CPUSET_BITS, &x) || x == 0)
            return GOV_EPARSE;
        t->cores = (uint32_t)x;
        return 0;
    case 1:
        if (t->n_packages == GOV_TOPO_MAX_PACKAGES)
            return GOV_EPARSE;
        return list(v, vn, false, &t->package[t->n_packages++]);
    case 2:
        if (t->n_pu_groups == GOV_TOPO_MAX_PU_GROUPS ||
            field(&v, &vn, false, GOV_CPUSET_BITS, &num) || !num ||
            list(v, vn, false, &t->pu_group[t->n_pu_groups].cores))
            return GOV_EPARSE;
        t->pu_group[t->n_pu_groups++].pus = (uint32_t)num;
        return 0;
    case 3:
        return core_line(v, vn, st->core_lines++, t);
    case 4:
        if (t->n_numa == GOV_TOPO_MAX_NUMA || field(&v, &vn, false, INT32_MAX, &os) ||
            field(&v, &vn, false, INT64_MAX, &num) ||
            list(v, vn, false, &t->numa[t->n_numa].pus))
            return GOV_EPARSE;
        t->numa[t->n_numa].os_index = (uint32_t)os;
        t->numa[t->n_numa++].mem_bytes = (uint64_t)num;
        return 0;
    default:
        if (t->n_gpus == GOV_DESC_MAX_GPUS || field(&v, &vn, true, INT32_MAX, &num) ||
            list(v, vn, true, &t->gpu[t->n_gpus].cores))
            return GOV_EPARSE;
        t->gpu[t->n_gpus++].numa_os = (int32_t)num;
        return 0;
    }
}

int gov__topo_parse(const char *text, size_t len, gov_topo_table *out)
{
    size_t hl = strlen(GOV_TOPO_HEADER), kn, vn;
    struct parse_state st = { .section = -1 };
    const char *k, *v;
    gov_lines it;
    int rc;

    if (!out || (!text && len))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    if (len > GOV_TOPO_MAX_BYTES || len < hl || memcmp(text, GOV_TOPO_HEADER, hl))
        return GOV_EPARSE;
    it = gov__lines_of(text + hl, len - hl, true);
    while ((rc = gov__record_next(&it, &k, &kn, &v, &vn)) == 1)
        if (parse_line(k, kn, v, vn, out, &st))
            goto bad;
    /* A core without its line has no PUs, which valid() refuses. */
    if (rc == 0 && valid(out))
        return 0;
bad:
    memset(out, 0, sizeof *out);
    return GOV_EPARSE;
}

void gov__topo_summarise(const gov_topo_table *t, const gov_cpuset *cores,
                         gov_desc_topology *out)
{
    gov_cpuset step, part, all;

    memset(out, 0, sizeof *out);
    out->packages = out->cores = out->pus = out->numa_nodes = GOV_UNKNOWN;
    set_first(&all, t->cores);
    gov__cpuset_and(&step, cores, &all);
    out->cores = gov_cpuset_count(&step);
    if (out->cores == 0) {
        out->cores = GOV_UNKNOWN;
        return;
    }
    out->packages = out->pus = out->numa_nodes = 0;
    for (uint32_t k = 0; k < t->n_packages; k++)
        out->packages += gov__cpuset_intersects(&t->package[k], &step);
    for (uint32_t k = 0; k < t->n_pu_groups; k++) {
        gov__cpuset_and(&part, &t->pu_group[k].cores, &step);
        out->pus += t->pu_group[k].pus * gov_cpuset_count(&part);
    }
    /* The step's PUs: a NUMA node counts when one of them is nearest it. */
    memset(&part, 0, sizeof part);
    GOV_CPU_FOREACH(p, &t->pus)
        if (gov__cpu_in(&step, t->pu_core[p]))
            gov__cpu_add(&part, p);
    for (uint32_t k = 0; k < t->n_numa; k++) {
        if (!gov__cpuset_intersects(&t->numa[k].pus, &part))
            continue;
        out->numa_nodes++;
        if (out->numa_count < GOV_DESC_MAX_NUMA)
            out->numa_mem_bytes[out->numa_count++] = t->numa[k].mem_bytes;
    }
    out->gpu_count = t->n_gpus;
    for (uint32_t k = 0; k < t->n_gpus; k++) {
        out->gpu_numa[k] = t->gpu[k].numa_os;
        out->gpu_local[k] = gov__cpuset_intersects(&t->gpu[k].cores, &step);
    }
    out->present = true;
}

/* The distinct cores of a set of PUs. */
static uint64_t cores_of(const gov_topo_table *t, const gov_cpuset *pus, gov_cpuset *cores)
{
    memset(cores, 0, sizeof *cores);
    GOV_CPU_FOREACH(p, pus)
        gov__cpu_add(cores, t->pu_core[p]);
    return gov_cpuset_count(cores);
}

void gov__topo_task(const gov_topo_table *t, const gov_cpuset *mask, uint64_t mask_count,
                    gov_snapshot_topology *out)
{
    gov_cpuset pus, cores, split, scratch;
    uint32_t node[GOV_TOPO_MAX_NUMA], n = 0;

    if (!t || !mask || mask_count == GOV_UNKNOWN || mask_count == 0)
        return;
    gov__cpuset_and(&pus, mask, &t->pus);
    if (!gov_cpuset_count(&pus))
        return;
    /* A core is whole when none of its PUs is outside the mask. */
    memset(&split, 0, sizeof split);
    GOV_CPU_FOREACH(p, &t->pus)
        if (!gov__cpu_in(mask, p))
            gov__cpu_add(&split, t->pu_core[p]);
    out->source = GOV_TOPOLOGY_SOURCE_LIVE;
    out->task.pus = gov_cpuset_count(&pus);
    out->task.cores = cores_of(t, &pus, &cores);
    out->task_whole_cores = gov__cpuset_count_outside(&cores, &split);
    out->task.packages = 0;
    for (uint32_t k = 0; k < t->n_packages; k++)
        out->task.packages += gov__cpuset_intersects(&t->package[k], &cores);
    /* The NUMA nodes the mask touches, in OS order, as the library lists
     * them (the table keeps hwloc's order of first PUs). */
    for (uint32_t k = 0; k < t->n_numa; k++) {
        uint32_t at;
        if (!gov__cpuset_intersects(&t->numa[k].pus, &pus))
            continue;
        for (at = n++; at > 0 && t->numa[node[at - 1]].os_index > t->numa[k].os_index; at--)
            node[at] = node[at - 1];
        node[at] = k;
    }
    out->task.numa_nodes = n;
    out->numa_count = n < GOV_TOPOLOGY_NUMA_MAX ? n : GOV_TOPOLOGY_NUMA_MAX;
    for (uint32_t i = 0; i < out->numa_count; i++) {
        gov_topology_numa *e = &out->numa[i];
        e->os_index = t->numa[node[i]].os_index;
        gov__cpuset_and(&e->cpus, mask, &t->numa[node[i]].pus);
        e->pus = (uint32_t)gov_cpuset_count(&e->cpus);
        e->cores = cores_of(t, &e->cpus, &scratch);
        e->local_memory_bytes = t->numa[node[i]].mem_bytes ? t->numa[node[i]].mem_bytes
                                                          : GOV_UNKNOWN;
    }
}
