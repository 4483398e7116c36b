/* cmd_watch.c: placeholder until the verb lands. */
#include "cmd.h"
#include <stdio.h>
int gov_cmd_watch(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "governor: watch is not built yet\n"); return 2; }
