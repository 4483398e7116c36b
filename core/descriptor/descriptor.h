/*
 * descriptor.h - the sealed descriptor shared by governor.so (which writes
 * it) and libgovernor (which verifies it).  Format: docs/descriptor.md.
 */
#ifndef GOV_DESCRIPTOR_H
#define GOV_DESCRIPTOR_H

#include "governor.h"
#include "evidence.h"
#include "base.h"

#include <stdbool.h>
#include <sys/types.h>

#define GOV_DESC_VERSION 5
/* Payload cap: MUNGE's base64 armour grows it by a third plus a header, and
 * the sealed variable must stay under 4 KiB. */
#define GOV_DESC_MAX_BYTES 2048
#define GOV_DESC_MAX_NUMA 16
#define GOV_DESC_MAX_GPUS 16

/* The site policy as sealed: what a user may tighten, never loosen. */
typedef struct gov_desc_policy {
    /* The snapshot's .policy as sealed: the profile is the stricter of the
     * site's and the user's; `present` is set when a verified descriptor
     * is applied (gov__descriptor_apply). */
    gov_site_policy site;
    bool seal_required;
    uint32_t ttl_s;                /* 0: MUNGE's default */
    bool threads;                  /* the user asked for thread variables */
    bool runtimes;                 /* every runtime's variables (version 3) */
} gov_desc_policy;

/* hwloc summary of the node restricted to the step's cores. */
typedef struct gov_desc_topology {
    bool present;
    uint64_t packages, cores, pus, numa_nodes;
    uint32_t numa_count;           /* entries in numa_mem_bytes */
    uint64_t numa_mem_bytes[GOV_DESC_MAX_NUMA];
    uint32_t gpu_count;            /* GPU OS devices on the node */
    int32_t gpu_numa[GOV_DESC_MAX_GPUS];  /* NUMA node os index, -1 unknown */
    bool gpu_local[GOV_DESC_MAX_GPUS];    /* close to the step's cores */
} gov_desc_topology;

typedef struct gov_descriptor {
    unsigned version;              /* of the text parsed; encoding writes
                                      GOV_DESC_VERSION */
    /* Binding: what the process must match (never printed). */
    uint64_t job_id, step_id, node_index, uid;
    uint64_t boot_hash;            /* FNV-1a of the node's boot id */
    /* The process every task of the step descends from, and its start
     * time: the step's slurmstepd, which seals once per step and node
     * (version 4); the task itself in versions 1 to 3 (one seal a task). */
    uint64_t pid, pid_start;
    /* That process's namespaces' inodes (user and PID since version 3,
     * cgroup since 4): a process in others is in a container. */
    uint64_t pid_ns, user_ns, cgroup_ns;
    uint64_t created;              /* Unix seconds at sealing */
    gov_step_kind step_kind;
    /* Facts from the job credential; GOV_UNKNOWN when absent. */
    uint64_t nodes, tasks_total, tasks_on_node;
    uint64_t cpus_on_node, cpus_per_task;
    uint64_t job_mem_mib, step_mem_mib, mem_per_cpu_mib;
    uint64_t job_cores, step_cores;
    /* GPU facts (counts only): slurmstepd's variables; in versions 2 and
     * 3 also the GPU device nodes the task's device cgroup let root open
     * at sealing, and verified when the two agreed under a device
     * allowlist.  Version 4 seals before any task has its device cgroup:
     * the process confirms the grant itself (gov__gpus_confirm). */
    uint64_t gpus_on_node, gpus_per_task, gpus_visible, gpus_usable;
    bool gpus_verified;
    /* The grant as it is (version 5; spank/capture.c): its kind, the share
     * of one GPU as gpu_share of gpu_share_of (SLURM_SHARDS_ON_NODE over the
     * GPU's gres/shard count, CUDA MPS's percentage over 100, 1 of 1 for a
     * MIG instance or whole GPUs) and, where the grant says it, its memory
     * (a MIG profile's); GOV_UNKNOWN where not known. */
    gov_gpu_share_kind gpu_share_kind;
    uint64_t gpu_share, gpu_share_of, gpu_mem_bytes;
    gov_desc_topology topo;
    gov_desc_policy policy;
} gov_descriptor;

/* Every fact unknown, no topology, default policy. */
void gov__descriptor_init(gov_descriptor *d);

