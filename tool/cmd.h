/* cmd.h - the verbs of the `governor` tool; main.c dispatches to them.
 * Each returns the process exit status. */
#ifndef GOV_CMD_H
#define GOV_CMD_H

/* One exit status convention for every verb (governor(1), EXIT STATUS):
 * scripts tell "no" from "could not tell" without knowing the verb. */
enum gov_exit {
    GOV_EXIT_OK = 0,          /* success; the verb's positive answer */
    GOV_EXIT_NO = 1,          /* its negative answer: verify: invalid; doctor: not enforced */
    GOV_EXIT_USAGE = 2,       /* a usage error; nothing was read */
    GOV_EXIT_FAILED = 3,      /* no answer: no snapshot (strict mode: no verified
                                 descriptor), no output, no environment for run */
    GOV_EXIT_ABSENT = 4,      /* verify: no descriptor at all */
    GOV_EXIT_NOT_EXEC = 126,  /* run: CMD was found but could not be executed */
    GOV_EXIT_NOT_RUN = 127,   /* run: CMD was not found */
};

int gov__cmd_snapshot(int argc, char **argv);
int gov__cmd_plan(int argc, char **argv);
int gov__cmd_verify(int argc, char **argv);
int gov__cmd_watch(int argc, char **argv);
int gov__cmd_run(int argc, char **argv);
int gov__cmd_doctor(int argc, char **argv);
int gov__cmd_report(int argc, char **argv);

/* Point hwloc at a --sysroot DIR (HWLOC_FSROOT, which the library
 * requires to read the tree's topology); 0, or -1 with errno set. */
int gov__tool_point_hwloc(const char *dir);

/* Undo the tool's own environment settings (main.c) before exec'ing a
 * user's command. */
void gov__tool_restore_env(void);

#endif
