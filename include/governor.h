/*
 * governor.h - the public API of libgovernor.
 *
 * libgovernor tells a process inside a (Slurm) job what it is entitled to use,
 * and admits work against that entitlement.  It combines independent layers of
 * evidence (host inventory, affinity, cgroup v1/v2, the scheduler's sealed
 * descriptor or its variables, PSI, accelerators, disk) into a snapshot in
 * which every layer stays visible and missing evidence is "unknown", never
 * "unlimited".
 *
 * Conventions used throughout:
 *  - Every function that can fail returns 0 on success or a negative
 *    errno-style code: a GOV_E* of GOV_ERRNO_MAP, or another system error as
 *    its negated errno (a file that cannot be read: -EPERM, -ELOOP...);
 *    gov_strerror() and gov_err_name() name every one.  The library never
 *    calls exit() and never prints.
 *  - A count or byte quantity that no evidence supports is GOV_UNKNOWN; a
 *    fractional quantity that no evidence supports is NaN (test with
 *    gov_known_f()).
 *  - Memory returned through a `char **` out parameter belongs to the caller
 *    and is released with free().  Structures are plain values the caller
 *    owns; they hold no pointers into library memory.
 *  - No global mutable state: everything lives in a gov_context or a
 *    gov_governor.  Thread safety is stated per call.
 *
 * ABI: libgovernor.so.1 keeps the size of every structure below and the
 * offset of every member for its whole life, because callers allocate them
 * (on the stack, in arrays) and the library reads and writes them in place.
 * So each structure, and each part of gov_snapshot, ends in reserved words:
 *  - A new member takes words from the front of its structure's reserved
 *    tail (the tail shrinks by as much); nothing is removed, reordered or
 *    resized, and enumerators are only appended.
 *  - Callers zero-initialise what they pass in (or use gov_snapshot_init()),
 *    so a member their header did not have reads 0; a new input member
 *    must take 0 to mean what the library did before it existed.  Callers
 *    never read or write the reserved words.
 *  - A change that cannot follow these rules is a new soname
 *    (libgovernor.so.1).  gov_context and gov_governor are opaque and free
 *    to change; gov_cpuset and gov_reservation are fixed forever.
 * CI holds the library to it: abidiff compares the build with the baseline
 * abi/libgovernor.abi, and only members added into a reserved tail pass
 * (abi/suppressions).  docs/abi.md says how to add a member.
 */
#ifndef GOVERNOR_H
#define GOVERNOR_H

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version this header describes; gov_version() says which library runs. */
#define GOV_VERSION_MAJOR 0
#define GOV_VERSION_MINOR 2
#define GOV_VERSION_PATCH 0
#define GOV_VERSION_HEX \
    ((GOV_VERSION_MAJOR << 16) | (GOV_VERSION_MINOR << 8) | GOV_VERSION_PATCH)

/**
 * The version of the library loaded at run time, as GOV_VERSION_HEX spells
 * it: compare with the macro to detect a program built against another
 * header.  Thread-safe.
 */
unsigned gov_version(void);

/** The same as "MAJOR.MINOR.PATCH": a static string.  Thread-safe. */
const char *gov_version_string(void);

/** The JSON schema name printed in every snapshot. */
#define GOV_SNAPSHOT_SCHEMA "governor.snapshot/1"

/** The environment variable that carries the sealed descriptor. */
#define GOV_DESCRIPTOR_ENV "GOVERNOR_DESCRIPTOR"

/* ------------------------------------------------------------------------ */
/** \name Errors                                                            */
/* ------------------------------------------------------------------------ */

/**
 * Every error code, once: XX(NAME, value, text).  GOV_<NAME> is the code,
 * gov_err_name() returns "<NAME>" and gov_strerror() the text.  System
 * errors keep their errno value, negated (libuv style); the project's own
 * live above the errno range.
 */
#define GOV_ERRNO_MAP(XX)                                                           \
    XX(EINVAL, -EINVAL, "invalid argument")                                          \
    XX(ENOMEM, -ENOMEM, "out of memory")                                             \
    XX(ENOENT, -ENOENT, "not found")                                                 \
    XX(EACCES, -EACCES, "permission denied")                                         \
    XX(EIO, -EIO, "input/output error")                                              \
    XX(ERANGE, -ERANGE, "value out of range")                                        \
    XX(ENOSPC, -ENOSPC, "buffer too small")                                          \
    XX(ETIMEDOUT, -ETIMEDOUT, "timed out")                                           \
    XX(EALREADY, -EALREADY, "reservation already released")                         \
    XX(ENOTSUP, -ENOTSUP, "not supported by this build")                            \
    XX(EOVERFLOW, -EOVERFLOW, "identifier space exhausted")                          \
    XX(EPARSE, -4001, "malformed input")                                             \
    XX(ESEAL, -4002, "the descriptor's MUNGE seal does not verify")                 \
    XX(EUNTRUSTED, -4003, "the descriptor was sealed by an untrusted user")         \
    XX(EBINDING, -4004, "the descriptor belongs to another job, step, node or user") \
    XX(EVERSION, -4005, "the descriptor's version is not understood")               \
    XX(EMUNGE, -4006, "MUNGE failed (is munged running?)")                           \
    XX(ENAMESPACE, -4007, "the process runs in a user namespace of its own (a " \
                          "container's) where nothing vouches for its uid: no MUNGE " \
                          "restriction, no readable uid_map")                          \
    XX(ENODE, -4008, "the descriptor was sealed on another node, or on this node before " \
                     "it last booted")                                                    \
    XX(EUNREACHABLE, -4009, "neither munged's socket nor the step's descriptor file can " \
                            "be reached from here (a container that binds neither in)") \
    XX(ESOCKET, -4010, "the MUNGE socket is not root's or munge's all the way down: a " \
                       "daemon another user started could answer there")                \
    XX(EUNVOUCHED, -4011, "in a user namespace of its own, nothing vouches that root or " \
                          "munged made the descriptor (a file without root's mark, munged's " \
                          "answer): the user may have")

enum {
#define GOV_ERR_CODE_(name, value, text) GOV_##name = (value),
    GOV_ERRNO_MAP(GOV_ERR_CODE_)
#undef GOV_ERR_CODE_
};

/**
 * Name an error code.  Returns a static, human-readable string for any int:
 * the list's text; for another negated errno (a system error the list does
 * not name, such as -EPERM or -ELOOP) the C library's text ("Operation not
 * permitted"; "unknown system error" where the C library has none); for
 * anything else "unknown error".  Thread-safe.
 */
const char *gov_strerror(int err);

/**
 * Short symbolic name of an error code ("EINVAL", "EPARSE"), for JSON and
 * logs: another negated errno by its C name ("EPERM"; "ESYSTEM" where the C
 * library has none).  Static string; "UNKNOWN" for anything else.
 * Thread-safe.
 */
const char *gov_err_name(int err);

/**
 * Every error code of GOV_ERRNO_MAP, in its order, for bindings that mirror
 * them (the Python binding builds its ErrorCode from it): a static array of
 * *count codes.  Thread-safe.
 */
const int *gov_err_codes(size_t *count);

/* ------------------------------------------------------------------------ */
/** \name Unknown values                                                    */
/* ------------------------------------------------------------------------ */

/** A count or byte quantity that no evidence supports. */
#define GOV_UNKNOWN UINT64_MAX

/** Non-zero when a fractional quantity is known (not NaN). */
static inline int gov_known_f(double v) { return !isnan(v); }

/* ------------------------------------------------------------------------ */
/** \name CPU sets                                                          */
/* ------------------------------------------------------------------------ */

/** Largest logical CPU index + 1 that a gov_cpuset can hold. */
#define GOV_CPUSET_BITS 8192

/** A set of logical CPUs; a plain value, zero-initialise for the empty set. */
typedef struct gov_cpuset {
    uint64_t bits[GOV_CPUSET_BITS / 64];
} gov_cpuset;

/**
 * Parse a Linux CPU list ("0-3,8,10-11", surrounding white space and one
 * trailing newline allowed, "" is the empty set) of \p len bytes.
 * Returns 0, GOV_EPARSE on bad syntax, GOV_ERANGE for a CPU beyond
 * GOV_CPUSET_BITS.  On error *out is left empty.  Thread-safe.
 */
int gov_cpuset_parse(const char *text, size_t len, gov_cpuset *out);

/**
 * Format a set as a canonical Linux CPU list into \p buf of \p cap bytes
 * (NUL-terminated).  Returns the length written, or GOV_ENOSPC when it does
 * not fit.  Thread-safe.
 */
int gov_cpuset_format(const gov_cpuset *set, char *buf, size_t cap);

/** Number of CPUs in the set.  Thread-safe. */
uint64_t gov_cpuset_count(const gov_cpuset *set);

/* ------------------------------------------------------------------------ */
/** \name Snapshot                                                          */
/* ------------------------------------------------------------------------ */

/*
 * Every public enum is generated from one list, GOV_<ENUM>_LIST(X): a line
 * X(ENUMERATOR, "name") per member, in value order from 0.  The list makes
 * the enum, its count GOV_<ENUM>_COUNT and its stable names
 * (gov_<enum>_name(); NULL only for a "none" member of value 0, which the
 * JSON prints as null), so appending an enumerator, the one change the ABI
 * allows, is one line, inserted above its list's closing comment (and a row
 * of docs/names.md, which a unit test holds to the lists).  A count grows with its enum: nothing stored or
 * exchanged between versions may be sized by it.
 */
#define GOV_ENUM_MEMBER_(id, ...) id,
#define GOV_ENUM_ONE_(id, ...) 1 +

/** Status of a cgroup limit: evidence of a limit, of none, or no evidence. */
#define GOV_LIMIT_STATUS_LIST(X)        \
    X(GOV_LIMIT_UNKNOWN, "unknown")     \
    X(GOV_LIMIT_LIMITED, "limited")     \
    X(GOV_LIMIT_UNLIMITED, "unlimited") \
    /* append above this line */
typedef enum gov_limit_status { GOV_LIMIT_STATUS_LIST(GOV_ENUM_MEMBER_) } gov_limit_status;
enum { GOV_LIMIT_STATUS_COUNT = GOV_LIMIT_STATUS_LIST(GOV_ENUM_ONE_) 0 };

