/* pressure.c - PSI (cpu "some", memory "some" and "full" avg10) from the
 * process's v2 cgroup or /proc/pressure, and swap activity from
 * /proc/vmstat.  Missing evidence is NaN / GOV_UNKNOWN, never zero: a
 * kernel without PSI says nothing about pressure. */
#include "collect/collect.h"
#include "evidence.h"

#include <string.h>

/* Read one PSI file at DIR/NAME under root; false when nothing usable. */
static bool read_psi(const gov_root *root, const char *dir, const char *name,
                     double *some, double *full)
{
    char buf[512];
    size_t len;
    gov_psi p;

    *some = *full = NAN;
    /* A kernel with PSI compiled in but disabled fails the read with
     * EOPNOTSUPP; that is as unknown as a missing file. */
    if (gov__read_file_in(root, dir, name, buf, sizeof buf, &len) ||
        gov__psi_parse(buf, len, 0, &p))
        return false;
    *some = p.some_avg10;
    *full = p.full_avg10;
    return true;
}

static bool read_source(const gov_root *root, const char *dir, const char *cpu,
                        const char *mem, gov_snapshot_pressure *out)
{
    double cpu_some, cpu_full, mem_some, mem_full;
    bool have_cpu = read_psi(root, dir, cpu, &cpu_some, &cpu_full);
    bool have_mem = read_psi(root, dir, mem, &mem_some, &mem_full);

    if (!have_cpu && !have_mem)
        return false;
    /* cpu "full" exists since 5.13 (zeros at system level); unused here. */
    out->cpu_some_avg10 = cpu_some;
    out->memory_some_avg10 = mem_some;
    out->memory_full_avg10 = mem_full;
    return true;
}

static void swap_activity(const gov_root *root, gov_snapshot_pressure *out)
{
    char buf[16384];
    size_t len, n;
    gov_lines it;
    const char *p;

    if (gov__read_file(root, "/proc/vmstat", buf, sizeof buf, &len))
        return;
    it = gov__lines_of(buf, len, false);
    while (gov__line_next(&it, &p, &n)) {
        const char *num;
        size_t nn;
        uint64_t v;

        if (gov__prefix(p, n, "pswpin ", &num, &nn) && gov__parse_u64(num, nn, &v) == 0)
            out->swap_in_pages = v;
        else if (gov__prefix(p, n, "pswpout ", &num, &nn) && gov__parse_u64(num, nn, &v) == 0)
            out->swap_out_pages = v;
    }
}


void gov__pressure_collect(const gov_root *root, const gov_cgroup_evidence *cg,
                           gov_snapshot_pressure *out)
{
    GOV_SET_UNKNOWN(out, pressure);

    /* The process's own cgroup is the better witness; the figures never
     * mix sources, so the system files are read only when it gave none.
     * The v2 root cgroup's figures are the system's, and say so. */
    if (cg && cg->has_pressure_dir &&
        read_source(root, cg->pressure_dir, "cpu.pressure", "memory.pressure", out))
        out->source = cg->pressure_dir_is_root ? GOV_PRESSURE_SOURCE_SYSTEM
                                                        : GOV_PRESSURE_SOURCE_CGROUP;
    else if (read_source(root, "/proc/pressure", "cpu", "memory", out))
        out->source = GOV_PRESSURE_SOURCE_SYSTEM;
    swap_activity(root, out);
}
