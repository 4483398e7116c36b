/* errors.c - names and texts of the error codes, from GOV_ERRNO_MAP
 * (governor.h), the one list of them. */
#include "governor.h"

#include <stddef.h>

struct gov_err_entry {
    int code;
    const char *name;
    const char *text;
};

#define GOV_ERR_ENTRY_(name, value, text) { value, #name, text },
static const struct gov_err_entry gov_errors[] = {
    { 0, "OK", "success" },
    GOV_ERRNO_MAP(GOV_ERR_ENTRY_)
};
#undef GOV_ERR_ENTRY_

#define GOV_ERR_VALUE_(name, value, text) value,
static const int gov_codes[] = { GOV_ERRNO_MAP(GOV_ERR_VALUE_) };
#undef GOV_ERR_VALUE_

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

const int *gov_err_codes(size_t *count)
{
    if (count)
        *count = sizeof gov_codes / sizeof gov_codes[0];
    return gov_codes;
}
