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
 *    errno-style code (GOV_E*); gov_strerror() names it.  The library never
 *    calls exit() and never prints.
 *  - A count or byte quantity that no evidence supports is GOV_UNKNOWN; a
 *    fractional quantity that no evidence supports is NaN (test with
 *    gov_known_f()).
 *  - Memory returned through a `char **` out parameter belongs to the caller
 *    and is released with free().  Structures are plain values the caller
 *    owns; they hold no pointers into library memory.
 *  - No global mutable state: everything lives in a gov_context or a
 *    gov_governor.  Thread safety is stated per call.
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

#define GOV_VERSION_MAJOR 0
#define GOV_VERSION_MINOR 1
#define GOV_VERSION_PATCH 0

/** The JSON schema name printed in every snapshot. */
#define GOV_SNAPSHOT_SCHEMA "governor.snapshot/1"

/** The environment variable that carries the sealed descriptor. */
#define GOV_DESCRIPTOR_ENV "GOVERNOR_DESCRIPTOR"

/* ------------------------------------------------------------------------ */
/** \name Errors                                                            */
/* ------------------------------------------------------------------------ */

/* System errors keep their errno value, negated (libuv style). */
#define GOV_EINVAL    (-EINVAL)    /**< an argument is out of its domain */
#define GOV_ENOMEM    (-ENOMEM)    /**< allocation failed */
#define GOV_ENOENT    (-ENOENT)    /**< a file or variable is absent */
#define GOV_EACCES    (-EACCES)    /**< permission denied */
#define GOV_EIO       (-EIO)       /**< a read failed */
#define GOV_ERANGE    (-ERANGE)    /**< a value does not fit its type */
#define GOV_ENOSPC    (-ENOSPC)    /**< an output buffer is too small */
#define GOV_ETIMEDOUT (-ETIMEDOUT) /**< a wait ran out of time */
#define GOV_EALREADY  (-EALREADY)  /**< a reservation was already released */
#define GOV_ENOTSUP   (-ENOTSUP)   /**< built without the needed support */
#define GOV_EOVERFLOW (-EOVERFLOW) /**< an identifier space is exhausted */

/* Project errors live above the errno range. */
#define GOV_EPARSE    (-4001) /**< text does not follow its grammar */
#define GOV_ESEAL     (-4002) /**< the MUNGE seal does not verify */
#define GOV_EUNTRUSTED (-4003) /**< sealed by a uid that is not trusted */
#define GOV_EBINDING  (-4004) /**< descriptor bound to another job/step/node/uid */
#define GOV_EVERSION  (-4005) /**< descriptor version not understood */
#define GOV_EMUNGE    (-4006) /**< MUNGE itself failed (daemon unreachable...) */

/**
 * Name an error code.  Returns a static, human-readable string for any int,
 * including unknown codes ("unknown error").  Thread-safe.
 */
const char *gov_strerror(int err);

/**
 * Short symbolic name of an error code ("EINVAL", "EPARSE"), for JSON and
 * logs.  Static string; "UNKNOWN" for unknown codes.  Thread-safe.
 */
const char *gov_err_name(int err);

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

/** Status of a cgroup limit: evidence of a limit, of none, or no evidence. */
typedef enum gov_limit_status {
    GOV_LIMIT_UNKNOWN = 0,
    GOV_LIMIT_LIMITED,
    GOV_LIMIT_UNLIMITED,
} gov_limit_status;

/** Whether the kernel holds the process to its allocation. */
typedef enum gov_enforcement {
    GOV_ENFORCEMENT_UNKNOWN = 0,
    GOV_ENFORCED,
    GOV_NOT_ENFORCED,
} gov_enforcement;

/** The layer that sets an effective value. */
typedef enum gov_layer {
    GOV_LAYER_NONE = 0,  /**< nothing known */
    GOV_LAYER_HOST,
    GOV_LAYER_AFFINITY,
    GOV_LAYER_CPUSET,
    GOV_LAYER_QUOTA,
    GOV_LAYER_CGROUP,    /**< memory.max / memory.high / v1 limits */
    GOV_LAYER_SCHEDULER,
} gov_layer;

/** Where the scheduler facts come from. */
typedef enum gov_sched_source {
    GOV_SCHED_NONE = 0,        /**< no scheduler evidence */
    GOV_SCHED_DESCRIPTOR,      /**< the verified, sealed descriptor */
    GOV_SCHED_ENVIRONMENT,     /**< SLURM_* variables (any user can change them) */
} gov_sched_source;

