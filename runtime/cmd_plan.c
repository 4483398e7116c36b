/* cmd_plan.c: placeholder until the verb lands. */
#include "cmd.h"
#include <stdio.h>
int gov_cmd_plan(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "governor: plan is not built yet\n"); return 2; }
