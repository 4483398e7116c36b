/* cmd_snapshot.c: placeholder */