/** What became of the sealed descriptor. */
typedef enum gov_descriptor_status {
    GOV_DESCRIPTOR_ABSENT = 0,
    GOV_DESCRIPTOR_VERIFIED,
    GOV_DESCRIPTOR_INVALID,    /**< see gov_snapshot.descriptor.reason */
} gov_descriptor_status;

/** Where PSI figures come from. */
typedef enum gov_pressure_source {
    GOV_PRESSURE_SOURCE_NONE = 0,
    GOV_PRESSURE_SOURCE_CGROUP,   /**< the process's v2 cgroup *.pressure */
    GOV_PRESSURE_SOURCE_SYSTEM,   /**< /proc/pressure */
} gov_pressure_source;

/** Slurm step kinds that the plugin and the snapshot treat deliberately. */
typedef enum gov_step_kind {
    GOV_STEP_UNKNOWN = 0,
    GOV_STEP_NORMAL,
    GOV_STEP_BATCH,
    GOV_STEP_EXTERN,
    GOV_STEP_INTERACTIVE,
} gov_step_kind;

/** Admission profile (see the governor section). */
typedef enum gov_profile {
    GOV_PROFILE_BATCH = 0,        /**< keeps no host reserve */
    GOV_PROFILE_INTERACTIVE,      /**< keeps a quarter of RAM and threads */
} gov_profile;

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
} gov_site_policy;

/**
 * One point-in-time view of what this process may use.  Every layer is kept
 * apart; the effective values are the minimum of the known layers.  The JSON
 * rendering (gov_snapshot_json()) is the stable contract documented in
 * docs/snapshot.md.
 */
typedef struct gov_snapshot {
    uint64_t captured_ns;          /**< CLOCK_MONOTONIC at capture */

    struct {
        gov_descriptor_status status;
        int reason;                /**< GOV_E* code when invalid, else 0 */
        uint64_t age_s;            /**< seconds since sealing, GOV_UNKNOWN if absent */
        int replayed;              /**< MUNGE said REPLAYED (decoded before) */
        int expired;               /**< MUNGE said EXPIRED (older than its TTL) */
    } descriptor;

    struct {
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
        int gpus_verified;         /**< 1 when GPU facts come from gres evidence */
    } scheduler;

    struct {
        struct {
            uint64_t logical;      /**< logical CPUs (PUs) of the host */
            uint64_t physical;     /**< physical cores, never derived from logical */
            uint64_t packages;
            uint64_t numa_nodes;
            uint64_t online;       /**< CPUs in .../cpu/online */
        } host;
        struct {
            uint64_t count;
            gov_cpuset set;
        } affinity;
        struct {
            int version;           /**< 1, 2, or 0 when no cgroup was found */
            uint64_t cpuset_count; /**< effective cpuset, GOV_UNKNOWN if unseen */
            gov_cpuset cpuset;
            double quota_cores;    /**< most restrictive finite quota, NaN if none */
            gov_limit_status quota_status;
        } cgroup;
        struct {
            uint64_t cpus;         /**< per-process scheduler bound */
        } scheduler;
        struct {
            double capacity_cores; /**< min of known constraints */
            uint64_t workers;      /**< floor(capacity), at least 1 */
            gov_layer binding;
        } effective;
    } cpu;

    struct {
        struct {
            uint64_t total_bytes;
            uint64_t available_bytes;
        } host;
        struct {
            int version;
            gov_limit_status status;
            uint64_t limit_bytes;     /**< memory.max / limit_in_bytes, min over chain */
            uint64_t high_bytes;      /**< memory.high, min over chain (v2 only) */
            uint64_t current_bytes;   /**< usage of the process's own cgroup */
            uint64_t remaining_bytes; /**< min over chain of limit - usage */
        } cgroup;
        struct {
            uint64_t limit_bytes;     /**< the step's memory on this node */
            uint64_t per_task_bytes;  /**< per-CPU memory x cpus-per-task */
        } scheduler;
        struct {
            uint64_t limit_bytes;
            uint64_t remaining_bytes;
            gov_layer binding;
        } effective;
    } memory;

    struct {
        gov_pressure_source source;
        double cpu_some_avg10;       /**< percent, NaN when unknown */
        double memory_some_avg10;
        double memory_full_avg10;
        uint64_t swap_in_pages;      /**< /proc/vmstat pswpin, GOV_UNKNOWN if absent */
        uint64_t swap_out_pages;     /**< /proc/vmstat pswpout */
    } pressure;

    struct {
        uint64_t visible[GOV_VIS_COUNT]; /**< devices named by each variable;
                                              GOV_UNKNOWN when unset */
        uint64_t nvidia_gpus;        /**< /proc/driver/nvidia/gpus entries */
        uint64_t nvidia_dev_nodes;   /**< /dev/nvidiaN nodes */
        uint64_t nvidia_dev_usable;  /**< of those, openable read-write */
        uint64_t amd_gpus;           /**< DRM cards with an AMD vendor id */
        int kfd_usable;              /**< /dev/kfd openable: 1, 0, -1 unknown */
        uint64_t drm_render_nodes;   /**< /dev/dri/renderD* */
        uint64_t drm_render_usable;
        /* The one GPU the governor may use: the lowest-numbered DRM card. */
        int gpu_index;               /**< card number, -1 when none */
        uint64_t gpu_vram_total_bytes; /**< from that same card, GOV_UNKNOWN */
        uint64_t gpu_vram_used_bytes;  /**< from that same card, GOV_UNKNOWN */
        int gpu_unified;             /**< its memory is system RAM (UMA): 1,
                                          dedicated VRAM: 0, unknown: -1 */
    } accel;

    struct {
        uint64_t capacity_bytes;     /**< f_blocks * f_frsize */
        uint64_t free_bytes;         /**< f_bfree: includes root's reserve */
        uint64_t avail_bytes;        /**< f_bavail: what this user may use */
        int writable;                /**< access(W_OK): 1, 0, -1 unknown */
    } disk;

    struct {
        gov_enforcement cpu;
        gov_enforcement memory;
    } enforcement;

    gov_site_policy policy;
} gov_snapshot;

