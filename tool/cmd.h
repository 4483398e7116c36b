/* cmd.h - the verbs of the `governor` tool; main.c dispatches to them.
 * Each returns the process exit status. */
#ifndef GOV_CMD_H
#define GOV_CMD_H

int gov_cmd_snapshot(int argc, char **argv);
int gov_cmd_plan(int argc, char **argv);
int gov_cmd_verify(int argc, char **argv);
int gov_cmd_watch(int argc, char **argv);
int gov_cmd_run(int argc, char **argv);
int gov_cmd_doctor(int argc, char **argv);

/* Undo the tool's own environment settings (main.c) before exec'ing a
 * user's command. */
void gov_tool_restore_env(void);

#endif
