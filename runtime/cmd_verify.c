/* cmd_verify.c: placeholder */