/** Options for gov_context_create(); zero-initialise, then set what you need. */
typedef struct gov_options {
    /** Read every file under this directory instead of "/" (tests, debugging).
     *  Affinity then comes from DIR/proc/self/status and descriptor
     *  verification is skipped (the seal binds to the live process). */
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
} gov_options;

#define GOV_UID_NONE UINT32_MAX
/** Do not look at GOVERNOR_DESCRIPTOR at all. */
#define GOV_OPT_NO_DESCRIPTOR 0x1u

/** Opaque: options plus state loaded once (the host topology). */
typedef struct gov_context gov_context;

/**
 * Create a context: copies \p opts (NULL = defaults) and loads the host
 * topology once.  On success *out owns the context; release it with
 * gov_context_destroy().  Returns GOV_ENOMEM, GOV_EINVAL.  A topology that
 * cannot be loaded is not an error: the host counts become unknown.
 */
int gov_context_create(const gov_options *opts, gov_context **out);

/** Release a context (NULL is allowed). */
void gov_context_destroy(gov_context *ctx);

/**
 * Capture a snapshot into \p out.  Reads every source of evidence once; a
 * missing or garbled source only makes its facts unknown.  Returns 0, or
 * GOV_EINVAL for NULL arguments.  Thread-safe for distinct \p out: the
 * context is not modified.
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

/** Stable JSON names of the enums above ("limited", "cgroup", ...). */
const char *gov_limit_status_name(gov_limit_status s);
const char *gov_enforcement_name(gov_enforcement e);
const char *gov_layer_name(gov_layer l);
const char *gov_sched_source_name(gov_sched_source s);   /* NULL for NONE */
const char *gov_descriptor_status_name(gov_descriptor_status s);
const char *gov_pressure_source_name(gov_pressure_source s); /* NULL for NONE */
const char *gov_profile_name(gov_profile p);
const char *gov_step_kind_name(gov_step_kind k);       /* NULL for UNKNOWN */

/* ------------------------------------------------------------------------ */
/** \name Planner                                                           */
/* ------------------------------------------------------------------------ */

/** Conservative ceilings for a workload, derived from a snapshot. */
typedef struct gov_plan {
    uint64_t workers;             /**< process workers (requested or CPU ceiling) */
    uint64_t threads_per_worker;  /**< native threads each (OpenMP, BLAS), >= 1 */
    uint64_t cpu_workers;         /**< CPU-bound ceiling: snapshot effective workers */
    uint64_t io_workers;          /**< suggestion for I/O-bound pools */
    int oversubscribed;           /**< 1 when requested workers exceed the ceiling */
} gov_plan;

/**
 * Plan \p requested_workers process workers (0 = as many as the CPU ceiling)
 * so that workers x threads_per_worker stays within the effective capacity.
 * Returns 0 or GOV_EINVAL.  Thread-safe.
 */
int gov_plan_compute(const gov_snapshot *snap, uint64_t requested_workers,
                     gov_plan *out);

/* The governor API (admission, reservations, pressure) follows below. */

#ifdef __cplusplus
}
#endif

#endif /* GOVERNOR_H */
