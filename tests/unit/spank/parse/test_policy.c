/* The site policy from plugstack.conf arguments, and how a user's MODE
 * may tighten it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "parse.h"

static int parse(const char *a, const char *b, gov_spank_policy *p, char *err)
{
    const char *argv[] = { a, b };
    return gov__spank_policy_parse(b ? 2 : (a ? 1 : 0), argv, p, err, 256);
}

static void test_defaults(void **state)
{
    gov_spank_policy p;
    char err[256];

    assert_int_equal(parse(NULL, NULL, &p, err), 0);
    assert_false(p.default_on);
    assert_false(p.site.profile_imposed);
    assert_false(p.seal_required);
    assert_int_equal(p.ttl_s, 0);
    assert_int_equal(p.site.mem_reserve_bytes, GOV_UNKNOWN);
    assert_int_equal(p.site.cpu_reserve_threads, GOV_UNKNOWN);
    assert_string_equal(p.munge_socket, "");
    assert_string_equal(p.run_dir, "/run/slurm-governor");
    assert_false(p.topology_cache_off);
    assert_true(p.allow_off);
    assert_int_equal(p.munge_timeout_s, GOV_MUNGE_TIMEOUT_S);
    assert_false(p.per_core);
    assert_int_equal(p.pressure, GOV_PRESSURE_OFF);
    assert_int_equal(p.pressure_threshold_ms, GOV_PRESSURE_THRESHOLD_MS_DEFAULT);
}

static void test_every_key(void **state)
{
    const char *argv[] = {
        "default=on", "profile=interactive", "mem_reserve=2G", "cpu_reserve=10%",
        "seal=required", "ttl=3600", "munge_socket=/run/munge/munge.socket.2",
        "topology_cache=off", "allow_off=no", "munge_timeout=5",
        "run_dir=/var/lib/slurm-governor", "per_core=yes",
    };
    gov_spank_policy p;
    char err[256];

    assert_int_equal(gov__spank_policy_parse(12, argv, &p, err, sizeof err), 0);
    assert_true(p.per_core);
    assert_false(p.allow_off);
    assert_int_equal(p.munge_timeout_s, 5);
    assert_true(p.default_on);
    assert_true(p.site.profile_imposed);
    assert_int_equal(p.site.profile, GOV_PROFILE_INTERACTIVE);
    assert_int_equal(p.site.mem_reserve_bytes, UINT64_C(2) << 30);
    assert_int_equal(p.site.mem_reserve_pct, 0);
    assert_int_equal(p.site.cpu_reserve_pct, 10);
    assert_int_equal(p.site.cpu_reserve_threads, GOV_UNKNOWN);
    assert_true(p.seal_required);
    assert_int_equal(p.ttl_s, 3600);
    assert_string_equal(p.munge_socket, "/run/munge/munge.socket.2");
    assert_true(p.topology_cache_off);
    assert_string_equal(p.run_dir, "/var/lib/slurm-governor");
}

static void test_values(void **state)
{
    gov_spank_policy p;
    char err[256];

    assert_int_equal(parse("mem_reserve=512m", NULL, &p, err), 0);
    assert_int_equal(p.site.mem_reserve_bytes, UINT64_C(512) << 20);
    assert_int_equal(parse("mem_reserve=25%", NULL, &p, err), 0);
    assert_int_equal(p.site.mem_reserve_pct, 25);
    assert_int_equal(parse("mem_reserve=0", NULL, &p, err), 0);
    assert_int_equal(p.site.mem_reserve_bytes, GOV_UNKNOWN);
    assert_int_equal(parse("cpu_reserve=2", NULL, &p, err), 0);
    assert_int_equal(p.site.cpu_reserve_threads, 2);
    assert_int_equal(parse("default=off", "profile=batch", &p, err), 0);
    assert_false(p.default_on);
    assert_true(p.site.profile_imposed);
    assert_int_equal(p.site.profile, GOV_PROFILE_BATCH);
    assert_false(p.topology_cache_off);
    assert_int_equal(parse("topology_cache=off", NULL, &p, err), 0);
    assert_true(p.topology_cache_off);
    assert_string_equal(p.run_dir, "/run/slurm-governor");
    assert_int_equal(parse("topology_cache=on", NULL, &p, err), 0);
    assert_false(p.topology_cache_off);
    /* The older spelling of run_dir: the cache's directory, and the stamps'. */
    assert_int_equal(parse("topology_cache=/var/cache/gov", NULL, &p, err), 0);
    assert_false(p.topology_cache_off);
    assert_string_equal(p.run_dir, "/var/cache/gov");
    assert_int_equal(parse("topology_cache=/var/cache/gov", "run_dir=/var/cache/gov", &p, err), 0);
    assert_string_equal(p.run_dir, "/var/cache/gov");
    assert_int_equal(parse("run_dir=/var/cache/gov", "topology_cache=off", &p, err), 0);
    assert_true(p.topology_cache_off);
    assert_string_equal(p.run_dir, "/var/cache/gov");
}

