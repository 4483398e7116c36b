/*
 * parse.h - the plugin's two parsers of outside text, kept free of Slurm
 * symbols so that unit tests and fuzz targets link them directly:
 * the user's --governor MODE (option.c) and the site's plugstack.conf
 * arguments (policy.c).
 */
#ifndef GOV_SPANK_PARSE_H
#define GOV_SPANK_PARSE_H

#include "descriptor.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct gov_mode {
    bool given;          /* the option was used */
    bool off;
    bool threads;        /* thread counts only */
    bool runtimes;       /* every variable `governor run` sets */
    bool noruntimes;     /* none of them, where the site's default says runtimes */
    bool pressure;       /* pressure triggers for the tasks (pressure=allow) */
    bool profile_set;
    gov_profile profile;
    bool bare;           /* given without a value: srun may take a mode word
                            after it for the program */
} gov_mode;

/* Parse a MODE.  NULL, "" and the literal "(null)" (what Slurm passes for an
 * optional value that was left out) mean the default.  On error *out is
 * unchanged.  Returns 0 or GOV_EPARSE. */
int gov__mode_parse(const char *text, gov_mode *out);

/* Whether text is one word of a MODE (runtimes, off...): what a user who
 * wrote "--governor runtimes" meant as the mode, and srun runs as the
 * program, since an optional value needs '='. */
bool gov__mode_word(const char *text);

#define GOV_SPANK_POLICY_PATH_MAX 256
/* One libmunge attempt's own socket timeout: a healthy munged answers in
 * well under a millisecond. */
#define GOV_MUNGE_TIMEOUT_S 2

/* The site's runtimes= key: whether governed steps get the environment of
 * `governor run` (--governor=runtimes) by default, and whether users may
 * decline it (--governor=noruntimes). */
#define GOV_RUNTIMES_POLICY_LIST(X)                               \
    X(GOV_RUNTIMES_OFF, "off")       /* only when a user asks */  \
    X(GOV_RUNTIMES_ON, "on")         /* unless a user declines */ \
    X(GOV_RUNTIMES_ALWAYS, "always") /* users may not decline */  \
    /* append above this line */
typedef enum gov_runtimes_policy {
    GOV_RUNTIMES_POLICY_LIST(GOV_ENUM_MEMBER_)
} gov_runtimes_policy;

/* The site's pressure= key: whether a governed step's tasks get the PSI
 * triggers of systemd's protocol (evidence.h) on cgroup v2. */
#define GOV_PRESSURE_POLICY_LIST(X)                                    \
    X(GOV_PRESSURE_OFF, "off")     /* never; --governor=pressure refused */ \
    X(GOV_PRESSURE_ALLOW, "allow") /* when a user asks (--governor=pressure) */ \
    X(GOV_PRESSURE_ON, "on")       /* every governed step */             \
    /* append above this line */
typedef enum gov_pressure_policy {
    GOV_PRESSURE_POLICY_LIST(GOV_ENUM_MEMBER_)
} gov_pressure_policy;

/* The site's on_init_error= key: what slurmstepd does with a step when
 * governor.so cannot start in it (its plugstack arguments on that node do
 * not parse, --governor cannot be registered).  Only a `required` plugin's
 * failure counts: under `optional` Slurm ignores it. */
#define GOV_INIT_ERROR_POLICY_LIST(X)                                            \
    X(GOV_INIT_ERROR_RUN, "run")         /* logged; the step runs ungoverned */ \
    X(GOV_INIT_ERROR_FAIL_JOB, "fail_job") /* the job fails (Slurm 25.05+) */   \
    X(GOV_INIT_ERROR_DRAIN_NODE, "drain_node") /* Slurm's default for a fault */ \
    /* append above this line */
typedef enum gov_init_error_policy {
    GOV_INIT_ERROR_POLICY_LIST(GOV_ENUM_MEMBER_)
} gov_init_error_policy;

/* pressure_threshold_ms=: stall time in a 2 s window that fires a trigger. */
#define GOV_PRESSURE_THRESHOLD_MS_DEFAULT 200

