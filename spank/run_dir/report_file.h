/*
 * report_file.h - appending a step record to DIR/steps.jsonl as root
 * (report_file.c).  Free of Slurm symbols: the unit tests and the
 * benchmark link it directly.
 */
#ifndef GOV_SPANK_REPORT_FILE_H
#define GOV_SPANK_REPORT_FILE_H

#include <stddef.h>

/* Append line[0..len) to DIR/steps.jsonl: DIR is checked as run_dir is
 * (run_dir.h; created if missing), the file is created 0600, never opened
 * through a link, and must be a regular file of root's alone (no group or
 * other bits, one link).  The line is written whole under an exclusive
 * lock, or not at all (a short write is cut back); the lock is waited for
 * 50 ms at most.  Returns 0, GOV_EACCES, GOV_ETIMEDOUT (locked past the
 * wait: the record is dropped) or a negative errno (-ENOSPC for a full
 * disk), with *why set to a static reason fit for a log. */
int gov__report_append(const char *dir, const char *line, size_t len, const char **why);

#endif /* GOV_SPANK_REPORT_FILE_H */