/* per_core=yes|no: a thread per physical core for runtimes and threads;
 * no is the default, and may be said. */
static void test_per_core(void **state)
{
    gov_spank_policy p;
    char err[256];

    assert_int_equal(parse("per_core=yes", "runtimes=on", &p, err), 0);
    assert_true(p.per_core);
    assert_int_equal(p.runtimes, GOV_RUNTIMES_ON);
    assert_int_equal(parse("per_core=no", NULL, &p, err), 0);
    assert_false(p.per_core);
    assert_int_equal(parse("per_core=yes", "per_core=no", &p, err), GOV_EPARSE);
    assert_non_null(strstr(err, "'per_core' is given twice"));
    assert_false(p.per_core);
    assert_int_equal(parse("per_core=YES", NULL, &p, err), GOV_EPARSE);
    assert_false(p.per_core);
    /* The unknown-key message lists it with the others. */
    assert_int_equal(parse("percore=yes", NULL, &p, err), GOV_EPARSE);
    assert_non_null(strstr(err, "runtimes, per_core"));
}

static void test_errors_name_the_key(void **state)
{
    const char *bad[][2] = {
        { "colour=blue", "'colour'" },
        { "mem_reserve=2048", "mem_reserve" },   /* no unit: refused */
        { "mem_reserve=2X", "mem_reserve" },
        { "mem_reserve=2 ", "mem_reserve" },
        { "mem_reserve=0%", "mem_reserve" },
        { "mem_reserve=101%", "mem_reserve" },
        { "mem_reserve=99999999999T", "mem_reserve" },
        { "cpu_reserve=-1", "cpu_reserve" },
        { "default=yes", "default" },
        { "profile=fast", "profile" },
        { "seal=maybe", "seal" },
        { "ttl=0", "ttl" },
        { "ttl=3601", "ttl" },
        { "munge_socket=relative/path", "munge_socket" },
        { "topology_cache=", "topology_cache" },
        { "topology_cache=Off", "topology_cache" },
        { "run_dir=", "run_dir" },
        { "run_dir=run/governor", "run_dir" },
        { "allow_off=off", "allow_off" },
        { "munge_timeout=0", "munge_timeout" },
        { "munge_timeout=61", "munge_timeout" },
        { "per_core=on", "per_core' needs yes or no" },
        { "per_core=", "per_core" },
        { "per_core", "per_core" },
        { "seal", "seal" },
        { "", "''" },
    };
    gov_spank_policy p;
    char err[256];

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(parse(bad[i][0], NULL, &p, err), GOV_EPARSE);
        assert_non_null(strstr(err, bad[i][1]));
        /* On error the defaults stand. */
        assert_false(p.seal_required);
        assert_int_equal(p.site.mem_reserve_bytes, GOV_UNKNOWN);
    }
    assert_int_equal(parse("seal=required", "seal=optional", &p, err), GOV_EPARSE);
    assert_non_null(strstr(err, "twice"));
    assert_false(p.seal_required);
    /* The two spellings of the run directory must agree. */
    assert_int_equal(parse("topology_cache=/var/a", "run_dir=/var/b", &p, err), GOV_EPARSE);
    assert_non_null(strstr(err, "run_dir"));
    assert_string_equal(p.run_dir, "/run/slurm-governor");
    assert_int_equal(parse("run_dir=/var/b", "topology_cache=/var/a", &p, err), GOV_EPARSE);
    assert_non_null(strstr(err, "topology_cache"));
}