typedef struct gov_spank_policy {
    bool default_on;
    bool allow_off;                /* users may say --governor=off */
    /* What the descriptor seals and the job's governor applies (profile,
     * reserves); `present` unused here. */
    gov_site_policy site;
    bool seal_required;
    uint32_t ttl_s;                /* 0: MUNGE's default */
    uint32_t munge_timeout_s;      /* give up sealing after this */
    char munge_socket[GOV_SPANK_POLICY_PATH_MAX];   /* "" = MUNGE's default */
    char run_dir[GOV_SPANK_POLICY_PATH_MAX]; /* where the plugin writes (run_dir.h) */
    bool topology_cache_off;       /* topology_cache=off */
    gov_runtimes_policy runtimes;
    bool per_core;                 /* per_core=yes: runtimes and threads plan
                                    * one thread per physical core */
    char report_dir[GOV_SPANK_POLICY_PATH_MAX]; /* report=DIR, "" = no step report */
    uint32_t report_min_s;         /* shorter steps get no rate finding */
    /* How the step's descriptor reaches its tasks (handoff=): a MUNGE
     * credential in GOVERNOR_DESCRIPTOR, a root-written file in run_dir
     * named by GOVERNOR_DESCRIPTOR_FILE, or both; at least one. */
    bool handoff_munge, handoff_file;
    gov_pressure_policy pressure;
    uint32_t pressure_threshold_ms;   /* 1 to 1999 */
    gov_init_error_policy on_init_error;
} gov_spank_policy;

/* The defaults: off unless asked for, off allowed, no reserves, seal
 * optional, GOV_MUNGE_TIMEOUT_S, GOV_RUN_DIR_DEFAULT with the topology
 * cache on, a thread per PU, the MUNGE hand-off alone. */
void gov__spank_policy_init(gov_spank_policy *p);

/* Parse plugstack.conf arguments (key=value words).  On error, err gets a
 * message naming the key (never a value) and *out keeps the defaults.
 * Returns 0 or GOV_EPARSE. */
int gov__spank_policy_parse(int argc, const char *const *argv, gov_spank_policy *out,
                     char *err, size_t errcap);

/* on_init_error= alone, for arguments gov__spank_policy_parse() refused:
 * the last value that parses, or GOV_INIT_ERROR_RUN if none does. */
gov_init_error_policy gov__spank_policy_on_init_error(int argc, const char *const *argv);

/* ==== verdict.c ============================================================
 * --governor against the site's policy: the rules in one place, as
 * verdicts for the dispatcher (plugin.c) to act on.
 */

/* Whether the governor runs for a step, and the policy it seals: the site's
 * imposed profile and reserves, tightened (never loosened) by the user.  A
 * user's "off" counts only where the site allows it (allow_off), a user's
 * "noruntimes" only under runtimes=on; otherwise the site's default stands. */
bool gov__spank_policy_resolve(const gov_spank_policy *site, const gov_mode *mode,
                        gov_desc_policy *out);

/* Room for gov__spank_mode_help's and gov__spank_mode_refused's text. */
#define GOV_MODE_HELP_MAX 256

/* What every complaint about a MODE says: the words --governor takes at
 * this site, those the site refuses left out (off under allow_off=no,
 * noruntimes under runtimes=always, pressure under pressure=off); every
 * word where site is NULL (the site's line did not parse). */
void gov__spank_mode_help(const gov_spank_policy *site, char *buf, size_t cap);

/* Whether site refuses a MODE that parsed (off under allow_off=no,
 * noruntimes under runtimes=always, pressure under pressure=off): true with
 * a message naming the key and what the site does take. */
bool gov__spank_mode_refused(const gov_spank_policy *site, const gov_mode *mode, char *msg,
                             size_t cap);

/* Whether a governed step's tasks get pressure triggers: pressure=on, or
 * pressure=allow and the user asked (--governor=pressure). */
bool gov__spank_pressure_resolve(const gov_spank_policy *site, const gov_mode *mode);

