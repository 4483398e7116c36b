/* spank_standin.c - the SPANK API as a unit test's stand-in
 * (spank_standin.h): items and environment from the handle, the context
 * from standin_init(), log lines kept for the test to read. */
#define _GNU_SOURCE /* unshare() */
#include "spank_standin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static spank_context_t context = S_CTX_ERROR;
static const struct spank_option *options[8];
static size_t noptions;
static char *log_lines[STANDIN_LOG_MAX];
static size_t nlog;

void standin_init(struct spank_handle *sp, spank_context_t ctx)
{
    memset(sp, 0, sizeof *sp);
    sp->remote = ctx == S_CTX_REMOTE;
    sp->job_mem_mib = sp->step_mem_mib = UINT64_MAX;
    sp->task_id = -1;
    context = ctx;
    noptions = 0;
}

void standin_free(struct spank_handle *sp)
{
    for (size_t i = 0; i < STANDIN_ENV_MAX; i++) {
        free(sp->env[i]);
        sp->env[i] = NULL;
    }
}

static char **slot(struct spank_handle *sp, const char *name)
{
    size_t n = strlen(name);

    for (size_t i = 0; i < STANDIN_ENV_MAX; i++)
        if (sp->env[i] && !strncmp(sp->env[i], name, n) && sp->env[i][n] == '=')
            return &sp->env[i];
    return NULL;
}

void standin_env(struct spank_handle *sp, const char *name, const char *value)
{
    char **at = slot(sp, name);

    if (at) {
        free(*at);
        *at = NULL;
    }
    if (!value)
        return;
    for (size_t i = 0; i < STANDIN_ENV_MAX; i++)
        if (!sp->env[i]) {
            size_t len = strlen(name) + strlen(value) + 2;
            if ((sp->env[i] = malloc(len)))
                snprintf(sp->env[i], len, "%s=%s", name, value);
            return;
        }
    abort();   /* a test with more variables than the stand-in holds */
}

const char *standin_getenv(const struct spank_handle *sp, const char *name)
{
    char **at = slot((struct spank_handle *)sp, name);

    return at ? strchr(*at, '=') + 1 : NULL;
}

spank_context_t spank_context(void)
{
    return context;
}

int spank_remote(spank_t sp)
{
    return sp && sp->remote;
}

const char *spank_strerror(spank_err_t err)
{
    return err == ESPANK_SUCCESS ? "Success" : "Generic error";
}

spank_err_t spank_option_register(spank_t sp, struct spank_option *opt)
{
    (void)sp;
    if (noptions == sizeof options / sizeof options[0])
        return ESPANK_ERROR;
    options[noptions++] = opt;
    return ESPANK_SUCCESS;
}

size_t standin_options(const struct spank_option **opts)
{
    for (size_t i = 0; i < noptions; i++)
        opts[i] = options[i];
    return noptions;
}

spank_err_t spank_getenv(spank_t sp, const char *var, char *buf, int len)
{
    const char *v;

    if (!sp || !var || !buf || len <= 0)
        return ESPANK_BAD_ARG;
    if (!(v = standin_getenv(sp, var)))
        return ESPANK_ENV_NOEXIST;
    if (strlen(v) >= (size_t)len)
        return ESPANK_NOSPACE;
    strcpy(buf, v);
    return ESPANK_SUCCESS;
}

spank_err_t spank_setenv(spank_t sp, const char *var, const char *val, int overwrite)
{
    if (!sp || !var || !val)
        return ESPANK_BAD_ARG;
    if (sp->refuse_setenv && !strcmp(sp->refuse_setenv, var))
        return ESPANK_ERROR;
    if (!overwrite && standin_getenv(sp, var))
        return ESPANK_ENV_EXISTS;
    if (sp->drop_setenv && !strcmp(sp->drop_setenv, var))
        return ESPANK_SUCCESS;
    standin_env(sp, var, val);
    return ESPANK_SUCCESS;
}

spank_err_t spank_unsetenv(spank_t sp, const char *var)
{
    if (!sp || !var)
        return ESPANK_BAD_ARG;
    standin_env(sp, var, NULL);
    return ESPANK_SUCCESS;
}

static spank_err_t u32(bool set, uint32_t v, va_list ap)
{
    uint32_t *out = va_arg(ap, uint32_t *);

    if (!set)
        return ESPANK_BAD_ARG;
    *out = v;
    return ESPANK_SUCCESS;
}

static spank_err_t str(const char *v, va_list ap)
{
    char **out = va_arg(ap, char **);

    if (!v)
        return ESPANK_BAD_ARG;
    *out = (char *)v;
    return ESPANK_SUCCESS;
}

static spank_err_t mib(uint64_t v, va_list ap)
{
    uint64_t *out = va_arg(ap, uint64_t *);

    if (v == UINT64_MAX)
        return ESPANK_BAD_ARG;
    *out = v;
    return ESPANK_SUCCESS;
}