static void test_resolve(void **state)
{
    gov_spank_policy site;
    gov_mode none = { 0 }, user;
    gov_desc_policy out;

    gov__spank_policy_init(&site);
    /* Off by default; the option turns it on; "off" turns a default off. */
    assert_false(gov__spank_policy_resolve(&site, &none, &out));
    assert_int_equal(gov__mode_parse("threads", &user), 0);
    assert_true(gov__spank_policy_resolve(&site, &user, &out));
    assert_true(out.threads);
    site.default_on = true;
    assert_true(gov__spank_policy_resolve(&site, &none, &out));
    assert_false(out.threads);
    assert_int_equal(gov__mode_parse("off", &user), 0);
    assert_false(gov__spank_policy_resolve(&site, &user, &out));
    /* allow_off=no: a user's off does not count; the site's default does. */
    site.allow_off = false;
    assert_true(gov__spank_policy_resolve(&site, &user, &out));
    site.default_on = false;
    assert_false(gov__spank_policy_resolve(&site, &user, &out));
    site.default_on = true;
    site.allow_off = true;

    /* An imposed interactive profile cannot be loosened to batch... */
    site.site.profile_imposed = true;
    site.site.profile = GOV_PROFILE_INTERACTIVE;
    site.site.mem_reserve_pct = 20;
    assert_int_equal(gov__mode_parse("batch", &user), 0);
    assert_true(gov__spank_policy_resolve(&site, &user, &out));
    assert_int_equal(out.site.profile, GOV_PROFILE_INTERACTIVE);
    assert_true(out.site.profile_imposed);
    assert_int_equal(out.site.mem_reserve_pct, 20);
    /* ...while a user may tighten an imposed batch to interactive. */
    site.site.profile = GOV_PROFILE_BATCH;
    assert_int_equal(gov__mode_parse("interactive", &user), 0);
    assert_true(gov__spank_policy_resolve(&site, &user, &out));
    assert_int_equal(out.site.profile, GOV_PROFILE_INTERACTIVE);
}

/* runtimes=off|on|always: who decides whether a task starts with the
 * variables of `governor run`. */
static void test_resolve_runtimes(void **state)
{
    gov_spank_policy site;
    gov_mode none = { 0 }, yes, no, threads;
    gov_desc_policy out;
    char err[256];

    assert_int_equal(gov__mode_parse("runtimes", &yes), 0);
    assert_int_equal(gov__mode_parse("noruntimes", &no), 0);
    assert_int_equal(gov__mode_parse("threads", &threads), 0);
    assert_int_equal(parse("default=on", NULL, &site, err), 0);
    assert_int_equal(site.runtimes, GOV_RUNTIMES_OFF);
    gov__spank_policy_resolve(&site, &none, &out);
    assert_false(out.runtimes);
    gov__spank_policy_resolve(&site, &yes, &out);
    assert_true(out.runtimes);
    gov__spank_policy_resolve(&site, &threads, &out);
    assert_false(out.runtimes);
    assert_true(out.threads);

    assert_int_equal(parse("default=on", "runtimes=on", &site, err), 0);
    gov__spank_policy_resolve(&site, &none, &out);
    assert_true(out.runtimes);
    gov__spank_policy_resolve(&site, &threads, &out);
    assert_true(out.runtimes);
    gov__spank_policy_resolve(&site, &no, &out);
    assert_false(out.runtimes);

    assert_int_equal(parse("default=on", "runtimes=always", &site, err), 0);
    gov__spank_policy_resolve(&site, &no, &out);
    assert_true(out.runtimes);

    assert_int_equal(parse("runtimes=yes", NULL, &site, err), GOV_EPARSE);
    assert_non_null(strstr(err, "runtimes' needs off, on or always"));
}

