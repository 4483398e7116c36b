/* affinity.c - the CPUs this process may run on, and narrowing them. */
#define _GNU_SOURCE
#include "evidence.h"
#include "base.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

int gov__status_parse_cpus_allowed(const char *text, size_t len, gov_cpuset *out)
{
    static const char key[] = "Cpus_allowed_list:";
    gov_lines it = gov__lines_of(text, len, false);
    const char *p;
    size_t n;

    if (!out || (!text && len))
        return GOV_EINVAL;
    memset(out, 0, sizeof *out);
    while (gov__line_next(&it, &p, &n)) {
        const char *v;
        size_t vn;
        if (gov__prefix(p, n, key, &v, &vn))
            return gov_cpuset_parse(v, vn, out);
    }
    return GOV_ENOENT;
}

/* A kernel CPU mask as large as a gov_cpuset, empty; NULL without memory. */
static cpu_set_t *mask_alloc(size_t *size)
{
    cpu_set_t *mask = CPU_ALLOC(GOV_CPUSET_BITS);

    *size = CPU_ALLOC_SIZE(GOV_CPUSET_BITS);
    if (mask)
        CPU_ZERO_S(*size, mask);
    return mask;
}

static int live_affinity(gov_cpuset *set)
{
    size_t size;
    cpu_set_t *mask = mask_alloc(&size);
    int rc = 0;

    if (!mask)
        return GOV_ENOMEM;
    if (sched_getaffinity(0, size, mask) != 0) {
        rc = -errno;
    } else {
        /* Up to the mask's last CPU, not all 8192 bits: every task of a
         * wide step reads its mask. */
        int left = CPU_COUNT_S(size, mask);
        for (unsigned cpu = 0; left > 0 && cpu < GOV_CPUSET_BITS; cpu++)
            if (CPU_ISSET_S(cpu, size, mask)) {
                gov__cpu_add(set, cpu);
                left--;
            }
    }
    CPU_FREE(mask);
    return rc;
}

int gov__affinity_collect(const gov_root *root, gov_cpuset *set, uint64_t *count)
{
    char buf[16384];
    size_t len;
    int rc;

    memset(set, 0, sizeof *set);
    *count = GOV_UNKNOWN;
    if (gov__root_is_live(root)) {
        rc = live_affinity(set);
    } else {
        /* The system call cannot be redirected into a sysroot. */
        rc = gov__read_file(root, "/proc/self/status", buf, sizeof buf, &len);
        if (rc == 0)
            rc = gov__status_parse_cpus_allowed(buf, len, set);
    }
    if (rc) {
        memset(set, 0, sizeof *set);
        return rc;
    }
    /* An empty mask cannot describe a running process: treat as unknown. */
    if (gov_cpuset_count(set) == 0)
        return GOV_EPARSE;
    *count = gov_cpuset_count(set);
    return 0;
}

int gov__affinity_set(const gov_cpuset *set)
{
    size_t size;
    cpu_set_t *mask = mask_alloc(&size);
    int rc = 0;

    if (!mask)
        return GOV_ENOMEM;
    GOV_CPU_FOREACH(cpu, set)
        CPU_SET_S(cpu, size, mask);
    if (sched_setaffinity(0, size, mask) != 0)
        rc = -errno;
    CPU_FREE(mask);
    return rc;
}
