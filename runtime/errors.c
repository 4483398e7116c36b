/* errors.c - names of the error codes (see governor.h). */
#include "governor.h"

#include <string.h>

struct gov_err_entry {
    int code;
    const char *name;
    const char *text;
};

static const struct gov_err_entry gov_errors[] = {
    { 0, "OK", "success" },
    { GOV_EINVAL, "EINVAL", "invalid argument" },
    { GOV_ENOMEM, "ENOMEM", "out of memory" },
    { GOV_ENOENT, "ENOENT", "not found" },
    { GOV_EACCES, "EACCES", "permission denied" },
    { GOV_EIO, "EIO", "input/output error" },
    { GOV_ERANGE, "ERANGE", "value out of range" },
    { GOV_ENOSPC, "ENOSPC", "buffer too small" },
    { GOV_ETIMEDOUT, "ETIMEDOUT", "timed out" },
    { GOV_EALREADY, "EALREADY", "reservation already released" },
    { GOV_ENOTSUP, "ENOTSUP", "not supported by this build" },
    { GOV_EOVERFLOW, "EOVERFLOW", "identifier space exhausted" },
    { GOV_EPARSE, "EPARSE", "malformed input" },
    { GOV_ESEAL, "ESEAL", "the descriptor's MUNGE seal does not verify" },
    { GOV_EUNTRUSTED, "EUNTRUSTED", "the descriptor was sealed by an untrusted user" },
    { GOV_EBINDING, "EBINDING", "the descriptor belongs to another job, step, node or user" },
    { GOV_EVERSION, "EVERSION", "the descriptor's version is not understood" },
    { GOV_EMUNGE, "EMUNGE", "MUNGE failed (is munged running?)" },
};

static const struct gov_err_entry *gov_err_find(int err)
{
    for (size_t i = 0; i < sizeof gov_errors / sizeof gov_errors[0]; i++)
        if (gov_errors[i].code == err)
            return &gov_errors[i];
    return NULL;
}

const char *gov_strerror(int err)
{
    const struct gov_err_entry *e = gov_err_find(err);
    return e ? e->text : "unknown error";
}

const char *gov_err_name(int err)
{
    const struct gov_err_entry *e = gov_err_find(err);
    return e ? e->name : "UNKNOWN";
}