/* pressure=off|allow|on: who decides whether a step's tasks get pressure
 * triggers; pressure_threshold_ms stays inside the kernel's 2 s window. */
static void test_resolve_pressure(void **state)
{
    gov_spank_policy site;
    gov_mode none = { 0 }, asked, other;
    char err[256];

    assert_int_equal(gov__mode_parse("pressure", &asked), 0);
    assert_int_equal(gov__mode_parse("runtimes", &other), 0);
    assert_int_equal(parse("default=on", NULL, &site, err), 0);
    assert_false(gov__spank_pressure_resolve(&site, &asked));
    assert_int_equal(parse("pressure=allow", "pressure_threshold_ms=1999", &site, err), 0);
    assert_int_equal(site.pressure_threshold_ms, 1999);
    assert_false(gov__spank_pressure_resolve(&site, &none));
    assert_false(gov__spank_pressure_resolve(&site, &other));
    assert_true(gov__spank_pressure_resolve(&site, &asked));
    assert_int_equal(parse("pressure=on", NULL, &site, err), 0);
    assert_true(gov__spank_pressure_resolve(&site, &none));

    assert_int_equal(parse("pressure=yes", NULL, &site, err), GOV_EPARSE);
    assert_non_null(strstr(err, "pressure' needs off, allow or on"));
    assert_int_equal(parse("pressure_threshold_ms=2000", NULL, &site, err), GOV_EPARSE);
    assert_non_null(strstr(err, "milliseconds from 1 to 1999"));
    assert_int_equal(parse("pressure_threshold_ms=0", NULL, &site, err), GOV_EPARSE);
}

/* on_init_error=: what slurmstepd does when governor.so cannot start.  For
 * arguments that do not parse, the key alone still counts: the last value
 * that parses, or run. */
static void test_on_init_error(void **state)
{
    gov_spank_policy site;
    char err[256];
    const char *broken[] = { "on_init_error=fail_job", "seal=sometimes" };
    const char *twice[] = { "on_init_error=drain_node", "x", "on_init_error=bogus" };
    const char *none[] = { "seal=sometimes", "on_init_error" };

    assert_int_equal(parse(NULL, NULL, &site, err), 0);
    assert_int_equal(site.on_init_error, GOV_INIT_ERROR_RUN);
    assert_int_equal(parse("on_init_error=fail_job", NULL, &site, err), 0);
    assert_int_equal(site.on_init_error, GOV_INIT_ERROR_FAIL_JOB);
    assert_int_equal(parse("on_init_error=drain_node", NULL, &site, err), 0);
    assert_int_equal(site.on_init_error, GOV_INIT_ERROR_DRAIN_NODE);
    assert_int_equal(parse("on_init_error=fail", NULL, &site, err), GOV_EPARSE);
    assert_non_null(strstr(err, "on_init_error' needs run, fail_job or drain_node"));

    assert_int_equal(gov__spank_policy_parse(2, broken, &site, err, sizeof err), GOV_EPARSE);
    assert_int_equal(gov__spank_policy_on_init_error(2, broken), GOV_INIT_ERROR_FAIL_JOB);
    assert_int_equal(gov__spank_policy_on_init_error(3, twice), GOV_INIT_ERROR_DRAIN_NODE);
    assert_int_equal(gov__spank_policy_on_init_error(2, none), GOV_INIT_ERROR_RUN);
    assert_int_equal(gov__spank_policy_on_init_error(0, NULL), GOV_INIT_ERROR_RUN);
}

