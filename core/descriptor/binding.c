/* binding.c - what ties a descriptor to one step's processes on one node.
 *
 * The SLURM_* identifiers in the environment are only the process's claim:
 * a user can set them to anything, including the ids of another of their
 * own steps.  What a user cannot choose is their real uid, the node's boot
 * id, and which processes they descend from.  The plugin therefore seals
 * the pid and start time of the step's slurmstepd (version 4; the task's
 * own in older versions), and a descriptor verifies only in its
 * descendants on the same boot of the same node.  A container's own
 * namespaces hide some of this: a PID namespace the ancestry (named as
 * unchecked, the claims still checked), a user namespace the real uid
 * (which munged, or the uid_map, still tells).  A namespace the process
 * cannot name (its own mount hides /proc/self/ns) counts as its own, so
 * that what it would hide counts as hidden, and is named unknown. */
#include "descriptor.h"
#include "base.h"
#include "evidence.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* statfs(2)'s f_type of the namespace files (linux/magic.h). */
#define GOV_NSFS_MAGIC 0x6e736673

uint64_t gov__boot_hash(const char *text, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
        len--;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

int gov__boot_hash_read(const gov_root *root, uint64_t *out)
{
    char buf[128];
    size_t len;
    int rc = gov__read_file(root, "/proc/sys/kernel/random/boot_id", buf, sizeof buf, &len);

    if (rc)
        return rc;
    if (len < 8)
        return GOV_EPARSE;
    *out = gov__boot_hash(buf, len);
    return 0;
}

int gov__proc_stat_parse(const char *text, size_t len, uint64_t *ppid,
                         uint64_t *start)
{
    const char *p = NULL, *end = text + len;
    int field = 2;   /* the command name, ending at the last ')' */

    for (size_t i = len; i > 0; i--)
        if (text[i - 1] == ')') {
            p = text + i;
            break;
        }
    if (!p)
        return GOV_EPARSE;
    while (p < end) {
        const char *tok;
        if (*p != ' ')
            return GOV_EPARSE;
        tok = ++p;
        while (p < end && *p != ' ' && *p != '\n')
            p++;
        field++;
        if (field == 4 && gov__parse_u64(tok, (size_t)(p - tok), ppid))
            return GOV_EPARSE;
        if (field == 22)
            return gov__parse_u64(tok, (size_t)(p - tok), start) ? GOV_EPARSE : 0;
        if (p < end && *p == '\n')
            break;
    }
    return GOV_EPARSE;
}

int gov__proc_start_read(const gov_root *root, uint64_t pid, uint64_t *ppid,
                         uint64_t *start)
{
    char path[64], buf[1024];
    size_t len;
    int rc;

    if (pid)
        snprintf(path, sizeof path, "/proc/%llu/stat", (unsigned long long)pid);
    else
        snprintf(path, sizeof path, "/proc/self/stat");
    rc = gov__read_file(root, path, buf, sizeof buf, &len);
    if (rc)
        return rc;
    return gov__proc_stat_parse(buf, len, ppid, start);
}

static uint64_t claim_value(const char *text)
{
    uint64_t v;

    if (!text || gov__parse_u64(text, strlen(text), &v))
        return GOV_UNKNOWN;
    return v;
}

bool gov__proc_descends_from(const gov_root *root, uint64_t pid, uint64_t anc_pid,
                             uint64_t anc_start)
{
    /* Brent's cycle detection: compare with a saved pid whose distance
     * behind doubles, so any loop is caught in constant memory. */
    uint64_t saved = pid, power = 1, lam = 0;

    while (pid > 0) {
        uint64_t ppid, start;
        if (gov__proc_start_read(root, pid, &ppid, &start))
            return false;
        if (pid == anc_pid && start == anc_start)
            return true;
        pid = ppid;
        if (pid == saved)
            return false;
        if (++lam == power) {
            saved = pid;
            power *= 2;
            lam = 0;
        }
    }
    return false;
}

/* SLURM_JOB_ID_HET_GROUP_0, _1, ... up to the first one missing; Slurm
 * 22.05 sets them under their older name _PACK_GROUP_ too, and srun's own
 * heterogeneous allocation sets only that one. */
static void het_collect(const char *const *envp, gov_desc_claim *out)
{
    static const char *const names[] = { "SLURM_JOB_ID_HET_GROUP_",
                                         "SLURM_JOB_ID_PACK_GROUP_" };

    for (size_t n = 0; n < sizeof names / sizeof names[0] && !out->het_count; n++)
        for (uint32_t k = 0; k < GOV_CLAIM_MAX_HET; k++) {
            char name[48];
            uint64_t id;
            snprintf(name, sizeof name, "%s%u", names[n], k);
            id = claim_value(gov__env_get(envp, name));
            if (id == GOV_UNKNOWN)
                break;
            out->het_jobs[out->het_count++] = id;
        }
}

/* The inode of /proc/self/ns/NAME into *ino: 0, GOV_ENOENT when there is
 * no such file, GOV_EINVAL when something other than the kernel's
 * namespace file is there (a file a mount put in its place).  Opened once,
 * so that the file checked is the file named. */
static int nsfs_inode(const char *name, uint64_t *ino)
{
    char path[48];
    struct statfs fs;
    struct stat st;
    int fd, rc = 0;

    snprintf(path, sizeof path, "/proc/self/ns/%s", name);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? GOV_ENOENT : GOV_EINVAL;
    if (fstatfs(fd, &fs) || fs.f_type != GOV_NSFS_MAGIC || fstat(fd, &st))
        rc = GOV_EINVAL;
    else
        *ino = (uint64_t)st.st_ino;
    close(fd);
    return rc;
}

/* Which namespace of a kind the process is in: its inode; the kernel's
 * initial one where the kernel has no such kind (cgroup namespaces came in
 * Linux 4.6) and so only that one; GOV_UNKNOWN where /proc/self/ns cannot
 * tell (hidden by a mount, no /proc). */
static uint64_t ns_inode(const char *name, uint64_t initial)
{
    uint64_t ino, mnt;
    int rc = nsfs_inode(name, &ino);

    if (rc == 0)
        return ino;
    /* The mount namespace file is as old as the others' directory. */
    if (rc == GOV_ENOENT && nsfs_inode("mnt", &mnt) == 0)
        return initial;
    return GOV_UNKNOWN;
}

void gov__proc_ns_read(uint64_t *pid_ns, uint64_t *user_ns, uint64_t *cgroup_ns)
{
    *pid_ns = ns_inode("pid", GOV_INIT_PID_NS);
    *user_ns = ns_inode("user", GOV_INIT_USER_NS);
    *cgroup_ns = ns_inode("cgroup", GOV_INIT_CGROUP_NS);
}

/* The claim's namespace differs from the reference: the sealed one, or the
 * kernel's initial one where none was sealed.  One the process cannot name
 * counts as its own. */
static bool ns_own(uint64_t claimed, uint64_t sealed, uint64_t initial)
{
    uint64_t ref = sealed != GOV_UNKNOWN ? sealed : initial;

    return claimed == GOV_UNKNOWN || claimed != ref;
}

uint32_t gov__unknown_namespaces(const gov_desc_claim *c)
{
    return (c->user_ns == GOV_UNKNOWN ? 1u << GOV_NAMESPACE_USER : 0) |
           (c->pid_ns == GOV_UNKNOWN ? 1u << GOV_NAMESPACE_PID : 0) |
           (c->cgroup_ns == GOV_UNKNOWN ? 1u << GOV_NAMESPACE_CGROUP : 0);
}

uint32_t gov__own_namespaces(const gov_descriptor *d, const gov_desc_claim *c)
{
    uint32_t bits = 0;

    if (ns_own(c->user_ns, d ? d->user_ns : GOV_UNKNOWN, GOV_INIT_USER_NS))
        bits |= 1u << GOV_NAMESPACE_USER;
    if (ns_own(c->pid_ns, d ? d->pid_ns : GOV_UNKNOWN, GOV_INIT_PID_NS))
        bits |= 1u << GOV_NAMESPACE_PID;
    if (ns_own(c->cgroup_ns, d ? d->cgroup_ns : GOV_UNKNOWN, GOV_INIT_CGROUP_NS))
        bits |= 1u << GOV_NAMESPACE_CGROUP;
    return bits;
}

uint64_t gov__uid_map_translate(const char *text, size_t len, uint64_t uid, bool outward)
{
    gov_lines it = gov__lines_of(text, len, false);
    const char *line;
    size_t n;

    while (gov__line_next(&it, &line, &n)) {
        uint64_t f[3], from, to;
        size_t k = 0, i = 0;
        /* Three numbers, each padded with spaces as the kernel prints them. */
        while (k < 3) {
            size_t start;
            while (i < n && line[i] == ' ')
                i++;
            start = i;
            while (i < n && line[i] != ' ')
                i++;
            if (start == i || gov__parse_u64(line + start, i - start, &f[k]))
                return GOV_UNKNOWN;
            k++;
        }
        while (i < n && line[i] == ' ')
            i++;
        if (i != n)
            return GOV_UNKNOWN;
        from = outward ? f[0] : f[1];
        to = outward ? f[1] : f[0];
        if (uid >= from && uid - from < f[2])
            return to + (uid - from);
    }
    return GOV_UNKNOWN;
}

static uint64_t host_uid_read(uint64_t uid)
{
    char buf[4096];
    size_t len;

    if (gov__read_file(NULL, "/proc/self/uid_map", buf, sizeof buf, &len))
        return GOV_UNKNOWN;
    return gov__uid_map_translate(buf, len, uid, true);
}

void gov__claim_collect(const char *const *envp, gov_desc_claim *out)
{
    memset(out, 0, sizeof *out);
    out->job_id = claim_value(gov__env_get(envp, "SLURM_JOB_ID"));
    if (gov__slurm_step_id_parse(gov__env_get(envp, "SLURM_STEP_ID"), &out->step_id))
        out->step_id = GOV_UNKNOWN;
    out->node_index = claim_value(gov__env_get(envp, "SLURM_NODEID"));
    out->uid = (uint64_t)getuid();
    out->host_uid = host_uid_read(out->uid);
    if (gov__boot_hash_read(NULL, &out->boot_hash))
        out->boot_hash = GOV_UNKNOWN;
    out->pid = (uint64_t)getpid();
    gov__proc_ns_read(&out->pid_ns, &out->user_ns, &out->cgroup_ns);
    het_collect(envp, out);
}

/* A claimed id must be present and equal; the batch script's environment
 * carries no step id or node id, so there their absence is the claim. */
static bool id_matches(uint64_t sealed, uint64_t claimed, bool batch,
                       uint64_t batch_value)
{
    if (claimed == GOV_UNKNOWN)
        return batch && sealed == batch_value;
    return sealed == claimed;
}

/* The sealed job is a later component of the claimed heterogeneous job,
 * whose leader the process claims as its job. */
static bool het_component(const gov_descriptor *d, const gov_desc_claim *c)
{
    if (c->het_count < 2 || c->job_id != c->het_jobs[0])
        return false;
    for (uint32_t k = 1; k < c->het_count; k++)
        if (c->het_jobs[k] == d->job_id)
            return true;
    return false;
}

int gov__descriptor_check_binding(const gov_descriptor *d, const gov_desc_claim *c,
                                  bool uid_vouched, gov_desc_check *chk)
{
    bool batch = d->step_kind == GOV_STEP_BATCH;

    chk->namespaces = gov__own_namespaces(d, c);
    chk->namespaces_unknown = gov__unknown_namespaces(c);
    chk->unchecked = 0;
    /* Another user's descriptor is theirs, wherever it was sealed.  In a
     * user namespace getuid() may be 0 for the user: munged's word, or
     * the map to the namespace above, names the real uid. */
    if (!uid_vouched) {
        if (c->host_uid == GOV_UNKNOWN)
            return GOV_ENAMESPACE;
        if (d->uid != c->host_uid)
            return GOV_EBINDING;
    }
    /* Carried to another node or kept across a reboot: name that, so the
     * user looks for a copied variable, not for another job.  A process
     * that cannot read its own boot id can tell neither. */
    if (d->boot_hash == GOV_UNKNOWN || d->boot_hash != c->boot_hash)
        return c->boot_hash == GOV_UNKNOWN ? GOV_EBINDING : GOV_ENODE;
    if (c->job_id == GOV_UNKNOWN ||
        !id_matches(d->step_id, c->step_id, batch, GOV_STEP_BATCH_ID))
        return GOV_EBINDING;
    if (het_component(d, c)) {
        /* Below the sealed index the claim is outside this component: a
         * job-component mismatch, not evidence of another node. */
        if (c->node_index == GOV_UNKNOWN || c->node_index < d->node_index)
            return GOV_EBINDING;
    } else if (d->job_id != c->job_id) {
        return GOV_EBINDING;
    } else if (!id_matches(d->node_index, c->node_index, batch, 0)) {
        /* Emulated nodes share one kernel and boot id: the index tells
         * them apart.  An absent claim names no other node. */
        return c->node_index == GOV_UNKNOWN ? GOV_EBINDING : GOV_ENODE;
    }
    /* In a PID namespace of its own the process's pid and its parents'
     * are not the node's: the sealed process is out of sight. */
    if (chk->namespaces & (1u << GOV_NAMESPACE_PID)) {
        chk->unchecked |= 1u << GOV_BINDING_ANCESTRY;
        return 0;
    }
    return gov__proc_descends_from(NULL, c->pid, d->pid, d->pid_start) ? 0 : GOV_EBINDING;
}