/** Whether the kernel holds the process to its allocation. */
#define GOV_ENFORCEMENT_LIST(X)           \
    X(GOV_ENFORCEMENT_UNKNOWN, "unknown") \
    X(GOV_ENFORCED, "enforced")           \
    X(GOV_NOT_ENFORCED, "not_enforced")   \
    /* append above this line */
typedef enum gov_enforcement { GOV_ENFORCEMENT_LIST(GOV_ENUM_MEMBER_) } gov_enforcement;
enum { GOV_ENFORCEMENT_COUNT = GOV_ENFORCEMENT_LIST(GOV_ENUM_ONE_) 0 };

/** The layer that sets an effective value. */
#define GOV_LAYER_LIST(X)                                                          \
    X(GOV_LAYER_NONE, NULL)           /* nothing known */                          \
    X(GOV_LAYER_HOST, "host")                                                      \
    X(GOV_LAYER_AFFINITY, "affinity")                                              \
    X(GOV_LAYER_CPUSET, "cpuset")                                                  \
    X(GOV_LAYER_QUOTA, "quota")                                                    \
    X(GOV_LAYER_CGROUP, "cgroup")     /* memory.max / memory.high / v1 limits */   \
    X(GOV_LAYER_SCHEDULER, "scheduler")                                            \
    X(GOV_LAYER_DEVICES, "devices")   /* a device cgroup (GPU enforcement only) */ \
    /* append above this line */
typedef enum gov_layer { GOV_LAYER_LIST(GOV_ENUM_MEMBER_) } gov_layer;
enum { GOV_LAYER_COUNT = GOV_LAYER_LIST(GOV_ENUM_ONE_) 0 };

/** Where the scheduler facts come from. */
#define GOV_SCHED_SOURCE_LIST(X)                                                                \
    X(GOV_SCHED_NONE, NULL)                  /* no scheduler evidence */                        \
    X(GOV_SCHED_DESCRIPTOR, "descriptor")    /* the verified, sealed descriptor */              \
    X(GOV_SCHED_ENVIRONMENT, "environment")  /* SLURM_* variables (any user can change them) */ \
    /* append above this line */
typedef enum gov_sched_source { GOV_SCHED_SOURCE_LIST(GOV_ENUM_MEMBER_) } gov_sched_source;
enum { GOV_SCHED_SOURCE_COUNT = GOV_SCHED_SOURCE_LIST(GOV_ENUM_ONE_) 0 };

/** What became of the sealed descriptor. */
#define GOV_DESCRIPTOR_STATUS_LIST(X)                                             \
    X(GOV_DESCRIPTOR_ABSENT, "absent")                                            \
    X(GOV_DESCRIPTOR_VERIFIED, "verified")                                        \
    X(GOV_DESCRIPTOR_INVALID, "invalid") /* see gov_snapshot.descriptor.reason */ \
    /* append above this line */
typedef enum gov_descriptor_status {
    GOV_DESCRIPTOR_STATUS_LIST(GOV_ENUM_MEMBER_)
} gov_descriptor_status;
enum { GOV_DESCRIPTOR_STATUS_COUNT = GOV_DESCRIPTOR_STATUS_LIST(GOV_ENUM_ONE_) 0 };

/** How a verified descriptor reached the process
 *  (gov_snapshot.descriptor.via; docs/descriptor.md, "Hand-off"). */
#define GOV_DESCRIPTOR_VIA_LIST(X)                                                \
    X(GOV_DESCRIPTOR_VIA_NONE, NULL)  /* none verified */                         \
    X(GOV_DESCRIPTOR_VIA_MUNGE, "munge") /* GOVERNOR_DESCRIPTOR, decoded by munged */ \
    X(GOV_DESCRIPTOR_VIA_FILE, "file")   /* GOVERNOR_DESCRIPTOR_FILE, root's file */  \
    /* append above this line */
typedef enum gov_descriptor_via { GOV_DESCRIPTOR_VIA_LIST(GOV_ENUM_MEMBER_) } gov_descriptor_via;
enum { GOV_DESCRIPTOR_VIA_COUNT = GOV_DESCRIPTOR_VIA_LIST(GOV_ENUM_ONE_) 0 };

/** Namespaces a process may have of its own, apart from its Slurm step's
 *  (a container's): bit (1u << member) of gov_snapshot.descriptor.namespaces. */
#define GOV_NAMESPACE_LIST(X)                                                 \
    X(GOV_NAMESPACE_USER, "user")     /* uids mapped: 0 inside may be the user */ \
    X(GOV_NAMESPACE_PID, "pid")       /* pids renumbered, the step's above unseen */ \
    X(GOV_NAMESPACE_CGROUP, "cgroup") /* cgroups above its root hidden */      \
    /* append above this line */
typedef enum gov_namespace { GOV_NAMESPACE_LIST(GOV_ENUM_MEMBER_) } gov_namespace;
enum { GOV_NAMESPACE_COUNT = GOV_NAMESPACE_LIST(GOV_ENUM_ONE_) 0 };

/** Parts of a descriptor's binding to the process that a verification could
 *  not check, the process's namespaces hiding them: bit (1u << member) of
 *  gov_snapshot.descriptor.unchecked (docs/descriptor.md, "Containers"). */
#define GOV_BINDING_LIST(X)                                                  \
    X(GOV_BINDING_ANCESTRY, "ancestry") /* descent from the step's slurmstepd */ \
    X(GOV_BINDING_OWNER, "owner") /* the file's owner is root: a user namespace of the \
                                     process's own, no root's mark on the file */ \
    X(GOV_BINDING_MUNGED, "munged") /* munged answered: a user namespace of the \
                                       process's own, where the user may run one */ \
    /* append above this line */
typedef enum gov_binding { GOV_BINDING_LIST(GOV_ENUM_MEMBER_) } gov_binding;
enum { GOV_BINDING_COUNT = GOV_BINDING_LIST(GOV_ENUM_ONE_) 0 };

/** Where PSI figures come from. */
#define GOV_PRESSURE_SOURCE_LIST(X)                                                           \
    X(GOV_PRESSURE_SOURCE_NONE, NULL)                                                         \
    X(GOV_PRESSURE_SOURCE_CGROUP, "cgroup") /* the process's non-root v2 cgroup *.pressure */ \
    X(GOV_PRESSURE_SOURCE_SYSTEM, "system") /* /proc/pressure, or the v2 root cgroup's        \
                                               (system-wide: a hybrid host) */                \
    /* append above this line */
typedef enum gov_pressure_source {
    GOV_PRESSURE_SOURCE_LIST(GOV_ENUM_MEMBER_)
} gov_pressure_source;
enum { GOV_PRESSURE_SOURCE_COUNT = GOV_PRESSURE_SOURCE_LIST(GOV_ENUM_ONE_) 0 };

/** Slurm step kinds that the plugin and the snapshot treat deliberately. */
#define GOV_STEP_KIND_LIST(X)              \
    X(GOV_STEP_UNKNOWN, NULL)              \
    X(GOV_STEP_NORMAL, "normal")           \
    X(GOV_STEP_BATCH, "batch")             \
    X(GOV_STEP_EXTERN, "extern")           \
    X(GOV_STEP_INTERACTIVE, "interactive") \
    /* append above this line */
typedef enum gov_step_kind { GOV_STEP_KIND_LIST(GOV_ENUM_MEMBER_) } gov_step_kind;
enum { GOV_STEP_KIND_COUNT = GOV_STEP_KIND_LIST(GOV_ENUM_ONE_) 0 };

/** Where the snapshot's topology part comes from (gov_snapshot.topology). */
#define GOV_TOPOLOGY_SOURCE_LIST(X)                                                        \
    X(GOV_TOPOLOGY_SOURCE_NONE, NULL)               /* no topology known */                \
    X(GOV_TOPOLOGY_SOURCE_DESCRIPTOR, "descriptor") /* the step part from a verified       \
                                                       descriptor */                       \
    X(GOV_TOPOLOGY_SOURCE_LIVE, "live")             /* only the task part, counted here */ \
    /* append above this line */
typedef enum gov_topology_source {
    GOV_TOPOLOGY_SOURCE_LIST(GOV_ENUM_MEMBER_)
} gov_topology_source;
enum { GOV_TOPOLOGY_SOURCE_COUNT = GOV_TOPOLOGY_SOURCE_LIST(GOV_ENUM_ONE_) 0 };

/** What a step's GPU grant on this node is (gov_snapshot.scheduler.gpu_share_kind,
 *  docs/snapshot.md, "GPU shares"): whole GPUs, or a share of one. */
#define GOV_GPU_SHARE_KIND_LIST(X)                                                  \
    X(GOV_GPU_SHARE_NONE, NULL)             /* no grant known */                    \
    X(GOV_GPU_SHARE_GPU, "gpu")             /* whole GPUs (gres/gpu) */             \
    X(GOV_GPU_SHARE_SHARD, "shard")         /* gres/shard: a count, not fenced */   \
    X(GOV_GPU_SHARE_MPS, "mps")             /* gres/mps: CUDA MPS's thread share */ \
    X(GOV_GPU_SHARE_MIG, "mig")             /* a MIG instance: the hardware's */    \
    X(GOV_GPU_SHARE_PARTITION, "partition") /* an AMD compute or memory partition */ \
    /* append above this line */
typedef enum gov_gpu_share_kind {
    GOV_GPU_SHARE_KIND_LIST(GOV_ENUM_MEMBER_)
} gov_gpu_share_kind;
enum { GOV_GPU_SHARE_KIND_COUNT = GOV_GPU_SHARE_KIND_LIST(GOV_ENUM_ONE_) 0 };

/** Admission profile (see the governor section). */
#define GOV_PROFILE_LIST(X)                                                            \
    X(GOV_PROFILE_BATCH, "batch")             /* keeps no host reserve */              \
    X(GOV_PROFILE_INTERACTIVE, "interactive") /* keeps a quarter of RAM and threads */ \
    /* append above this line */
typedef enum gov_profile { GOV_PROFILE_LIST(GOV_ENUM_MEMBER_) } gov_profile;
enum { GOV_PROFILE_COUNT = GOV_PROFILE_LIST(GOV_ENUM_ONE_) 0 };

