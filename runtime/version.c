/* version.c - the library's version at run time (governor.h). */
#include "governor.h"

#define STR_(x) #x
#define STR(x) STR_(x)

unsigned gov_version(void)
{
    return GOV_VERSION_HEX;
}

const char *gov_version_string(void)
{
    return STR(GOV_VERSION_MAJOR) "." STR(GOV_VERSION_MINOR) "." STR(GOV_VERSION_PATCH);
}