/* Render as GOV_DESC_VERSION text into buf (NUL-terminated).  Returns the
 * length, GOV_ENOSPC past GOV_DESC_MAX_BYTES or cap, GOV_EINVAL. */
int gov__descriptor_encode(const gov_descriptor *d, char *buf, size_t cap);

/* Parse version 1 to 5 text strictly (a key newer than the text's version,
 * or one its version no longer has, is an error).  Returns 0, GOV_EVERSION
 * for another version, GOV_EPARSE for anything else that does not follow the
 * format. */
int gov__descriptor_parse(const char *text, size_t len, gov_descriptor *out);

/* ---- binding (binding.c) --------------------------------------------------- */

/* What the running process claims and what the kernel says about it.  Its
 * ancestry is not copied here: the binding check walks /proc from pid. */
/* Slurm's limit on the components of a heterogeneous job. */
#define GOV_CLAIM_MAX_HET 128
typedef struct gov_desc_claim {
    uint64_t job_id, step_id, node_index; /* from the environment, GOV_UNKNOWN */
    uint64_t uid;                         /* getuid() */
    /* getuid() in the user namespace above a process's own one, through
     * /proc/self/uid_map (getuid() itself outside one); GOV_UNKNOWN when
     * the map cannot be read or does not map it. */
    uint64_t host_uid;
    uint64_t boot_hash;                   /* GOV_UNKNOWN when unreadable */
    uint64_t pid;                         /* the claiming process */
    uint64_t pid_ns, user_ns, cgroup_ns;  /* its namespaces, GOV_UNKNOWN */
    /* A heterogeneous job's component job ids, component 0 (the leader,
     * which SLURM_JOB_ID names) first; het_count 0 outside one. */
    uint32_t het_count;
    uint64_t het_jobs[GOV_CLAIM_MAX_HET];
} gov_desc_claim;

/* FNV-1a 64 of the boot id text (trailing newline ignored). */
uint64_t gov__boot_hash(const char *text, size_t len);

/* Read ROOT/proc/sys/kernel/random/boot_id and hash it. */
int gov__boot_hash_read(const gov_root *root, uint64_t *out);

/* From a /proc/PID/stat text: the parent pid (field 4) and start time in
 * clock ticks since boot (field 22).  Returns 0 or GOV_EPARSE. */
int gov__proc_stat_parse(const char *text, size_t len, uint64_t *ppid,
                         uint64_t *start);

/* Start time of ROOT/proc/PID (PID 0: self), and its parent. */
int gov__proc_start_read(const gov_root *root, uint64_t pid, uint64_t *ppid,
                         uint64_t *start);

/* Whether ROOT/proc/PID is the process (anc_pid, anc_start) or descends
 * from it, walking parent links up to the top of the pid namespace.  A
 * cycle in the links (a fixture, or pids reused during the walk) ends the
 * walk with false. */
bool gov__proc_descends_from(const gov_root *root, uint64_t pid, uint64_t anc_pid,
                             uint64_t anc_start);

/* The inodes of the live /proc/self/ns/pid, .../user and .../cgroup: which
 * namespaces the process is in; the kernel's initial one of a kind the
 * kernel lacks; GOV_UNKNOWN where /proc/self/ns cannot tell (hidden, or
 * not the kernel's namespace files). */
void gov__proc_ns_read(uint64_t *pid_ns, uint64_t *user_ns, uint64_t *cgroup_ns);

/* The kernel's inodes of its initial user, PID and cgroup namespaces
 * (PROC_*_INIT_INO in linux/proc_ns.h): a host process's own. */
#define GOV_INIT_USER_NS UINT64_C(0xEFFFFFFD)
#define GOV_INIT_PID_NS UINT64_C(0xEFFFFFFC)
#define GOV_INIT_CGROUP_NS UINT64_C(0xEFFFFFFB)

/* Bits (1u << gov_namespace) of the namespaces in the claim that differ
 * from the reference's (the sealed ones; for one the descriptor lacks, or
 * with d NULL, the kernel's initial one).  An unknown inode counts as
 * differing: what that namespace would hide counts as hidden. */
