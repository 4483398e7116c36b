/* cmd_snapshot.c: placeholder until the verb lands. */
#include "cmd.h"
#include <stdio.h>
int gov_cmd_snapshot(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "governor: snapshot is not built yet\n"); return 2; }
