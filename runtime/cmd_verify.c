/* cmd_verify.c: placeholder until the verb lands. */
#include "cmd.h"
#include <stdio.h>
int gov_cmd_verify(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "governor: verify is not built yet\n"); return 2; }