uint32_t gov__own_namespaces(const gov_descriptor *d, const gov_desc_claim *c);
/* Bits (1u << gov_namespace) of the claim's unknown namespaces. */
uint32_t gov__unknown_namespaces(const gov_desc_claim *c);

/* uid mapped through a uid_map text ("inside outside count" lines): an
 * inside uid to the namespace above (outward), or one from above to its
 * uid inside; GOV_UNKNOWN when no line maps it or the text is malformed. */
uint64_t gov__uid_map_translate(const char *text, size_t len, uint64_t uid, bool outward);

/* Fill the claim of the live process from envp (SLURM_JOB_ID,
 * SLURM_STEP_ID, SLURM_NODEID and, in a heterogeneous job,
 * SLURM_JOB_ID_HET_GROUP_N or its older name SLURM_JOB_ID_PACK_GROUP_N),
 * getuid() and its mapping, the boot id, getpid() and its namespaces. */
void gov__claim_collect(const char *const *envp, gov_desc_claim *out);

/* What a binding check found besides its verdict. */
typedef struct gov_desc_check {
    uint32_t namespaces;   /* bits (1u << gov_namespace): of the process's own */
    uint32_t unchecked;    /* bits (1u << gov_binding): not checkable there */
    uint32_t namespaces_unknown;   /* bits of namespaces: unknown, counted own */
} gov_desc_check;

/* 0 when d is bound to the claiming process, else the first of:
 * GOV_EBINDING when the uid differs (another user's descriptor, wherever it
 * was sealed): the uid is uid_vouched (MUNGE decoded a credential it
 * restricts to d->uid: munged itself saw the process's real uid), else the
 * claim's host_uid; GOV_ENAMESPACE when neither tells (a user namespace
 * whose uid_map cannot be read); GOV_ENODE when the boot id's hash differs or the descriptor
 * has none (sealed on another node or before this node's last boot); then
 * GOV_EBINDING for another job or step; GOV_ENODE for a claimed node index
 * other than the sealed one (emulated nodes share a boot id); GOV_EBINDING
 * when the process does not descend from the sealed process (unless it is
 * in a PID namespace of its own, where the sealed one is out of sight:
 * chk->unchecked then says so).  A process that
 * cannot read its own boot id or claims no node index gets GOV_EBINDING:
 * it names no other node.  In a heterogeneous step slurmstepd gives every
 * task the leader's job id and a node index counted across the step's
 * components, while the seal carries the component's own job id and node
 * index: a component's descriptor matches when its job is one of the
 * claimed components and the claimed index is not below the sealed one
 * (the offset, the nodes of the step's earlier components, is in no
 * variable); a lower one is GOV_EBINDING. */
int gov__descriptor_check_binding(const gov_descriptor *d, const gov_desc_claim *c,
                                  bool uid_vouched, gov_desc_check *chk);

/* ---- MUNGE (seal.c) -------------------------------------------------------- */

/* Seal len bytes with munge_encode at the caller's effective uid.
 * socket NULL = MUNGE's default; ttl_s 0 = MUNGE's default; uid other than
 * GOV_UID_NONE: only processes of that uid can decode the credential
 * (MUNGE_OPT_UID_RESTRICTION; root included, others get GOV_ESEAL).  *cred
 * is malloc'd.  On GOV_EMUNGE, why (GOV_SEAL_WHY_MAX bytes, may be NULL)
 * gets MUNGE's own words (munge_ctx_strerror()).  Returns 0, GOV_EMUNGE,
 * GOV_EINVAL. */
#define GOV_SEAL_WHY_MAX 160
int gov__seal_encode(const char *socket, uint32_t ttl_s, uint32_t uid,
                     const void *payload, size_t len, char **cred, char *why);

typedef struct gov_seal_info {
    uint32_t uid;        /* encoder's effective uid */
    uint32_t uid_restriction;  /* who alone may decode it, GOV_UID_NONE */
    bool expired;        /* older than its TTL */
    bool replayed;       /* decoded before on this host */
} gov_seal_info;

/* munge_decode; SUCCESS, EXPIRED and REPLAYED all return 0 with the
 * payload (malloc'd, NUL-terminated).  Returns GOV_ESEAL for a credential
 * that does not verify, GOV_EMUNGE when MUNGE itself fails. */
int gov__seal_decode(const char *socket, const char *cred, char **payload,
                     size_t *len, gov_seal_info *info);

