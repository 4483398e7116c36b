/*
 * spank_standin.h - a stand-in for the SPANK API slurmstepd, srun and slurmd
 * give governor.so (spank_standin.c), so that the plugin's context files
 * run in a unit test: a handle with the job's items and environment, the
 * context, the options registered, and the log lines the plugin wrote.
 * Every item a test does not set is refused as Slurm refuses it
 * (ESPANK_BAD_ARG); failures are injected by name.
 */
#ifndef GOV_SPANK_STANDIN_H
#define GOV_SPANK_STANDIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <slurm/spank.h>

#define STANDIN_ENV_MAX 128
#define STANDIN_LOG_MAX 64

struct spank_handle {
    bool remote;                 /* spank_remote(): slurmstepd */
    /* Items, each with whether it is set. */
    bool has_job, has_step, has_node, has_uid;
    uint32_t job_id, step_id, node_id;
    uid_t uid;
    uint32_t nnodes, tasks_total, tasks_local, cpus_per_task;   /* 0: not set */
    uint16_t ncpus;
    uint64_t job_mem_mib, step_mem_mib;   /* UINT64_MAX: not set */
    const char *job_cores, *step_cores;   /* NULL: not set */
    int task_id;                  /* -1: not in a task */
    pid_t task_pid;
    int argc;
    char **argv;
    /* The job's environment, "NAME=value", malloc'd. */
    char *env[STANDIN_ENV_MAX];
    /* Injected failures: spank_setenv of refuse_setenv fails; of
     * drop_setenv it succeeds and sets nothing, as slurmstepd does with a
     * value past its length limit ("environment variable NAME is too
     * long" on the task's stderr). */
    const char *refuse_setenv, *drop_setenv;
};

/* A handle for context ctx (the process's spank_context() from now on):
 * nothing set, an empty environment. */
void standin_init(struct spank_handle *sp, spank_context_t ctx);
/* Free its environment. */
void standin_free(struct spank_handle *sp);
/* Set NAME=value in the handle's environment (value NULL: unset). */
void standin_env(struct spank_handle *sp, const char *name, const char *value);
/* The handle's value of name, or NULL. */
const char *standin_getenv(const struct spank_handle *sp, const char *name);

/* The options registered since the last standin_init. */
size_t standin_options(const struct spank_option **opts);

/* The log: every line since standin_log_clear(), "LEVEL: text" (LEVEL
 * error, info, debug...).  standin_logged(): the first line containing
 * text, or NULL. */
void standin_log_clear(void);
size_t standin_log_count(void);
const char *standin_log_line(size_t i);
const char *standin_logged(const char *text);

/* A directory the plugin's run_dir rules accept (root's, not writable by
 * others, on a root-only path): a new one under /run, 0755, into dir.
 * Returns 0, or -1 when this process is not root (the caller skips). */
int standin_run_dir(char *dir, size_t cap);

/* This process alone gets an empty /dev (a private mount namespace, a
 * tmpfs): what the plugin counts there as GPU device nodes is what the
 * test makes, not what an end-to-end case beside it made on the host.
 * Returns 0, or -1 when the kernel refuses (the caller skips). */
int standin_private_dev(void);

#endif /* GOV_SPANK_STANDIN_H */
