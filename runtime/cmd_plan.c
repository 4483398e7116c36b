/* cmd_plan.c: placeholder */