/* ---- the MUNGE socket (munge_path.c) ----------------------------------------- */

/* Whether the MUNGE socket at path (NULL: libmunge's default) is root's or
 * munge's: root hands it the plaintext descriptor to seal (a user's own
 * listener there would get every task's), and a task trusts its answer
 * (a user's own munged would vouch for anything).  Every
 * directory from "/" to the socket must belong to root or to owner (the
 * munge user; (uid_t)-1: none) and be writable by nobody else, sticky ones
 * (/tmp) included; a link is followed (at most 8) only from such a
 * directory; the socket must be a socket of root's or owner's.  A path
 * that ends in a missing name inside such directories passes: only root
 * or munge could put something there (libmunge then reports it missing).
 * No connection is made: munged logs each one that sends nothing.
 * Returns 0, GOV_EACCES, GOV_EINVAL or another negative errno, with *why
 * a static reason fit for a log. */
int gov__munge_path_check(const char *path, uid_t owner, const char **why);

/* The munge user's uid, whom munged runs as (Debian, RHEL); (uid_t)-1
 * where there is none. */
uid_t gov__munge_user(void);

/* ---- verification (descriptor.c) ------------------------------------------- */

/* Decode, authorise, parse and bind a sealed descriptor.  trusted_uid is
 * GOV_UID_NONE or a uid trusted besides 0.  In the node's initial user
 * namespace the socket must pass gov__munge_path_check (GOV_ESOCKET
 * otherwise); in a user namespace of the process's own munged's answer is
 * taken, its uid restriction is not believed, and chk->unchecked gets
 * GOV_BINDING_MUNGED.  On 0, *out holds the facts, *info the seal's state
 * and *chk what the binding could not check; otherwise the GOV_E* reason
 * (*chk is filled either way). */
int gov__descriptor_verify(const char *cred, const char *socket,
                           uint32_t trusted_uid, const gov_desc_claim *claim,
                           gov_descriptor *out, gov_seal_info *info, gov_desc_check *chk);

/* ---- the descriptor file (descriptor_file.c) -------------------------------- */

/* The variable naming the file that root wrote for the step
 * (docs/descriptor.md, "Hand-off"). */
#define GOV_DESCRIPTOR_FILE_ENV "GOVERNOR_DESCRIPTOR_FILE"

/* Read, authorise, parse and bind the descriptor file at path (absolute):
 * opened without following a last link, a regular file of at most
 * GOV_DESC_MAX_BYTES with one link, writable by its owner alone, and its
 * owner root (or trusted_uid); in a user namespace where the initial
 * namespace's root is not mapped, the overflow uid the kernel shows for
 * every unmapped owner.  Outside the initial user namespace an owner is
 * what the namespace's maker says: unless the file carries root's mark
 * (gov__file_marked), chk->unchecked gets GOV_BINDING_OWNER
 * (docs/descriptor.md, "Threat model").  Returns 0 with *out and
 * *chk as gov__descriptor_verify() gives them; GOV_ENOENT when the file's
 * directory cannot be seen (a container that does not bind it in),
 * GOV_EBINDING when the directory is there but not the file (its step has
 * ended: the file was another step's), GOV_EUNTRUSTED for another owner or mode,
 * GOV_EPARSE, GOV_EVERSION, the binding's errors, or another negative errno
 * reading it. */
int gov__descriptor_verify_file(const char *path, uint32_t trusted_uid,
                                const gov_desc_claim *claim, gov_descriptor *out,
                                gov_desc_check *chk);

/* Whether the open file fd carries root's mark: the immutable flag
 * (FS_IMMUTABLE_FL), which only root of the node's initial user namespace
 * can set (CAP_LINUX_IMMUTABLE there), on tmpfs, ext4, XFS or Btrfs, whose
 * flags the kernel keeps (a FUSE daemon answers for its own). */
bool gov__file_marked(int fd);

/* Whether st_uid may be root's as the calling process sees files: 0 (or
 * trusted_uid), or overflow_uid where the claim's user namespace leaves
 * root unmapped (root_mapped false). */
bool gov__file_owner_trusted(uint64_t st_uid, uint32_t trusted_uid, bool root_mapped,
                             uint64_t overflow_uid);

#endif /* GOV_DESCRIPTOR_H */
