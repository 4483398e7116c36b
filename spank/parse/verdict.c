/* verdict.c - the rules for --governor against the site's policy, in one
 * place, as verdicts the plugin's dispatcher acts on: what srun, sbatch and
 * salloc say of a value at once, what slurmstepd makes of the value that
 * reached a step (governed or not, what the descriptor seals, pressure
 * triggers, what a task under seal=required is refused for, the notes for
 * slurmd's log), and the words the messages offer. */
#include "base.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

bool gov__spank_policy_resolve(const gov_spank_policy *site, const gov_mode *mode,
                        gov_desc_policy *out)
{
    bool on = mode->given && (!mode->off || site->allow_off) ? !mode->off : site->default_on;
    gov_profile user = mode->profile_set ? mode->profile : GOV_PROFILE_BATCH;

    memset(out, 0, sizeof *out);
    out->site.profile_imposed = site->site.profile_imposed;
    /* interactive keeps a host reserve, so it is the stricter profile: a
     * user may choose it under an imposed batch, never the reverse. */
    out->site.profile = site->site.profile_imposed && site->site.profile == GOV_PROFILE_INTERACTIVE
                   ? GOV_PROFILE_INTERACTIVE : user;
    out->site.mem_reserve_bytes = site->site.mem_reserve_bytes;
    out->site.mem_reserve_pct = site->site.mem_reserve_pct;
    out->site.cpu_reserve_threads = site->site.cpu_reserve_threads;
    out->site.cpu_reserve_pct = site->site.cpu_reserve_pct;
    out->seal_required = site->seal_required;
    out->ttl_s = site->ttl_s;
    out->threads = mode->given && mode->threads;
    switch (site->runtimes) {
    case GOV_RUNTIMES_OFF: out->runtimes = mode->given && mode->runtimes; break;
    case GOV_RUNTIMES_ON: out->runtimes = !(mode->given && mode->noruntimes); break;
    case GOV_RUNTIMES_ALWAYS: out->runtimes = true; break;
    }
    return on;
}

bool gov__spank_pressure_resolve(const gov_spank_policy *site, const gov_mode *mode)
{
    return site->pressure == GOV_PRESSURE_ON ||
           (site->pressure == GOV_PRESSURE_ALLOW && mode->given && mode->pressure);
}

/* The words of a MODE, each with whether site refuses it. */
static size_t mode_words(const gov_spank_policy *site, const char **word, bool *refused)
{
    static const char *const all[] = { "batch", "interactive", "threads", "runtimes",
                                       "noruntimes", "pressure", "off" };
    size_t n = sizeof all / sizeof all[0];

    for (size_t i = 0; i < n; i++) {
        word[i] = all[i];
        refused[i] = site && ((!strcmp(all[i], "off") && !site->allow_off) ||
                              (!strcmp(all[i], "noruntimes") &&
                               site->runtimes == GOV_RUNTIMES_ALWAYS) ||
                              (!strcmp(all[i], "pressure") && site->pressure == GOV_PRESSURE_OFF));
    }
    return n;
}

static void allowed_words(const gov_spank_policy *site, gov_text_buf *o)
{
    const char *word[8];
    bool refused[8];
    size_t n = mode_words(site, word, refused);
    bool first = true;

    for (size_t i = 0; i < n; i++) {
        if (refused[i])
            continue;
        gov__text_put(o, "%s%s", first ? "" : ", ", word[i]);
        first = false;
    }
}

void gov__spank_mode_help(const gov_spank_policy *site, char *buf, size_t cap)
{
    gov_text_buf o = gov__text_fixed(buf, cap);

    gov__text_put(&o, "valid values%s: ", site ? " here" : "");
    allowed_words(site, &o);
    gov__text_put(&o, ", as a comma list (e.g. --governor=interactive,runtimes)");
}

bool gov__spank_mode_refused(const gov_spank_policy *site, const gov_mode *mode, char *msg,
                             size_t cap)
{
    gov_text_buf o = gov__text_fixed(msg, cap);

    if (mode->off && !site->allow_off) {
        gov__text_put(&o, "this site does not allow --governor=off (allow_off=no); drop the "
                          "option, or give one of: ");
        allowed_words(site, &o);
        return true;
    }
    if (mode->noruntimes && site->runtimes == GOV_RUNTIMES_ALWAYS) {
        gov__text_put(&o, "this site sizes every runtime in every task (runtimes=always); drop "
                          "noruntimes from --governor");
        return true;
    }
    if (mode->pressure && site->pressure == GOV_PRESSURE_OFF) {
        gov__text_put(&o, "this site hands out no pressure triggers (pressure=off); drop "
                          "pressure from --governor");
        return true;
    }
    return false;
}

int gov__spank_option_verdict(const gov_spank_policy *site, const char *value, bool remote,
                              gov_mode *out, char *msg, size_t cap)
{
    char help[GOV_MODE_HELP_MAX];

    if (gov__mode_parse(value, out)) {
        gov__spank_mode_help(site, help, sizeof help);
        snprintf(msg, cap, "invalid --governor value; %s", help);
        return GOV_EPARSE;
    }
    /* In slurmstepd the site's default then stands (the step's verdict
     * notes it); where a person is watching, say no at once. */
    if (!remote && site && gov__spank_mode_refused(site, out, msg, cap))
        return GOV_EACCES;
    return 0;
}

static void note(gov_step_verdict *v, const char *text)
{
    if (v->nnotes < GOV_VERDICT_NOTES)
        v->notes[v->nnotes++] = text;
}

void gov__spank_step_verdict(const gov_spank_policy *site, const gov_mode *mode, bool mode_ok,
                             gov_step_verdict *v)
{
    gov_mode m = *mode;

    memset(v, 0, sizeof *v);
    /* A value srun never checked (the job's environment carries one too):
     * under seal=required the tasks are refused; otherwise it counts as no
     * value, so the site's default, allow_off=no and runtimes=always hold. */
    if (!mode_ok) {
        if (site->seal_required) {
            v->refused = true;
            snprintf(v->why, sizeof v->why, "this step's --governor value is not valid");
            gov__spank_mode_help(site, v->advice, sizeof v->advice);
            return;
        }
        note(v, "the --governor value that reached this step is not valid; the site's default "
                "applies");
        memset(&m, 0, sizeof m);
    }
    if (m.given && m.off && !site->allow_off)
        note(v, "--governor=off reached this step although the site does not allow it "
                "(allow_off=no); the site's default applies");
    if (m.given && m.noruntimes && site->runtimes == GOV_RUNTIMES_ALWAYS)
        note(v, "--governor=noruntimes reached this step although the site sizes every runtime "
                "(runtimes=always); the runtimes' variables are set");
    if (m.given && m.pressure && site->pressure == GOV_PRESSURE_OFF)
        note(v, "--governor=pressure reached this step although the site hands out no pressure "
                "triggers (pressure=off); none are set");
    v->governed = gov__spank_policy_resolve(site, &m, &v->policy);
    v->pressure = v->governed && gov__spank_pressure_resolve(site, &m);
}

bool gov__spank_mode_misplaced(const gov_mode *mode, const char *program)
{
    return mode->given && mode->bare && gov__mode_word(program);
}
