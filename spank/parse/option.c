/* option.c - the user's --governor[=MODE]: a comma list of one profile
 * (batch, interactive) and the flags threads, runtimes, noruntimes, pressure
 * and off. */
#include "parse.h"
#include "base.h"

#include <string.h>

int gov__mode_parse(const char *text, gov_mode *out)
{
    gov_mode m = { .given = true, .profile = GOV_PROFILE_BATCH };
    const char *p;

    if (!out)
        return GOV_EINVAL;
    if (!text || !*text || !strcmp(text, "(null)")) {
        m.bare = true;
        *out = m;
        return 0;
    }
    p = text;
    for (;;) {
        size_t n = strcspn(p, ",");
        gov_profile prof;

        if (!gov__profile_from_name(p, n, &prof)) {
            if (m.profile_set && m.profile != prof)
                return GOV_EPARSE;     /* two different profiles */
            m.profile_set = true;
            m.profile = prof;
        } else if (gov__token_eq(p, n, "threads")) {
            m.threads = true;
        } else if (gov__token_eq(p, n, "runtimes")) {
            m.runtimes = true;
        } else if (gov__token_eq(p, n, "noruntimes")) {
            m.noruntimes = true;
        } else if (gov__token_eq(p, n, "pressure")) {
            m.pressure = true;
        } else if (gov__token_eq(p, n, "off")) {
            m.off = true;
        } else {
            return GOV_EPARSE;         /* unknown or empty word */
        }
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    /* "off" with anything else is a contradiction, not a preference. */
    if ((m.off && (m.threads || m.profile_set || m.runtimes || m.noruntimes || m.pressure)) ||
        (m.runtimes && m.noruntimes))
        return GOV_EPARSE;
    *out = m;
    return 0;
}

bool gov__mode_word(const char *text)
{
    gov_mode m;

    return text && *text && !strchr(text, ',') && strcmp(text, "(null)") &&
           !gov__mode_parse(text, &m);
}