/** The four accelerator visibility variables, counted, never printed. */
enum {
    GOV_VIS_NVIDIA = 0,   /* NVIDIA_VISIBLE_DEVICES */
    GOV_VIS_CUDA,         /* CUDA_VISIBLE_DEVICES */
    GOV_VIS_ROCR,         /* ROCR_VISIBLE_DEVICES */
    GOV_VIS_HIP,          /* HIP_VISIBLE_DEVICES */
    GOV_VIS_COUNT
};

/** Site policy carried by a verified descriptor (or defaults). */
typedef struct gov_site_policy {
    int present;                   /**< 1 when it came from a verified descriptor */
    int profile_imposed;           /**< 1 when the site imposes `profile` */
    gov_profile profile;
    uint64_t mem_reserve_bytes;    /**< absolute host reserve, GOV_UNKNOWN if none */
    uint32_t mem_reserve_pct;      /**< reserve in % of detected RAM, 0 if none */
    uint64_t cpu_reserve_threads;  /**< absolute, GOV_UNKNOWN if none */
    uint32_t cpu_reserve_pct;      /**< % of logical threads, 0 if none */
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_site_policy;

/** The descriptor's verification (gov_snapshot.descriptor). */
typedef struct gov_snapshot_descriptor {
    gov_descriptor_status status;
    int reason;                /**< GOV_E* code when invalid, else 0 */
    uint64_t age_s;            /**< seconds since sealing, GOV_UNKNOWN if absent */
    int replayed;              /**< MUNGE said REPLAYED (decoded before) */
    int expired;               /**< MUNGE said EXPIRED (older than its TTL) */
    gov_descriptor_via via;    /**< how the verified descriptor came */
    /** Bits (1u << gov_binding) of the binding that could not be checked
     *  in this process's namespaces; 0 when verified in full or not at all. */
    uint32_t unchecked;
    /** Bits (1u << gov_namespace): namespaces this process has of its own,
     *  apart from its Slurm step's (against the sealed ones when a
     *  descriptor verified, else the host's initial ones).  The cgroup bit
     *  means the cgroups above the visible root, where Slurm puts the
     *  step's limits, are hidden: their limits count as unknown. */
    uint32_t namespaces;
    int namespaces_seen;       /**< 1 when namespaces was read: a live
                                    process, not a sysroot */
    /** Bits (1u << gov_namespace) of namespaces whose identity the process
     *  cannot read (a mount of its own hides /proc/self/ns): counted in
     *  namespaces as its own, so that what they would hide is unknown. */
    uint32_t namespaces_unknown;
    uint32_t reserved_u32;     /**< zero */
    uint64_t reserved[1];  /**< zero (see "ABI" above) */
} gov_snapshot_descriptor;

/** Pressure stall information and swap activity (gov_snapshot.pressure). */
typedef struct gov_snapshot_pressure {
    gov_pressure_source source;
    double cpu_some_avg10;       /**< percent, NaN when unknown */
    double memory_some_avg10;
    double memory_full_avg10;
    uint64_t swap_in_pages;      /**< /proc/vmstat pswpin, GOV_UNKNOWN if absent */
    uint64_t swap_out_pages;     /**< /proc/vmstat pswpout */
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_snapshot_pressure;

/** Accelerators: visibility variables, driver entries, device nodes (gov_snapshot.accel). */
typedef struct gov_snapshot_accel {
    uint64_t visible[GOV_VIS_COUNT]; /**< devices named by each variable;
                                          GOV_UNKNOWN when unset */
    uint64_t nvidia_gpus;        /**< /proc/driver/nvidia/gpus entries */
    uint64_t nvidia_dev_nodes;   /**< /dev/nvidiaN nodes */
    uint64_t nvidia_dev_usable;  /**< of those, openable read-write */
    uint64_t nvidia_dev_denied;  /**< of those, refused by a device cgroup (EPERM) */
    uint64_t amd_gpus;           /**< DRM cards with an AMD vendor id */
    int kfd_usable;              /**< /dev/kfd openable: 1, 0, -1 unknown */
    uint64_t drm_render_nodes;   /**< /dev/dri/renderD* */
    uint64_t drm_render_usable;
    uint64_t drm_render_denied;  /**< refused by a device cgroup (EPERM) */
    /** The process's device cgroup: 1 when it is confined to a v1
     *  devices cgroup below the root (Slurm's ConstrainDevices), 0 when
     *  it sits in the root one, -1 unknown (v2 filters are eBPF
     *  programs, not readable; a denied device still proves one). */
    int devices_confined;
    /* The one GPU the governor may use: the lowest-numbered DRM card. */
    int gpu_index;               /**< card number, -1 when none */
    uint64_t gpu_vram_total_bytes; /**< from that same card, GOV_UNKNOWN */
    uint64_t gpu_vram_used_bytes;  /**< from that same card, GOV_UNKNOWN */
    int gpu_unified;             /**< its memory is system RAM (UMA): 1,
                                      dedicated VRAM: 0, unknown: -1 */
    /** That card's share of its GPU under AMD's compute partitioning
     *  (current_compute_partition: 1 SPX, 2 DPX, 3 TPX, 4 QPX), its VRAM
     *  figures the partition's own; GOV_UNKNOWN where the card says
     *  nothing of a mode that names its count (none, or CPX). */
    uint64_t gpu_partitions;
    /** CUDA_MPS_PINNED_DEVICE_MEM_LIMIT set for this process: an MPS
     *  client's device memory capped (1), or not (0). */
    int mps_pinned_limit;
    uint64_t reserved[6];  /**< zero (see "ABI" above) */
} gov_snapshot_accel;

/** The working directory's filesystem (gov_snapshot.disk). */
typedef struct gov_snapshot_disk {
    uint64_t capacity_bytes;     /**< f_blocks * f_frsize */
    uint64_t free_bytes;         /**< f_bfree: includes root's reserve */
    uint64_t avail_bytes;        /**< f_bavail: what this user may use */
    int writable;                /**< access(W_OK): 1, 0, -1 unknown */
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_snapshot_disk;

/** The scheduler's facts for this process (gov_snapshot.scheduler): from the
 *  verified descriptor, else the SLURM_* variables, else none. */
typedef struct gov_snapshot_scheduler {
    gov_sched_source source;
    gov_step_kind step_kind;
    uint64_t tasks_on_node;    /**< this node's task count */
    uint64_t tasks_total;
    uint64_t nodes;
    uint64_t cpus_on_node;     /**< the step's CPUs on this node */
    uint64_t cpus_per_task;
    uint64_t mem_per_node_bytes;
    uint64_t mem_per_cpu_bytes;
    uint64_t gpus_on_node;
    uint64_t gpus_per_task;
    /** 1 when gpus_on_node is sealed and confirmed by the kernel: the
     *  plugin counted, as root in the task's device cgroup, exactly the
     *  grant of slurmstepd's variables, and the device cgroup denies some
     *  GPU node (docs/descriptor.md). */
    int gpus_verified;
    /** Where each fact a user can set came from, apart from `source`
     *  (docs/descriptor.md, "Provenance"): GOV_SCHED_DESCRIPTOR only for a
     *  value no user can set (a verified GPU count); GOV_SCHED_ENVIRONMENT
     *  for one the job's environment gave, sealed by root or not;
     *  GOV_SCHED_NONE when the value is unknown.  Under
     *  GOV_OPT_REQUIRE_DESCRIPTOR the environment's values are dropped. */
    gov_sched_source gpus_on_node_source;
    gov_sched_source gpus_per_task_source;
    gov_sched_source mem_per_cpu_source;    /**< of mem_per_cpu_bytes */
    /** The grant as it is (docs/snapshot.md, "GPU shares"): its kind, the
     *  fraction of one GPU it gives the step's tasks on this node (NaN
     *  unknown; 1 for whole GPUs or a MIG instance), where that came from,
     *  and the GPU memory it gives them (GOV_UNKNOWN unknown). */
    gov_gpu_share_kind gpu_share_kind;
    gov_sched_source gpu_share_source;
    double gpu_share;
    uint64_t gpu_memory_bytes;
    uint64_t reserved[5];  /**< zero (see "ABI" above) */
} gov_snapshot_scheduler;

/** The host's CPU inventory (gov_snapshot.cpu.host): not an entitlement. */
typedef struct gov_snapshot_cpu_host {
    uint64_t logical;      /**< logical CPUs (PUs) of the host */
    uint64_t physical;     /**< physical cores, never derived from logical */
    uint64_t packages;
    uint64_t numa_nodes;   /**< CPU NUMA nodes (see gov_topology_counts) */
    uint64_t online;       /**< CPUs in .../cpu/online */
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_snapshot_cpu_host;

/**
 * NUMA nodes of a node's topology, as the snapshot counts them.  A CPU NUMA
 * node is the nearest memory of some PU: the first NUMA node hwloc attaches
 * at the PU's closest ancestor that has memory.  Every other NUMA node
 * (GPU memory, CXL, HBM or NVDIMM beside DDR) is memory-only: reported
 * apart, never counted as a CPU NUMA domain.
 */
#define GOV_TOPOLOGY_NUMA_MAX 32

/** What a set of CPUs covers: a core, package or NUMA node counts when at
 *  least one of its PUs is in the set. */
typedef struct gov_topology_counts {
    uint64_t packages;
    uint64_t cores;
    uint64_t pus;
    uint64_t numa_nodes;   /**< CPU NUMA nodes; memory-only ones never */
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_topology_counts;

/** One CPU NUMA node that the process's affinity mask touches. */
typedef struct gov_topology_numa {
    uint32_t os_index;            /**< the kernel's node number */
    uint32_t pus;                 /**< PUs of the mask in this node */
    uint64_t cores;               /**< cores of the mask in this node */
    uint64_t local_memory_bytes;  /**< the node's memory, GOV_UNKNOWN */
    gov_cpuset cpus;              /**< the mask's CPUs in this node */
    uint64_t reserved[4];         /**< zero (see "ABI" above) */
} gov_topology_numa;

/**
 * The allocation's topology (gov_snapshot.topology): what the step's CPUs
 * cover on this node, as the plugin sealed it, beside what this process's
 * affinity mask covers, counted on the topology hwloc reads (the live
 * system's, or a sysroot's: see gov_options.sysroot).
 */
typedef struct gov_snapshot_topology {
    gov_topology_source source;
    /** The step's CPUs on this node (sealed); every count GOV_UNKNOWN
     *  without a verified descriptor that carries them. */
    gov_topology_counts step;
    /** This process's affinity mask on the node's topology. */
    gov_topology_counts task;
    uint64_t task_whole_cores;      /**< cores all of whose PUs are in the mask */
    /** GPUs this task may use whose device is local to a NUMA node of the
     *  mask (from the descriptor's GPU table); GOV_UNKNOWN when it cannot
     *  be told which GPUs the task may use. */
    uint64_t task_gpus_local;
    /** The host's NUMA nodes without CPUs of their own (see above). */
    uint64_t memory_only_numa_nodes;
    uint64_t memory_only_bytes;     /**< their memory together */
    /** Entries of numa[] in use, in OS order; task.numa_nodes may be
     *  larger (at most GOV_TOPOLOGY_NUMA_MAX are listed). */
    uint32_t numa_count;
    uint32_t reserved_u32;          /**< zero */
    gov_topology_numa numa[GOV_TOPOLOGY_NUMA_MAX];
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_snapshot_topology;

/** The CPU limits of the process's cgroups (gov_snapshot.cpu.cgroup). */
typedef struct gov_snapshot_cpu_cgroup {
    int version;           /**< 1, 2, or 0 when no cgroup was found */
    uint64_t cpuset_count; /**< effective cpuset, GOV_UNKNOWN if unseen */
    gov_cpuset cpuset;
    double quota_cores;    /**< most restrictive finite quota, NaN if none */
    gov_limit_status quota_status;
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_snapshot_cpu_cgroup;

/** The memory limits and usage of the process's cgroups
 *  (gov_snapshot.memory.cgroup). */
typedef struct gov_snapshot_memory_cgroup {
    int version;
    gov_limit_status status;
    uint64_t limit_bytes;     /**< memory.max / limit_in_bytes, min over chain */
    uint64_t high_bytes;      /**< memory.high, min over chain (v2 only) */
    /** Raw usage (page cache included) of the level that binds: the
     *  one that sets remaining_bytes, else planning_remaining_bytes,
     *  else the process's own cgroup. */
    uint64_t current_bytes;
    /** That level's working set: usage minus its reclaimable
     *  inactive file cache (v2 inactive_file, v1 total_inactive_file);
     *  the usage itself when memory.stat does not say. */
    uint64_t working_set_bytes;
    /** Distance to the OOM point: min over levels with a hard limit
     *  (memory.max, v1 limit_in_bytes, hierarchical_memory_limit) of
     *  that limit minus that level's working set. */
    uint64_t remaining_bytes;
    /** The same with memory.high as a bound too (min(max, high) minus
     *  working set): what the effective remaining plans with. */
    uint64_t planning_remaining_bytes;
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_snapshot_memory_cgroup;

/**
 * One point-in-time view of what this process may use.  Every layer is kept
 * apart; the effective values are the minimum of the known layers.  The JSON
 * rendering (gov_snapshot_json()) is the stable contract documented in
 * docs/snapshot.md.
 */
typedef struct gov_snapshot {
    uint64_t captured_ns;          /**< CLOCK_MONOTONIC at capture */

    gov_snapshot_descriptor descriptor;

    gov_snapshot_scheduler scheduler;

    struct {
        gov_snapshot_cpu_host host;
        struct {
            uint64_t count;
            gov_cpuset set;
        } affinity;
        gov_snapshot_cpu_cgroup cgroup;
        struct {
            uint64_t cpus;         /**< per-process scheduler bound */
        } scheduler;
        struct {
            double capacity_cores; /**< min of known constraints */
            uint64_t workers;      /**< floor(capacity), at least 1 */
            gov_layer binding;
        } effective;
        uint64_t reserved[8];
    } cpu;

    struct {
        struct {
            uint64_t total_bytes;
            uint64_t available_bytes;
        } host;
        gov_snapshot_memory_cgroup cgroup;
        struct {
            uint64_t limit_bytes;     /**< the step's memory on this node */
            uint64_t per_task_bytes;  /**< per-CPU memory x cpus-per-task */
        } scheduler;
        struct {
            uint64_t limit_bytes;
            uint64_t remaining_bytes;
            gov_layer binding;
        } effective;
        uint64_t reserved[8];
    } memory;

    gov_snapshot_pressure pressure;

    gov_snapshot_accel accel;

    gov_snapshot_disk disk;

    struct {
        gov_enforcement cpu;
        gov_enforcement memory;
        gov_enforcement gpu;
        /** Whether anything holds the tasks to their share of a GPU: a MIG
         *  instance's or a partition's hardware, MPS with a pinned memory
         *  limit; nothing holds a shard. */
        gov_enforcement gpu_share;   /* in the padding before the tail */
        uint64_t reserved[4];
    } enforcement;

    gov_site_policy policy;

    gov_snapshot_topology topology;
    uint64_t reserved[16];  /**< zero (see "ABI" above) */
} gov_snapshot;

/** Options for gov_context_create(); zero-initialise, then set what you need. */
typedef struct gov_options {
    /** Read every file under this directory instead of "/" (tests, debugging).
     *  Affinity then comes from DIR/proc/self/status and descriptor
     *  verification is skipped (the seal binds to the live process).  The
     *  topology is hwloc's reading of DIR, so the caller points hwloc there:
     *  HWLOC_FSROOT must name DIR in the environment when the context is
     *  created (the `governor` tool sets it for itself; a library must not
     *  set a process-wide variable); otherwise the host and task topology
     *  are unknown, never the live host's. */
    const char *sysroot;
    /** Directory whose filesystem the disk evidence describes; NULL = ".". */
    const char *workdir;
    /** Environment to read (NULL-terminated "NAME=value" array); NULL means
     *  the process environment at each capture.  Only allowlisted names are
     *  ever read. */
    const char *const *envp;
    /** MUNGE socket for verification; NULL = MUNGE's default. */
    const char *munge_socket;
    /** A uid besides 0 whose seal is trusted (Slurm's SlurmUser);
     *  GOV_UID_NONE for none. */
    uint32_t trusted_uid;
    /** Bit flags, GOV_OPT_*. */
    unsigned flags;
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_options;

#define GOV_UID_NONE UINT32_MAX
/** Do not look at GOVERNOR_DESCRIPTOR at all. */
#define GOV_OPT_NO_DESCRIPTOR 0x1u
/**
 * Strict mode: scheduler facts come from a verified descriptor or not at
 * all.  Without this flag, when GOVERNOR_DESCRIPTOR is absent or does not
 * verify, gov_snapshot_capture() falls back to the SLURM_* variables (any
 * user can change them; .scheduler.source then says "environment").  With
 * it, the variables are never used, nor are the facts that root sealed
 * from the job's environment (the GPU grant unless verified, GPUs per task,
 * memory per CPU: their *_source fields), and a capture without a verified
 * descriptor fills *out all the same (host, affinity, cgroup... evidence;
 * .scheduler.source null; .descriptor.status and .reason say what was
 * wrong) but returns an error: GOV_ENOENT when the descriptor is absent,
 * else the verification's reason (GOV_ESEAL, GOV_EUNTRUSTED, GOV_EBINDING,
 * GOV_ENODE, GOV_ENAMESPACE, GOV_EUNREACHABLE, GOV_EVERSION, GOV_EPARSE, GOV_EMUNGE,
 * GOV_ESOCKET).  In strict mode a descriptor whose maker nothing vouches
 * for (in a user namespace of the process's own: a file without root's
 * mark, munged's answer; .descriptor.unchecked "owner" or "munged"
 * otherwise) is invalid, GOV_EUNVOUCHED: the user may have made it.  Use
 * it where a budget that users could have edited is worse than none:
 * accounting, admission that must match the allocation.  Incompatible
 * with GOV_OPT_NO_DESCRIPTOR and with a sysroot (gov_context_create()
 * returns GOV_EINVAL).
 */
#define GOV_OPT_REQUIRE_DESCRIPTOR 0x2u

/** Opaque: options plus state loaded once (the host topology). */
typedef struct gov_context gov_context;

/**
 * Create a context: copies \p opts (NULL = defaults) and loads the host
 * topology once.  On success *out owns the context; release it with
 * gov_context_destroy().  Returns GOV_ENOMEM, GOV_EINVAL (also for
 * GOV_OPT_REQUIRE_DESCRIPTOR with GOV_OPT_NO_DESCRIPTOR or a sysroot other
 * than "/").  A topology that cannot be loaded is not an error: the host
 * counts become unknown.
 */
int gov_context_create(const gov_options *opts, gov_context **out);

/** Release a context (NULL is allowed). */
void gov_context_destroy(gov_context *ctx);

/**
 * Initialise a snapshot on the stack (or anywhere): every count and byte
 * quantity GOV_UNKNOWN, every fraction NaN, every tri-state -1, every enum
 * at its "none" value, captured_ns 0.  Use it, never memset, before filling
 * a synthetic snapshot: a zeroed gov_snapshot says "0 bytes of RAM, 0
 * threads", which the governor REJECTs for ever, while unknown makes work
 * WAIT (ram_unknown).  gov_snapshot_capture() starts from it.  Thread-safe.
 */
void gov_snapshot_init(gov_snapshot *snap);

/**
 * Capture a snapshot into \p out.  Reads every source of evidence once; a
 * missing or garbled source only makes its facts unknown.  Returns 0, or
 * GOV_EINVAL for NULL arguments; in strict mode (GOV_OPT_REQUIRE_DESCRIPTOR)
 * also the reason there is no verified descriptor, with *out filled all the
 * same.  Thread-safe for distinct \p out: the context is not modified.
 */
int gov_snapshot_capture(gov_context *ctx, gov_snapshot *out);

/**
 * Recompute the effective values, binding layers and enforcement of \p snap
 * from its layers.  gov_snapshot_capture() calls it; call it yourself after
 * editing layers of a synthetic snapshot.  Thread-safe.
 */
void gov_snapshot_resolve(gov_snapshot *snap);

/**
 * Render \p snap as the "governor.snapshot/1" JSON object (one line, no
 * trailing newline).  *out is a malloc'd NUL-terminated string the caller
 * frees; *len (optional) its length.  Returns 0 or GOV_ENOMEM.  Thread-safe.
 */
int gov_snapshot_json(const gov_snapshot *snap, char **out, size_t *len);

/**
 * Allocate a snapshot on the heap with every fact unknown and captured_ns 0
 * (so the governor finds it stale until it is captured into).  For bindings
 * (ctypes, FFI) that hold snapshots without mirroring this structure: pass
 * the pointer to gov_snapshot_capture(), gov_snapshot_json(),
 * gov_plan_compute() and the governor.  Release it with gov_snapshot_free().
 * Returns 0, GOV_EINVAL (NULL out) or GOV_ENOMEM.  Thread-safe.
 */
int gov_snapshot_new(gov_snapshot **out);

/** Release a snapshot from gov_snapshot_new() (NULL is allowed). */
void gov_snapshot_free(gov_snapshot *snap);

/**
 * Stable names of the enums above, as the JSON prints them ("limited",
 * "cgroup", ...): static strings, thread-safe.  One rule for all of them: a
 * value outside its enum gives NULL, and so do the "none" members that the
 * JSON prints as null (GOV_LAYER_NONE, GOV_SCHED_NONE,
 * GOV_PRESSURE_SOURCE_NONE, GOV_STEP_UNKNOWN).
 */
const char *gov_limit_status_name(gov_limit_status s);
const char *gov_enforcement_name(gov_enforcement e);
const char *gov_layer_name(gov_layer l);
const char *gov_sched_source_name(gov_sched_source s);
const char *gov_descriptor_status_name(gov_descriptor_status s);
const char *gov_descriptor_via_name(gov_descriptor_via v);
const char *gov_namespace_name(gov_namespace n);
const char *gov_binding_name(gov_binding b);
const char *gov_pressure_source_name(gov_pressure_source s);
const char *gov_profile_name(gov_profile p);
const char *gov_step_kind_name(gov_step_kind k);
const char *gov_topology_source_name(gov_topology_source s);
const char *gov_gpu_share_kind_name(gov_gpu_share_kind k);

/* ------------------------------------------------------------------------ */
/** \name Planner                                                           */
/* ------------------------------------------------------------------------ */

/** Conservative ceilings for a workload, derived from a snapshot. */
typedef struct gov_plan {
    uint64_t workers;             /**< process workers: the requested count, else 1 */
    uint64_t threads_per_worker;  /**< native threads each (OpenMP, BLAS), >= 1 */
    uint64_t cpu_workers;         /**< CPU-bound ceiling: snapshot effective workers */
    uint64_t io_workers;          /**< suggestion for I/O-bound pools */
    int oversubscribed;           /**< 1 when requested workers exceed the ceiling */
    /** This process's share of the effective memory limit (the step's memory
     *  on a node divided among its local tasks, unless allocated per task),
     *  divided among the workers; GOV_UNKNOWN when no evidence bounds it. */
    uint64_t memory_limit_per_worker;
    /** The same share of the effective remaining memory; GOV_UNKNOWN. */
    uint64_t memory_remaining_per_worker;
    /** Physical cores and NUMA nodes the process's CPUs cover
     *  (gov_snapshot.topology.task); GOV_UNKNOWN without a topology. */
    uint64_t cores;
    uint64_t numa_nodes;
    /** GOV_PLAN_PER_CORE: the process's PUs that get no thread (the SMT
     *  siblings left idle); 0 otherwise. */
    uint64_t idle_pus;
    unsigned flags;               /**< the GOV_PLAN_* flags planned with */
    /** GOV_PLAN_WORKERS_NUMA: one worker per entry of
     *  gov_snapshot.topology.numa, in its order; 0 otherwise. */
    uint32_t numa_workers;
    struct {
        uint64_t threads;         /**< native threads of this worker, >= 1 */
        uint64_t memory_limit_bytes; /**< min(the node's local memory, its share of
                                          the process's memory), GOV_UNKNOWN */
    } worker[GOV_TOPOLOGY_NUMA_MAX];
    /** What the profile in force (gov_snapshot.policy.profile) and the
     *  site's reserves keep back, as the governor does (docs/governor.md,
     *  "Profiles"): the figures above are planned without it.  0 in batch
     *  without site reserves. */
    uint64_t reserve_threads;
    uint64_t reserve_memory_bytes;
    uint64_t reserved[6];  /**< zero (see "ABI" above) */
} gov_plan;

/** One native thread per physical core of the process's CPUs (BLAS and
 *  OpenMP codes that lose with SMT); needs the task's topology. */
#define GOV_PLAN_PER_CORE 0x1u
/** One worker per NUMA node the process's CPUs span, each sized to that
 *  node's CPUs and local memory (gov_plan.worker[]); needs the topology. */
#define GOV_PLAN_WORKERS_NUMA 0x2u

/**
 * Plan \p requested_workers process workers so that workers x
 * threads_per_worker stays within the effective capacity and the workers
 * share this process's memory.  0 plans one process using the whole
 * allocation: threads_per_worker is then the CPU ceiling (what
 * OMP_NUM_THREADS means).  A process pool passes its size; the CPU ceiling
 * (cpu_workers) is the largest that does not oversubscribe.
 *
 * \p flags (GOV_PLAN_* or 0) fit the plan to the topology: PER_CORE counts
 * physical cores instead of PUs (at most the capacity still);
 * WORKERS_NUMA ignores \p requested_workers and plans one worker per NUMA
 * node of the mask, threads_per_worker and memory_limit_per_worker being
 * the smallest worker's.  Without a topology (GOV_UNKNOWN cores or NUMA
 * nodes) PER_CORE plans PUs as without it, and WORKERS_NUMA fails.
 * Returns 0, GOV_EINVAL (NULL arguments, unknown flags) or, for
 * WORKERS_NUMA without a topology or beyond GOV_TOPOLOGY_NUMA_MAX listed
 * nodes, GOV_ENOENT with *out planned as without the flag.  Thread-safe.
 */
int gov_plan_compute(const gov_snapshot *snap, uint64_t requested_workers, unsigned flags,
                     gov_plan *out);

/* ------------------------------------------------------------------------ */
/** \name Environment for a command (`governor run`)                        */
/* ------------------------------------------------------------------------ */
/*
 * Runtimes size their thread pools and heaps from what they can see: many
 * count the host's CPUs and memory, not the allocation.  gov_runenv_compute()
 * decides, from a snapshot and an environment, which variable each runtime
 * reads gets which value and why (docs/runtimes.md lists them with the
 * runtime and version that reads each).  It only decides: applying the
 * changes (setenv, sched_setaffinity) is the caller's; `governor run` and
 * the plugin's --governor=runtimes apply the same decisions.  A variable the
 * user set is kept unless GOV_RUNENV_FORCE; NODE_OPTIONS and
 * JAVA_TOOL_OPTIONS are appended to, never replaced.
 */

/** What became of one setting. */
#define GOV_RUNENV_ACTION_LIST(X)                                   \
    X(GOV_RUNENV_SET, "set")     /* set to the plan's figure */     \
    X(GOV_RUNENV_KEEP, "keep")   /* the user's own setting stays */ \
    X(GOV_RUNENV_SKIP, "skip")   /* left alone (see the reason) */  \
    /* append above this line */
typedef enum gov_runenv_action { GOV_RUNENV_ACTION_LIST(GOV_ENUM_MEMBER_) } gov_runenv_action;
enum { GOV_RUNENV_ACTION_COUNT = GOV_RUNENV_ACTION_LIST(GOV_ENUM_ONE_) 0 };

/**
 * Why: X(ENUMERATOR, "name", text), the text being what
 * gov_runenv_reason_text() says to people.  PLANNED to MARKER come with
 * SET, USER and USER_HEAP with KEEP, the rest with SKIP.
 */
#define GOV_RUNENV_REASON_LIST(X)                                                             \
    X(GOV_RUNENV_PLANNED, "planned", "the plan's figure; you had not set it")                 \
    X(GOV_RUNENV_REPLACED, "replaced", "the plan's figure, replacing what an earlier "        \
      "governor run or the plugin exported")                                                  \
    X(GOV_RUNENV_FORCED, "forced", "the plan's figure, replacing yours (--force)")            \
    X(GOV_RUNENV_POOL, "pool", "for process pools; always set")                               \
    X(GOV_RUNENV_MARKER, "marker", "records the figure exported, so that a nested run or a "  \
      "step tells it from yours and replaces it")                                             \
    X(GOV_RUNENV_USER, "user", "yours, kept (--force replaces it)")                           \
    X(GOV_RUNENV_USER_HEAP, "user_heap", "your -Xmx or -XX:MaxHeapSize sizes the heap; kept") \
    X(GOV_RUNENV_MEMORY_UNKNOWN, "memory_unknown", "no evidence of the memory budget")        \
    X(GOV_RUNENV_NO_ALLOCATION, "no_allocation", "only the host bounds memory: the "          \
      "runtime's own default applies")                                                        \
    X(GOV_RUNENV_RUNTIME_SEES, "runtime_sees", "the JVM reads the same bound itself")         \
    X(GOV_RUNENV_TOO_SMALL, "too_small", "less than 1 MiB per worker: no useful figure")      \
    X(GOV_RUNENV_CLEARED, "cleared", "removed: an earlier governor run or the plugin "        \
      "exported it for another allocation, and this one sets nothing there")                  \
    X(GOV_RUNENV_NOT_ASKED, "not_asked", "not asked for (--governor=threads sets the CPU "    \
      "variables only)")                                                                      \
    X(GOV_RUNENV_RUNTIME_HALF, "runtime_half", "the JVM gives half of a share this small "    \
      "to its heap itself, as much as the plan would")                                        \
    X(GOV_RUNENV_NOT_NUMA, "not_numa", "only with --workers numa (a list per NUMA worker)")   \
    X(GOV_RUNENV_NOT_PLACES, "not_places", "only with --omp-places (binding threads suits "   \
      "a program that owns its CPUs)")                                                        \
    X(GOV_RUNENV_NO_GPU_SHARE, "no_gpu_share", "the task holds no shared GPU (gres/shard or " \
      "gres/mps): a whole GPU, a MIG instance or a partition is the runtime's own to size")    \
    X(GOV_RUNENV_NOT_MPS, "not_mps", "only for an MPS client (gres/mps)")                     \
    X(GOV_RUNENV_GPU_MEMORY_UNKNOWN, "gpu_memory_unknown", "the GPU memory of the share is "  \
      "not known (no card memory figure)")                                                    \
    /* append above this line */
typedef enum gov_runenv_reason { GOV_RUNENV_REASON_LIST(GOV_ENUM_MEMBER_) } gov_runenv_reason;
enum { GOV_RUNENV_REASON_COUNT = GOV_RUNENV_REASON_LIST(GOV_ENUM_ONE_) 0 };

/** One decision: a variable, or one option inside an option variable. */
typedef struct gov_runenv_entry {
    const char *name;        /**< the variable (static storage) */
    const char *option;      /**< the option inside it ("--max-old-space-size"),
                                  NULL for a plain value (static storage) */
    const char *runtime;     /**< who reads it, from which version (static storage) */
    gov_runenv_action action;
    gov_runenv_reason reason;
    /** SET: what was set ("2", "460MiB", "--max-old-space-size=384");
     *  KEEP: the user's own setting of this knob, cut to fit; SKIP: "". */
    char setting[48];
    uint64_t planned;        /**< the plan's figure: a count, or bytes for memory
                                  knobs; GOV_UNKNOWN when none applies */
    uint64_t user;           /**< KEEP: the user's figure in the same unit,
                                  GOV_UNKNOWN when it is not a number ("auto") */
    int exceeds;             /**< KEEP: 1 when user > planned */
    int bytes;               /**< 1: planned, user and basis count bytes; 0: CPUs
                                  or threads (thousandths of a GPU where gpu is 1) */
    /** Memory knobs: the per-worker share the figure derives from (bytes).
     *  GPU knobs: the task's share of its GPU (thousandths of one GPU, or
     *  bytes of GPU memory where bytes is 1).
     *  SKIP for RUNTIME_SEES: what the JVM reads itself (CPUs or bytes).
     *  Else GOV_UNKNOWN. */
    uint64_t basis;
    int gpu;                 /**< 1: a GPU memory knob (docs/runtimes.md, "GPU
                                  variables"): planned, user and basis are of
                                  the task's GPU */
    uint64_t reserved[3];  /**< zero (see "ABI" above) */
} gov_runenv_entry;

/** One change to the environment: value NULL means unset NAME. */
typedef struct gov_runenv_var {
    const char *name;        /**< static storage */
    char *value;             /**< owned by the gov_runenv */
    uint64_t reserved[2];  /**< zero (see "ABI" above) */
} gov_runenv_var;

/** The decisions for one command; release with gov_runenv_free(). */
typedef struct gov_runenv {
    gov_plan plan;           /**< the command's own plan (one process, or the
                                  requested workers) */
    gov_plan pool;           /**< the GOVERNOR_* figures for a process pool: the
                                  requested workers, else the CPU ceiling */
    gov_runenv_entry *entries; /**< every knob, in a fixed order */
    size_t count;
    gov_runenv_var *vars;    /**< the changes to apply, in order; each NAME once */
    size_t nvars;
    /** The affinity to give the command: affinity_count > 0 means narrow the
     *  mask to \p affinity (that many CPUs of the current mask, in its order
     *  from the SLURM_LOCALID-th group of that many, wrapping, so that tasks
     *  sharing a mask spread over it; the lowest-numbered without
     *  SLURM_LOCALID) under a CPU quota smaller than the mask, so that
     *  runtimes that count only the mask (Node's os.availableParallelism(),
     *  Python's os.sched_getaffinity()) see the plan; 0 leaves it alone. */
    uint64_t affinity_count;
    gov_cpuset affinity;
    uint64_t affinity_from;  /**< the mask's CPUs before, GOV_UNKNOWN */
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_runenv;

/** Replace the user's own settings too. */
#define GOV_RUNENV_FORCE 0x1u
/** Set the CPU variables only; memory hints and pool figures an earlier run
 *  exported are removed (the plugin's --governor=threads). */
#define GOV_RUNENV_CPU_ONLY 0x2u
/** Set nothing; remove what an earlier run exported (a step without the
 *  governor inside a governed job).  Not with GOV_RUNENV_CPU_ONLY. */
#define GOV_RUNENV_CLEAR 0x4u
/** Never narrow the affinity (see gov_runenv.affinity_count). */
#define GOV_RUNENV_KEEP_AFFINITY 0x8u
/** Plan with GOV_PLAN_PER_CORE: one thread per physical core. */
#define GOV_RUNENV_PER_CORE 0x10u
/** Plan with GOV_PLAN_WORKERS_NUMA, both the command and the pool: one
 *  worker per NUMA node, and the lists GOVERNOR_WORKER_THREADS,
 *  GOVERNOR_WORKER_MEMORY (comma-separated) and GOVERNOR_WORKER_CPUS
 *  (CPU lists, colon-separated) for a launcher that starts and binds them.
 *  The affinity is then never narrowed (each worker gets its own CPUs). */
#define GOV_RUNENV_WORKERS_NUMA 0x20u
/** Set OMP_PLACES (cores with PER_CORE, else threads) and OMP_PROC_BIND
 *  (close), which are never set otherwise: binding is for a program that
 *  owns its CPUs. */
#define GOV_RUNENV_OMP_PLACES 0x40u

/**
 * Decide the environment of a command that runs \p requested_workers
 * process workers (0: one process using the whole allocation) in the
 * allocation \p snap describes.  \p envp is the command's current
 * environment, a NULL-terminated "NAME=value" array (NULL: an empty one); it
 * is only read.  \p flags: GOV_RUNENV_* or 0.  A value that is exactly what
 * the markers GOVERNOR_THREADS and GOVERNOR_MEMORY_SHARE in \p envp say an
 * earlier run exported is replaced in place (or removed), never kept as the
 * user's.  Memory hints derive from the allocation's share
 * (gov_plan.memory_limit_per_worker), not from the memory free at this
 * moment, so that the same allocation always gives the same environment.
 * Under a CPU quota smaller than the affinity mask the affinity narrows
 * (gov_runenv.affinity_count) and every figure is planned for the narrowed
 * mask.  On success *out is a
 * gov_runenv the caller releases with gov_runenv_free(); it holds copies,
 * nothing points into \p envp.  Returns 0, GOV_EINVAL (NULL snap or out,
 * unknown flags), GOV_ENOENT (GOV_RUNENV_WORKERS_NUMA without the task's
 * topology) or GOV_ENOMEM.  Pure: reads no files and no process
 * state.  Thread-safe.
 */
int gov_runenv_compute(const gov_snapshot *snap, uint64_t requested_workers,
                       const char *const *envp, unsigned flags, gov_runenv **out);

/** Release a gov_runenv (NULL is allowed). */
void gov_runenv_free(gov_runenv *env);

/** Stable names: "set", "keep", "skip"; "planned", "replaced", ... (JSON);
 *  NULL for a value outside the enum, as gov_layer_name() and the others. */
const char *gov_runenv_action_name(gov_runenv_action a);
const char *gov_runenv_reason_name(gov_runenv_reason r);
/** A sentence explaining a reason, for people; NULL outside the enum. */
const char *gov_runenv_reason_text(gov_runenv_reason r);

/* ------------------------------------------------------------------------ */
/** \name Governor: admission, reservations, pressure                       */
/* ------------------------------------------------------------------------ */
/*
 * The governor alone owns the budgets (RAM, CPU threads, I/O slots, one GPU)
 * of this process.  Callers describe work with an immutable gov_estimate,
 * present a fresh gov_snapshot, and get a gov_decision: ADMIT (with the batch
 * size and thread count to use), WAIT (with a reason; try again with a newer
 * snapshot or after gov_governor_wait_for_change()), or REJECT (the estimate
 * can never fit this budget).  Work runs only while it holds a reservation;
 * each reservation is released exactly once.  docs/governor.md states every
 * rule in English with the test that checks it.
 *
 * Thread safety: every gov_governor_* call may be made from any thread at
 * any time on the same governor, except gov_governor_destroy(), which must
 * not race with any other call on that governor.
 *
 * What the governor reads of a snapshot (docs/governor.md): RAM from
 * memory.host.total_bytes ("physical RAM"), memory.host.available_bytes
 * (MemAvailable) and memory.effective.limit_bytes / .remaining_bytes
 * ("detected RAM" is the smaller of physical RAM and the effective limit);
 * CPU threads from cpu.effective.workers, else cpu.host.logical ("logical
 * threads"); pressure.cpu_some_avg10, .memory_some_avg10 and the swap
 * counters; the GPU from accel.gpu_index, .gpu_vram_total_bytes,
 * .gpu_vram_used_bytes, .gpu_unified and scheduler.gpus_verified /
 * .gpus_on_node; the site policy from policy (when policy.present), else the
 * default profile from scheduler.source; and captured_ns.  Start a synthetic
 * snapshot with gov_snapshot_init(): unknown is WAIT, zero is REJECT.
 *
 * Snapshots: a snapshot is valid for a decision while its age (governor
 * clock minus captured_ns) is at most GOV_SNAPSHOT_MAX_AGE_NS, inclusive.  An
 * older snapshot, or one captured in the governor clock's future, yields
 * WAIT with no reservation and no change to the pressure state.  A valid
 * snapshot newer than any seen before is an "observation": it advances the
 * pressure state machine (decide, reserve, reserve_available and pressure
 * observe; availability only reads).
 */

/** Largest snapshot age accepted, inclusive: 1000 ms. */
#define GOV_SNAPSHOT_MAX_AGE_NS 1000000000ull
/** Entries of batch history kept per task class (a FIFO ring). */
#define GOV_HISTORY_LEN 8
/** Consecutive healthy observations per recovery or doubling step. */
#define GOV_RECOVERY_STEP 3
/** Streak counters saturate at this value instead of wrapping. */
#define GOV_STREAK_MAX 65535u
/** PSI gates: new admissions WAIT at or above these avg10 percentages. */
#define GOV_PSI_CPU_GATE_PCT 20.0
#define GOV_PSI_MEMORY_GATE_PCT 1.0
/** I/O slots when gov_governor_options.io_slots is 0. */
#define GOV_DEFAULT_IO_SLOTS 4u
/** Task classes with history when gov_governor_options.max_classes is 0. */
#define GOV_DEFAULT_MAX_CLASSES 64u

/** Memory pressure level (seed hysteresis; see gov_governor_pressure()). */
#define GOV_PRESSURE_LEVEL_LIST(X) \
    X(GOV_GREEN, "green")          \
    X(GOV_YELLOW, "yellow")        \
    X(GOV_RED, "red")              \
    /* append above this line */
typedef enum gov_pressure_level { GOV_PRESSURE_LEVEL_LIST(GOV_ENUM_MEMBER_) } gov_pressure_level;
enum { GOV_PRESSURE_LEVEL_COUNT = GOV_PRESSURE_LEVEL_LIST(GOV_ENUM_ONE_) 0 };

/**
 * Why the batch ceiling is where it is (gov_decision, gov_pressure_state).
 * The ceiling starts at 1 and grows only with observations: snapshots newer
 * than any seen before.  A client that presents the same snapshot again and
 * again stays at 1 (GOV_CEILING_GROWING with no new observation).
 */
#define GOV_CEILING_REASON_LIST(X)                                                       \
    X(GOV_CEILING_NO_OBSERVATION, "no_observation") /* no valid snapshot observed yet */ \
    X(GOV_CEILING_GROWING, "growing")   /* GREEN: doubles after every GOV_RECOVERY_STEP  \
                                           healthy observations of newer snapshots */    \
    X(GOV_CEILING_LARGEST, "largest")   /* at the largest batch_max seen (or max_batch): \
                                           it cannot grow further */                     \
    X(GOV_CEILING_PRESSURE, "pressure") /* YELLOW or RED: held at 1 while the level      \
                                           recovers (GOV_RECOVERY_STEP healthy           \
                                           observations per level) */                    \
    X(GOV_CEILING_RAM_UNKNOWN, "ram_unknown") /* the last observation knew no RAM bound: \
                                                 it counted neither as healthy nor as    \
                                                 pressure */                             \
    X(GOV_CEILING_GATED, "gated")       /* GREEN, but the last observation's PSI held    \
                                           new admissions: the ceiling neither grows     \
                                           nor recovers until it opens */                \
    /* append above this line */
typedef enum gov_ceiling_reason { GOV_CEILING_REASON_LIST(GOV_ENUM_MEMBER_) } gov_ceiling_reason;
enum { GOV_CEILING_REASON_COUNT = GOV_CEILING_REASON_LIST(GOV_ENUM_ONE_) 0 };

/** What a decision says. */
#define GOV_VERDICT_LIST(X)                                                          \
    X(GOV_ADMIT, "admit")   /* reserve and run `batch` items on `threads` threads */ \
    X(GOV_WAIT, "wait")     /* not now: see the reason */                            \
    X(GOV_REJECT, "reject") /* never: the estimate exceeds the whole budget */       \
    /* append above this line */
typedef enum gov_verdict { GOV_VERDICT_LIST(GOV_ENUM_MEMBER_) } gov_verdict;
enum { GOV_VERDICT_COUNT = GOV_VERDICT_LIST(GOV_ENUM_ONE_) 0 };

/** Why a decision is WAIT or REJECT (GOV_REASON_NONE for ADMIT). */
#define GOV_REASON_LIST(X)                                                                     \
    X(GOV_REASON_NONE, "none")                                                                 \
    X(GOV_REASON_STALE_SNAPSHOT, "stale_snapshot")   /* older than GOV_SNAPSHOT_MAX_AGE_NS */  \
    X(GOV_REASON_FUTURE_SNAPSHOT, "future_snapshot") /* captured after the governor's "now" */ \
    X(GOV_REASON_CPU_PRESSURE, "cpu_pressure")       /* PSI cpu some avg10 >= 20 % */          \
    X(GOV_REASON_MEMORY_PRESSURE, "memory_pressure") /* PSI memory some avg10 >= 1 % */        \
    X(GOV_REASON_RAM, "ram")          /* not enough RAM (now, or ever: REJECT) */              \
    X(GOV_REASON_RAM_UNKNOWN, "ram_unknown") /* work needs RAM and no RAM bound is known */    \
    X(GOV_REASON_CPU, "cpu")          /* no CPU thread free (now, or ever) */                  \
    X(GOV_REASON_IO, "io")            /* no I/O slot free (now, or ever) */                    \
    X(GOV_REASON_GPU, "gpu")          /* the GPU is taken, or there is none (REJECT) */        \
    X(GOV_REASON_GPU_MEMORY, "gpu_memory") /* not enough (or unknown) memory on the GPU */     \
    X(GOV_REASON_BATCH_CEILING, "batch_ceiling") /* batch_min exceeds the pressure ceiling */  \
    /* append above this line */
typedef enum gov_reason { GOV_REASON_LIST(GOV_ENUM_MEMBER_) } gov_reason;
enum { GOV_REASON_COUNT = GOV_REASON_LIST(GOV_ENUM_ONE_) 0 };

/**
 * An immutable description of one kind of work.  Bytes of a batch of n items
 * are fixed_bytes + n * bytes_per_item (or more, once history shows that
 * items cost more; see gov_governor_record_batch()).  A GPU task
 * (gpu_slots == 1) uses those bytes on the GPU: on a discrete card they must
 * fit its free memory as well as RAM; on unified memory (UMA) they are
 * debited from RAM once.  batch_min >= 1 and batch_min <= batch_max.
 */
typedef struct gov_estimate {
    uint32_t task_class;      /**< caller-chosen id; history is kept per class */
    uint64_t fixed_bytes;
    uint64_t bytes_per_item;
    uint64_t cpu_threads;     /**< a maximum; the governor reduces it to the budget */
    uint64_t io_slots;
    uint64_t gpu_slots;       /**< 0 or 1 (one GPU is governed; more is REJECT) */
    uint64_t batch_min;
    uint64_t batch_max;
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_estimate;

/** The outcome of gov_governor_decide() / _reserve() / _reserve_available(). */
typedef struct gov_decision {
    gov_verdict verdict;
    gov_reason reason;          /**< GOV_REASON_NONE for ADMIT */
    uint64_t batch;             /**< items to run (ADMIT), else 0 */
    uint64_t threads;           /**< CPU threads granted (ADMIT), else 0 */
    uint64_t ram_bytes;         /**< RAM the batch needs (ADMIT), else 0 */
    gov_pressure_level pressure;/**< level after this decision's observation */
    uint64_t ceiling;           /**< batch ceiling after it */
    gov_ceiling_reason ceiling_reason; /**< why the ceiling is there */
    /** For every verdict, so that a WAIT or REJECT shows its shortfall:
     *  the bytes per item the governor planned with (the estimate's, raised
     *  by history), the RAM the smallest batch considered needs (batch_min,
     *  or the items asked for), and the RAM free for new work at the
     *  decision (GOV_UNKNOWN when no RAM bound is known or the snapshot was
     *  not valid). */
    uint64_t bytes_per_item;
    uint64_t ram_needed_bytes;
    uint64_t ram_free_bytes;
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_decision;

/** An opaque reservation handle: a plain value, id 0 means "none". */
typedef struct gov_reservation {
    uint64_t id;
} gov_reservation;

/**
 * What the caller asks of policy (gov_governor_set_policy()).  It can only
 * tighten the site policy carried by the snapshot, never loosen it: the
 * reserve used is the largest of the profile's, the site's and the caller's.
 */
typedef struct gov_policy {
    int profile_set;               /**< 0: use the site's profile, else the
                                        default (batch inside a scheduler
                                        allocation, interactive outside) */
    gov_profile profile;           /**< ignored when the site imposes one,
                                        unless it is the stricter interactive */
    uint64_t mem_reserve_bytes;    /**< extra absolute RAM reserve, GOV_UNKNOWN = none */
    uint32_t mem_reserve_pct;      /**< % of detected RAM, 0..100, 0 = none */
    uint64_t cpu_reserve_threads;  /**< absolute, GOV_UNKNOWN = none */
    uint32_t cpu_reserve_pct;      /**< % of detected threads, 0..100 */
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_policy;

/** Metrics of one finished batch. */
typedef struct gov_batch_record {
    uint64_t items;               /**< items the batch produced (may be 0) */
    uint64_t peak_memory_bytes;   /**< 0 means unknown: never feeds adaptation */
    uint64_t duration_ns;         /**< kept, not used for adaptation */
    uint64_t reserved[4];  /**< zero (see "ABI" above) */
} gov_batch_record;

/** Budget and use at one moment (gov_governor_availability()). */
typedef struct gov_availability {
    int snapshot_valid;          /**< 0 when the snapshot was stale or future */
    gov_profile profile;         /**< the profile in force */
    uint64_t detected_ram_bytes; /**< see docs/governor.md; GOV_UNKNOWN */
    uint64_t detected_threads;   /**< GOV_UNKNOWN when unknown */
    uint64_t ram_bytes;          /**< free for new work; GOV_UNKNOWN if no bound */
    uint64_t ram_reserve_bytes;  /**< host reserve */
    uint64_t ram_reserved_bytes; /**< held by active reservations */
    uint64_t threads;            /**< free for new work; GOV_UNKNOWN if unknown */
    uint64_t threads_reserve;
    uint64_t threads_reserved;
    uint64_t io_slots;           /**< free */
    uint64_t io_reserved;
    uint64_t gpu_slots;          /**< free: 0 or 1 */
    uint64_t gpu_free_bytes;     /**< discrete card: total - used - reserved;
                                      UMA or no GPU or unknown: GOV_UNKNOWN */
    uint64_t active_reservations;
    gov_pressure_level pressure;
    uint64_t ceiling;
    uint64_t generation;
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_availability;

/** The pressure state machine (gov_governor_pressure()). */
typedef struct gov_pressure_state {
    gov_pressure_level level;
    uint64_t ceiling;            /**< largest batch admitted now, >= 1 */
    gov_ceiling_reason ceiling_reason;
    uint32_t healthy_streak;     /**< consecutive healthy observations (saturates) */
    uint32_t swap_streak;        /**< consecutive swap-activity deltas (saturates) */
    uint64_t observations;       /**< snapshots observed (saturates) */
    /** Kernel pressure triggers that fired since gov_governor_follow_triggers()
     *  (0 without them); each one also bumped the generation. */
    uint64_t triggers_fired;
    uint64_t reserved[7];  /**< zero (see "ABI" above) */
} gov_pressure_state;

/** Returns CLOCK_MONOTONIC-like nanoseconds; \p arg is the options' clock_arg. */
typedef uint64_t (*gov_clock_fn)(void *arg);

/** Options for gov_governor_create(); zero-initialise, set what you need. */
typedef struct gov_governor_options {
    /** The clock that dates snapshots; NULL = clock_gettime(CLOCK_MONOTONIC).
     *  Must be monotonic and callable from any thread.  For tests. */
    gov_clock_fn clock;
    void *clock_arg;
    /** First reservation id; 0 = 1.  Ids then count up to UINT64_MAX
     *  inclusive (tests start near the end to reach it). */
    uint64_t first_reservation_id;
    /** I/O slots in the budget; 0 = GOV_DEFAULT_IO_SLOTS. */
    uint64_t io_slots;
    /** Task classes that keep history; 0 = GOV_DEFAULT_MAX_CLASSES. */
    uint32_t max_classes;
    /** A batch size the ceiling may grow to before any estimate asks for
     *  it (a monitor such as `governor watch` decides nothing); 0 = only
     *  the largest batch_max of the estimates seen. */
    uint64_t max_batch;
    uint64_t reserved[8];  /**< zero (see "ABI" above) */
} gov_governor_options;

/** Opaque: budgets, reservations, pressure state and history. */
typedef struct gov_governor gov_governor;

/**
 * Create a governor (\p opts NULL = defaults): GREEN, ceiling 1, no
 * reservations, no history, caller policy empty.  *out owns it; release it
 * with gov_governor_destroy().  Returns 0, GOV_EINVAL (NULL out), GOV_ENOMEM.
 */
int gov_governor_create(const gov_governor_options *opts, gov_governor **out);

/**
 * Destroy a governor (NULL allowed).  Outstanding reservations die with it.
 * Must not race with other calls on it (no thread may be inside
 * gov_governor_wait_for_change()).
 */
void gov_governor_destroy(gov_governor *gov);

/**
 * Set the caller's policy (copied).  It tightens the snapshot's site policy
 * and the profile's reserve, never loosens them.  Returns 0, or GOV_EINVAL
 * for NULL or a percentage above 100.  Thread-safe; bumps the generation.
 */
int gov_governor_set_policy(gov_governor *gov, const gov_policy *policy);

/**
 * Decide whether \p est can be admitted now against \p snap, without
 * reserving anything.  The batch is the largest one that fits: at most
 * batch_max, the ceiling and what RAM allows.  The ceiling starts at 1 and
 * grows only as newer snapshots are observed (out->ceiling_reason says why
 * it is where it is): capture a fresh snapshot for each decision.  Returns 0 with *out filled
 * (for any verdict), or GOV_EINVAL (NULL argument, batch_min 0 or above
 * batch_max).  Observes \p snap (see above).  Thread-safe.
 */
int gov_governor_decide(gov_governor *gov, const gov_snapshot *snap,
                        const gov_estimate *est, gov_decision *out);

/**
 * Decide for exactly \p items items (batch_min <= items <= batch_max) and,
 * on ADMIT, reserve them: *res gets a fresh id.  On WAIT/REJECT *res is
 * {0} and nothing is reserved.  Returns 0 (check out->verdict), GOV_EINVAL
 * (bad argument or items out of range), GOV_ENOMEM (the reservation table
 * could not grow), GOV_EOVERFLOW (UINT64_MAX was already issued: no
 * reservation, no accounting or policy change).  Thread-safe.
 */
int gov_governor_reserve(gov_governor *gov, const gov_snapshot *snap,
                         const gov_estimate *est, uint64_t items,
                         gov_decision *out, gov_reservation *res);

/**
 * Like gov_governor_reserve() for the largest batch that fits now (what
 * gov_governor_decide() would admit), decided and reserved atomically.
 */
int gov_governor_reserve_available(gov_governor *gov, const gov_snapshot *snap,
                                   const gov_estimate *est, gov_decision *out,
                                   gov_reservation *res);

/**
 * Release a reservation, returning its resources to the budget.  Returns 0;
 * GOV_EALREADY when it was already released; GOV_EINVAL for id 0 or an id
 * this governor never issued.  Thread-safe; wakes waiters.
 */
int gov_governor_release(gov_governor *gov, gov_reservation res);

/** 1 when \p res is held (issued and not released), else 0.  Thread-safe. */
int gov_governor_reservation_is_valid(gov_governor *gov, gov_reservation res);

/**
 * Budget and use against \p snap, without observing it (no state change).
 * Computed even for a stale snapshot (then out->snapshot_valid is 0).
 * Returns 0 or GOV_EINVAL.  Thread-safe.
 */
int gov_governor_availability(gov_governor *gov, const gov_snapshot *snap,
                              gov_availability *out);

/**
 * Add a finished batch's metrics to the FIFO ring of its class (the oldest
 * of GOV_HISTORY_LEN entries is dropped).  A record with peak_memory_bytes 0
 * or items 0 is kept but never changes the memory estimate.  Returns 0,
 * GOV_EINVAL, or GOV_ENOSPC when max_classes classes already have history.
 * Thread-safe; bumps the generation.
 */
int gov_governor_record_batch(gov_governor *gov, uint32_t task_class,
                              const gov_batch_record *rec);

/**
 * The generation: a counter bumped by every reservation, release, policy
 * change, history record and change of pressure level or ceiling.
 * Thread-safe.
 */
uint64_t gov_governor_generation(gov_governor *gov);

/**
 * Block until the generation differs from \p seen or \p timeout_ms passes
 * (CLOCK_MONOTONIC).  *now_gen (optional) gets the generation.  Returns 0
 * on a change, GOV_ETIMEDOUT, or GOV_EINVAL.  Thread-safe.
 */
int gov_governor_wait_for_change(gov_governor *gov, uint64_t seen,
                                 uint64_t timeout_ms, uint64_t *now_gen);

/**
 * Read the pressure state.  With \p snap non-NULL it is first observed like
 * a decision's snapshot (ignored when stale, future or not newer than the
 * last observation).  Returns 0 or GOV_EINVAL.  Thread-safe.
 */
int gov_governor_pressure(gov_governor *gov, const gov_snapshot *snap,
                          gov_pressure_state *out);

/* ------------------------------------------------------------------------ */
/** \name Pressure triggers: waiting on the kernel, not on a clock         */
/* ------------------------------------------------------------------------ */
/*
 * systemd's protocol, which `srun --governor=pressure` follows on cgroup v2
 * (and systemd for its services): $MEMORY_PRESSURE_WATCH names a PSI file,
 * $MEMORY_PRESSURE_WRITE (base64) the trigger to write into it, "some
 * 200000 2000000" for 200 ms of stall in any 2 s; CPU_ and IO_ pairs
 * likewise.  The file then polls readable-priority (POLLPRI) each time the
 * stall crosses the threshold within the window.
 */

/** The resources a trigger watches, as bits of a mask. */
#define GOV_TRIGGER_MEMORY 0x1u
#define GOV_TRIGGER_CPU    0x2u
#define GOV_TRIGGER_IO     0x4u

/** Opaque: the open PSI files and their triggers. */
typedef struct gov_pressure_triggers gov_pressure_triggers;

/**
 * Open the triggers this process's environment hands it.  A pair whose
 * WATCH is unset, empty or "/dev/null" opens nothing, and none at all is
 * no error: *out then watches nothing (gov_pressure_triggers_kinds() 0).
 * *out owns the files; close it with gov_pressure_triggers_close().
 * Returns 0; GOV_EINVAL (NULL out); GOV_EPARSE (a WRITE that is not base64
 * of a trigger, or missing beside its WATCH); GOV_ENOMEM; or the system's
 * error opening a file or writing the trigger (GOV_EACCES when the file is
 * not the process's to write, -EPERM or GOV_EINVAL when the kernel refuses
 * the trigger), *out NULL.  Reads the environment: not thread-safe against
 * setenv().
 */
int gov_pressure_triggers_open(gov_pressure_triggers **out);

/** The GOV_TRIGGER_* bits \p t watches (0 for NULL).  Thread-safe. */
unsigned gov_pressure_triggers_kinds(const gov_pressure_triggers *t);

/**
 * Sleep until a trigger fires or \p timeout_ms passes.  *fired (optional)
 * gets the GOV_TRIGGER_* bits that fired (0 on a timeout).  With no
 * trigger it sleeps the whole timeout.  Returns 0 (fired), GOV_ETIMEDOUT,
 * GOV_EINVAL (NULL t), or the system's error from poll(2) (-ENODEV: the
 * cgroup went away).  One thread at a time per \p t.
 */
int gov_pressure_triggers_wait(gov_pressure_triggers *t, uint64_t timeout_ms,
                               unsigned *fired);

/**
 * Close the files (NULL allowed).  Must not race with a wait on \p t, nor
 * outlive a governor following it (destroy that first).
 */
void gov_pressure_triggers_close(gov_pressure_triggers *t);

/**
 * Make \p gov wake its waiters when a trigger of \p t fires: the governor
 * starts one thread that sleeps in poll(2) on \p t's files and, at each
 * event, counts it (gov_pressure_state.triggers_fired) and bumps the
 * generation, so that gov_governor_wait_for_change() returns at once and
 * the caller captures a fresh snapshot when the kernel reports pressure,
 * not at its next timeout.  \p t stays the caller's and must stay open
 * until gov_governor_destroy(), which stops the thread.  Once per
 * governor.  Returns 0; GOV_EINVAL (NULL, or \p t watches nothing);
 * GOV_EALREADY (already following); GOV_ENOMEM (no thread or pipe).
 * Thread-safe.
 */
int gov_governor_follow_triggers(gov_governor *gov, gov_pressure_triggers *t);

/** Stable names: "green", "admit", "stale_snapshot"...  Static strings;
 *  NULL for a value outside the enum (the rule of the snapshot's names). */
const char *gov_pressure_level_name(gov_pressure_level l);
const char *gov_verdict_name(gov_verdict v);
const char *gov_reason_name(gov_reason r);
const char *gov_ceiling_reason_name(gov_ceiling_reason c);

#ifdef __cplusplus
}
#endif

#endif /* GOVERNOR_H */
