/* errors.c - names and texts of the error codes, from GOV_ERRNO_MAP
 * (governor.h), the one list of them; any other system error (a negated
 * errno that a reader of /proc or /sys passed on: EPERM, ELOOP, ENOTDIR...)
 * by the C library's own name and text, so that none is "unknown". */
#define _GNU_SOURCE /* strerrordesc_np, strerrorname_np */
#include "governor.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The errno range: Linux's are below 4096 (MAX_ERRNO). */
#define ERRNO_MAX 4095

struct gov_err_entry {
    int code;
    const char *name;
    const char *text;
};

#define GOV_ERR_ENTRY_(name, value, text) { value, #name, text },
static const struct gov_err_entry err_entries[] = {
    { 0, "OK", "success" },
    GOV_ERRNO_MAP(GOV_ERR_ENTRY_)
};
#undef GOV_ERR_ENTRY_

#define GOV_ERR_VALUE_(name, value, text) value,
static const int err_codes[] = { GOV_ERRNO_MAP(GOV_ERR_VALUE_) };
#undef GOV_ERR_VALUE_

static const struct gov_err_entry *gov__err_find(int err)
{
    for (size_t i = 0; i < sizeof err_entries / sizeof err_entries[0]; i++)
        if (err_entries[i].code == err)
            return &err_entries[i];
    return NULL;
}

static bool system_error(int err)
{
    return err < 0 && err >= -ERRNO_MAX;
}

const char *gov_strerror(int err)
{
    const struct gov_err_entry *e = gov__err_find(err);
    const char *t = NULL;

    if (e)
        return e->text;
#ifdef GOV_HAVE_STRERRORDESC_NP
    if (system_error(err))
        t = strerrordesc_np(-err);
#endif
    if (t)
        return t;
    return system_error(err) ? "unknown system error" : "unknown error";
}

const char *gov_err_name(int err)
{
    const struct gov_err_entry *e = gov__err_find(err);
    const char *n = NULL;

    if (e)
        return e->name;
#ifdef GOV_HAVE_STRERRORDESC_NP
    if (system_error(err))
        n = strerrorname_np(-err);
#endif
    if (n)
        return n;
    return system_error(err) ? "ESYSTEM" : "UNKNOWN";
}

const int *gov_err_codes(size_t *count)
{
    if (count)
        *count = sizeof err_codes / sizeof err_codes[0];
    return err_codes;
}
