/* main.c - the `governor` tool: dispatch a verb to its file. */
#include "cmd.h"
#include "governor.h"
#include "evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hwloc dlopens its plugins (GL, OpenCL, libxml2, PCI, and their
 * libraries) at every topology init: more than half of a short-lived
 * `governor snapshot`.  The host counts need none of them.  The tool owns
 * its environment, so it keeps the project's excluded components out
 * unless the user chose otherwise, and gov__tool_restore_env() takes the
 * setting back before an exec. */
static int tool_set_blacklist;

static void keep_hwloc_plugins_out(void)
{
    char list[256];

    if (!getenv("HWLOC_PLUGINS_BLACKLIST") && gov__hwloc_plugins_blacklist(list, sizeof list) > 0)
        tool_set_blacklist = setenv("HWLOC_PLUGINS_BLACKLIST", list, 0) == 0;
}

/* --sysroot DIR: hwloc reads DIR too, so the topology is the tree's and
 * is read by the code that reads a live node.  A tree without CPU
 * topology is said in the tool's words (cmd_common.c), not in hwloc's
 * ("[hwloc/linux] failed to find sysfs cpu topology directory"): hwloc
 * keeps its errors to itself there unless the user asked for them.  The
 * user's own values come back before an exec. */
static int tool_set_fsroot, tool_set_hide;
static char *tool_user_fsroot;

int gov__tool_point_hwloc(const char *dir)
{
    const char *was = getenv("HWLOC_FSROOT");

    if (!tool_set_fsroot && was && !(tool_user_fsroot = strdup(was)))
        return -1;
    if (setenv("HWLOC_FSROOT", dir, 1) != 0)
        return -1;
    tool_set_fsroot = 1;
    if (!getenv("HWLOC_HIDE_ERRORS"))
        tool_set_hide = setenv("HWLOC_HIDE_ERRORS", "2", 0) == 0;
    return 0;
}

void gov__tool_restore_env(void)
{
    if (tool_set_blacklist)
        unsetenv("HWLOC_PLUGINS_BLACKLIST");
    tool_set_blacklist = 0;
    if (tool_set_hide)
        unsetenv("HWLOC_HIDE_ERRORS");
    tool_set_hide = 0;
    if (tool_set_fsroot) {
        if (tool_user_fsroot)
            setenv("HWLOC_FSROOT", tool_user_fsroot, 1);
        else
            unsetenv("HWLOC_FSROOT");
        free(tool_user_fsroot);
        tool_user_fsroot = NULL;
    }
    tool_set_fsroot = 0;
}

struct gov_verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
};

static const struct gov_verb verbs[] = {
    { "snapshot", gov__cmd_snapshot, "show what this process may use (--json, --sysroot DIR)" },
    { "plan", gov__cmd_plan, "worker and thread ceilings (--json, --workers N)" },
    { "verify", gov__cmd_verify, "check the sealed descriptor (exit 0 verified, 1 invalid, 4 absent)" },
    { "run", gov__cmd_run, "run a command with thread pools sized to this allocation" },
    { "watch", gov__cmd_watch, "pressure, ceiling and availability once a second (--json)" },
    { "doctor", gov__cmd_doctor, "audit enforcement of this allocation (exit 0 enforced, 1 not)" },
    { "report", gov__cmd_report, "admins: what governed steps used against their budgets (--json, --prometheus)" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: governor VERB [OPTIONS]\n\nverbs:\n");
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].help);
    fprintf(f, "\n'governor VERB --help' describes a verb's options.  Exit status of every\n"
               "verb: 0 success or yes, 1 no, 2 usage error, 3 no answer (governor(1)).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return GOV_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return GOV_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("governor %s\n", gov_version_string());
        return GOV_EXIT_OK;
    }
    keep_hwloc_plugins_out();
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (!strcmp(argv[1], verbs[i].name))
            return verbs[i].run(argc - 1, argv + 1);
    fprintf(stderr, "governor: unknown verb '%s'; run 'governor --help' for the list\n", argv[1]);
    return GOV_EXIT_USAGE;
}