/* A --governor value where it is given: srun, sbatch and salloc (remote
 * false) or slurmstepd (remote true), site NULL where the site's arguments
 * did not parse.  Returns 0 with *out set; GOV_EPARSE (it does not parse)
 * or GOV_EACCES (the site refuses it: said only where a person is
 * watching, slurmstepd's verdict notes it) with msg for the user. */
int gov__spank_option_verdict(const gov_spank_policy *site, const char *value, bool remote,
                              gov_mode *out, char *msg, size_t cap);

#define GOV_VERDICT_NOTES 4

/* What slurmstepd makes of a step (init_post_opt). */
typedef struct gov_step_verdict {
    bool governed;            /* capture, seal and hand off the step */
    gov_desc_policy policy;   /* what its descriptor seals */
    bool pressure;            /* its tasks get pressure triggers */
    /* seal=required and a --governor value that does not parse: no
     * descriptor; each task is refused for why, told advice. */
    bool refused;
    char why[96];
    char advice[GOV_MODE_HELP_MAX];
    /* What slurmd's log says of the step, at info level. */
    const char *notes[GOV_VERDICT_NOTES];
    size_t nnotes;
} gov_step_verdict;

/* The verdict on a step whose last --governor value is mode (mode_ok
 * false: it did not parse). */
void gov__spank_step_verdict(const gov_spank_policy *site, const gov_mode *mode, bool mode_ok,
                             gov_step_verdict *v);

/* srun's --governor without a value, followed by a program named like a
 * mode ("--governor runtimes"): the user meant the mode, and srun runs the
 * word as the program, since an optional value needs '='. */
bool gov__spank_mode_misplaced(const gov_mode *mode, const char *program);

/* ==== gres_conf.c ==========================================================
 * what gres.conf says of this node's GPUs and the shares of them.
 */
#define GOV_GRES_GPUS_MAX 64

typedef struct gov_gres_gpu {
    int index;             /* the number its device file ends in (SLURM_STEP_GPUS) */
    char type[32];         /* Type=, "" for none (a MIG instance's profile: "1g.5gb") */
    bool mig;              /* a MIG instance (MultipleFiles names nvidia-caps nodes) */
    uint64_t shards, mps;  /* its gres/shard and gres/mps counts; 0: none */
} gov_gres_gpu;

typedef struct gov_gres_node {
    size_t ngpus;
    gov_gres_gpu gpu[GOV_GRES_GPUS_MAX];
    bool shard, mps;       /* gres/shard, gres/mps configured on the node */
} gov_gres_node;

/* The lines of gres.conf text[0..len) that apply to node (its NodeName):
 * its GPUs in the file's order, each with its share counts.  Returns 0 or
 * GOV_EINVAL; what it cannot read is left out (docs/admin-guide.md, "GPU
 * shares"). */
int gov__gres_conf_parse(const char *text, size_t len, const char *node, gov_gres_node *out);

/* What a step's GPU grant on the node is, from gres.conf's view of it (g)
 * and the variables slurmstepd wrote: SLURM_STEP_GPUS, SLURM_SHARDS_ON_NODE,
 * CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (NULL where unset), and the GPUs it
 * counted: its kind, the share of one GPU as share of share_of, and the
 * memory its profile names (a MIG instance's); GOV_UNKNOWN where not
 * known.  A shard or MPS variable counts only on a node with that gres. */
typedef struct gov_gres_grant {
    gov_gpu_share_kind kind;
    uint64_t share, share_of, mem_bytes;
} gov_gres_grant;

void gov__gres_grant(const gov_gres_node *g, const char *step_gpus, const char *shards,
                     const char *mps_percent, uint64_t gpus_on_node, gov_gres_grant *out);

/* Whether Slurm's hostlist list[0..len) ("node[1-3,5],gpu07") names name. */
bool gov__hostlist_has(const char *list, size_t len, const char *name);

/* A kernel release (uname -r: "6.12.48+deb13-amd64") is at least
 * MAJOR.MINOR.  Anything that does not start "N.N" is not. */
bool gov__kernel_release_at_least(const char *release, unsigned major, unsigned minor);

#endif /* GOV_SPANK_PARSE_H */