spank_err_t spank_get_item(spank_t sp, spank_item_t item, ...)
{
    spank_err_t rc = ESPANK_BAD_ARG;
    va_list ap;

    if (!sp)
        return ESPANK_BAD_ARG;
    va_start(ap, item);
    switch (item) {
    case S_JOB_ID: rc = u32(sp->has_job, sp->job_id, ap); break;
    case S_JOB_STEPID: rc = u32(sp->has_step, sp->step_id, ap); break;
    case S_JOB_NODEID: rc = u32(sp->has_node, sp->node_id, ap); break;
    case S_JOB_NNODES: rc = u32(sp->nnodes, sp->nnodes, ap); break;
    case S_JOB_TOTAL_TASK_COUNT: rc = u32(sp->tasks_total, sp->tasks_total, ap); break;
    case S_JOB_LOCAL_TASK_COUNT: rc = u32(sp->tasks_local, sp->tasks_local, ap); break;
    case S_STEP_CPUS_PER_TASK: rc = u32(sp->cpus_per_task, sp->cpus_per_task, ap); break;
    case S_JOB_UID: {
        uid_t *out = va_arg(ap, uid_t *);
        if (sp->has_uid) {
            *out = sp->uid;
            rc = ESPANK_SUCCESS;
        }
        break;
    }
    case S_JOB_NCPUS: {
        uint16_t *out = va_arg(ap, uint16_t *);
        if (sp->ncpus) {
            *out = sp->ncpus;
            rc = ESPANK_SUCCESS;
        }
        break;
    }
    case S_JOB_ALLOC_MEM: rc = mib(sp->job_mem_mib, ap); break;
    case S_STEP_ALLOC_MEM: rc = mib(sp->step_mem_mib, ap); break;
    case S_JOB_ALLOC_CORES: rc = str(sp->job_cores, ap); break;
    case S_STEP_ALLOC_CORES: rc = str(sp->step_cores, ap); break;
    case S_TASK_ID: {
        int *out = va_arg(ap, int *);
        if (sp->task_id >= 0) {
            *out = sp->task_id;
            rc = ESPANK_SUCCESS;
        } else {
            rc = ESPANK_NOT_TASK;
        }
        break;
    }
    case S_TASK_PID: {
        pid_t *out = va_arg(ap, pid_t *);
        if (sp->task_id >= 0) {
            *out = sp->task_pid;
            rc = ESPANK_SUCCESS;
        } else {
            rc = ESPANK_NOT_TASK;
        }
        break;
    }
    case S_JOB_ARGV: {
        int *argc = va_arg(ap, int *);
        char ***argv = va_arg(ap, char ***);
        if (sp->argv) {
            *argc = sp->argc;
            *argv = sp->argv;
            rc = ESPANK_SUCCESS;
        }
        break;
    }
    default:
        break;
    }
    va_end(ap);
    return rc;
}

static void keep(const char *level, const char *fmt, va_list ap)
{
    char text[1024];
    int n = snprintf(text, sizeof text, "%s: ", level);

    vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    if (getenv("STANDIN_LOG"))
        fprintf(stderr, "%s\n", text);
    if (nlog < STANDIN_LOG_MAX)
        log_lines[nlog++] = strdup(text);
}

#define LOG_FN(fn, level)                      \
    void fn(const char *fmt, ...)              \
    {                                          \
        va_list ap;                            \
        va_start(ap, fmt);                     \
        keep(level, fmt, ap);                  \
        va_end(ap);                            \
    }
LOG_FN(slurm_error, "error")
LOG_FN(slurm_info, "info")
LOG_FN(slurm_verbose, "verbose")
LOG_FN(slurm_debug, "debug")
LOG_FN(slurm_debug2, "debug2")
LOG_FN(slurm_debug3, "debug3")

void standin_log_clear(void)
{
    for (size_t i = 0; i < nlog; i++)
        free(log_lines[i]);
    nlog = 0;
}

size_t standin_log_count(void)
{
    return nlog;
}

const char *standin_log_line(size_t i)
{
    return i < nlog ? log_lines[i] : NULL;
}

const char *standin_logged(const char *text)
{
    for (size_t i = 0; i < nlog; i++)
        if (strstr(log_lines[i], text))
            return log_lines[i];
    return NULL;
}

int standin_run_dir(char *dir, size_t cap)
{
    if (geteuid() != 0 || cap < sizeof "/run/gov-standin-XXXXXX")
        return -1;
    snprintf(dir, cap, "/run/gov-standin-XXXXXX");
    if (!mkdtemp(dir) || chmod(dir, 0755))
        return -1;
    return 0;
}

int standin_private_dev(void)
{
    if (unshare(CLONE_NEWNS) ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
        mount("standin-dev", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755"))
        return -1;
    return 0;
}
