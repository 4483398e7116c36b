/* runenv_var.h - what a gov_runenv gives a command's variable, for the
 * tests that check its decisions. */
#ifndef GOV_RUNENV_VAR_H
#define GOV_RUNENV_VAR_H

#include "governor.h"

#include <string.h>

/* The value the command gets: "(unset)" for an unset, NULL for no change. */
static inline const char *var(const gov_runenv *env, const char *name)
{
    for (size_t i = 0; i < env->nvars; i++)
        if (!strcmp(env->vars[i].name, name))
            return env->vars[i].value ? env->vars[i].value : "(unset)";
    return NULL;
}

#endif