/* The words a complaint about --governor offers are those the site takes,
 * and a refusal names the key and what the site does take. */
static void test_mode_help_and_refusals(void **state)
{
    gov_spank_policy site;
    gov_mode m;
    char err[256], msg[GOV_MODE_HELP_MAX];
    const char *strict[] = { "allow_off=no", "runtimes=always" };

    (void)state;
    gov__spank_mode_help(NULL, msg, sizeof msg);
    assert_string_equal(msg, "valid values: batch, interactive, threads, runtimes, noruntimes, "
                             "pressure, off, as a comma list (e.g. --governor=interactive,runtimes)");
    /* The default site hands out no pressure triggers. */
    assert_int_equal(parse(NULL, NULL, &site, err), 0);
    gov__spank_mode_help(&site, msg, sizeof msg);
    assert_string_equal(msg, "valid values here: batch, interactive, threads, runtimes, noruntimes, "
                             "off, as a comma list (e.g. --governor=interactive,runtimes)");
    assert_int_equal(gov__mode_parse("pressure", &m), 0);
    assert_true(gov__spank_mode_refused(&site, &m, msg, sizeof msg));
    assert_string_equal(msg, "this site hands out no pressure triggers (pressure=off); drop "
                             "pressure from --governor");
    assert_int_equal(gov__mode_parse("off", &m), 0);
    assert_false(gov__spank_mode_refused(&site, &m, msg, sizeof msg));

    assert_int_equal(gov__spank_policy_parse(2, strict, &site, err, sizeof err), 0);
    gov__spank_mode_help(&site, msg, sizeof msg);
    assert_string_equal(msg, "valid values here: batch, interactive, threads, runtimes, as a comma "
                             "list (e.g. --governor=interactive,runtimes)");
    assert_true(gov__spank_mode_refused(&site, &m, msg, sizeof msg));
    assert_string_equal(msg, "this site does not allow --governor=off (allow_off=no); drop the "
                             "option, or give one of: batch, interactive, threads, runtimes");
    assert_int_equal(gov__mode_parse("noruntimes,threads", &m), 0);
    assert_true(gov__spank_mode_refused(&site, &m, msg, sizeof msg));
    assert_non_null(strstr(msg, "(runtimes=always); drop noruntimes"));
    assert_int_equal(gov__mode_parse("interactive,runtimes", &m), 0);
    assert_false(gov__spank_mode_refused(&site, &m, msg, sizeof msg));
}

/* What the plugin hands out depends on the kernel's release (uname -r). */
static void test_kernel_release(void **state)
{
    assert_true(gov__kernel_release_at_least("6.5.0", 6, 5));
    assert_true(gov__kernel_release_at_least("6.12.48+deb13-amd64", 6, 5));
    assert_true(gov__kernel_release_at_least("7.0", 6, 5));
    assert_false(gov__kernel_release_at_least("6.1.0-40-amd64", 6, 5));
    assert_false(gov__kernel_release_at_least("5.19.17", 6, 5));
    assert_false(gov__kernel_release_at_least("6", 6, 0));
    assert_false(gov__kernel_release_at_least("six.5", 6, 5));
    assert_false(gov__kernel_release_at_least("", 6, 5));
    assert_false(gov__kernel_release_at_least(NULL, 6, 5));
    assert_false(gov__kernel_release_at_least("99999999999999999999.1", 6, 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_key),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors_name_the_key),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_resolve_runtimes),
        cmocka_unit_test(test_per_core),
        cmocka_unit_test(test_resolve_pressure),
        cmocka_unit_test(test_on_init_error),
        cmocka_unit_test(test_kernel_release),
        cmocka_unit_test(test_mode_help_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
