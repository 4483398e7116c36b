/*
 * run_dir.h - the one directory the plugin writes on a node, and what it
 * writes there.
 * One header for the room (spank/run_dir/); each section names its file.
 */
#ifndef GOV_RUN_DIR_H
#define GOV_RUN_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ==== run_dir.c, ratelimit.c, step_file.c ==================================
 * the plugin's run directory: the one place where governor.so
 * writes, as root, on a node (the topology table, topo_cache.c; the log
 * rate-limit stamps, ratelimit.c; the steps' descriptor files, step_file.c).  Free of Slurm symbols so that unit
 * tests link it directly.
 *
 * Nothing in it, and nothing on the way to it, may be something a user
 * can prepare or hold: root reads and writes there on every task launch.
 */
/* The default run_dir: a root-owned tmpfs directory, emptied at every
 * boot, created by the plugin. */
#define GOV_RUN_DIR_DEFAULT "/run/slurm-governor"

/* Open DIR, creating its last component (mode 0755) when create is set.
 * DIR must be an absolute path of plain names; DIR and every directory
 * above it root-owned and writable by nobody else.  A sticky directory
 * (/tmp) is refused too: a user could create DIR there first.  Nothing on
 * the way may be a symbolic link.  Returns a descriptor (O_PATH), or a
 * negative GOV_E* with *why set to a static reason fit for a log. */
int gov__run_dir_open(const char *dir, bool create, const char **why);

/* Whether a message keyed `name` is due: true at most once per period_s
 * on this node, across processes, by the time stamp of the root-only file
 * DIR/name.stamp (mode 0600; a file found with another owner or mode is
 * replaced).  The file counts the messages that were not due since the
 * last one: *folded gets that count when one is due (0 otherwise).  Never
 * blocks: when another process holds the stamp's lock the message is not
 * due (and not counted).  True as well when the stamp cannot be kept
 * (dirfd < 0): a lost limit beats a lost message. */
bool gov__note_due(int dirfd, const char *name, unsigned period_s, uint64_t *folded);

/* An exclusive flock on fd, tried every millisecond for wait_ms: false
 * when another process holds it that long (or it cannot be taken).  Root
 * never waits on a lock a user may hold. */
bool gov__lock_briefly(int fd, unsigned wait_ms);

/* gov__note_due() with the lock tried for wait_ms (1 ms polls) instead of
 * its 50: for tests, where tasks descheduled while holding the lock (a
 * loaded machine) must not be taken for a stuck holder. */
bool gov__note_due_wait(int dirfd, const char *name, unsigned period_s, unsigned wait_ms,
                        uint64_t *folded);

/* The step's descriptor text as a new file of root's, RUN_DIR/steps/NAME
 * (step_file.c; NAME random, mode 0444, immutable where the filesystem
 * has the flag, the directory 0711 and made when missing), its path into
 * path.  Returns 0, or a negative GOV_E* with *why
 * a static reason fit for a log. */
int gov__step_file_write(const char *run_dir, const char *text, size_t len, char *path,
                         size_t cap, const char **why);

/* Remove a file gov__step_file_write() made (at the step's end), its mark
 * cleared first. */
void gov__step_file_remove(const char *run_dir, const char *path);
/* The same for NAME in the steps directory dir: 0 or a negative errno. */
int gov__step_file_unlink(int dir, const char *name);

/* ==== pending.c ============================================================
 * what root still owes a step on this node if its slurmstepd ends first:
 * RUN_DIR/pending/NODE.JOB.STEP, root's alone (the directory 0700), written
 * at the step's start, replaced as it learns more, removed at its end; the
 * job's epilog sweeps what is left (pending.c says why).
 */
#define GOV_PENDING_MAX 4096

/* Write (or replace, whole) the note of NODE's step JOB.STEP.  Returns 0 or
 * a negative GOV_E* with *why a static reason fit for a log. */
int gov__pending_write(const char *run_dir, const char *node, uint64_t job, const char *step,
                       const char *text, size_t len, const char **why);

/* Remove that note (at the step's end); nothing when there is none. */
void gov__pending_remove(const char *run_dir, const char *node, uint64_t job, const char *step);

/* Every note of NODE's job JOB: fn(text, len, step, arg) for each that is
 * root's regular file, then the note removed (one that is not is removed
 * unread).  Returns how many there were, or a negative GOV_E* with *why. */
typedef void (*gov_pending_fn)(const char *text, size_t len, const char *step, void *arg);
int gov__pending_sweep(const char *run_dir, const char *node, uint64_t job,
                       gov_pending_fn fn, void *arg, const char **why);

/* ==== report_file.c ========================================================
 * appending a step record to DIR/steps.jsonl as root
 * (report_file.c).  Free of Slurm symbols: the unit tests and the
 * benchmark link it directly.
 */
/* Append line[0..len) to DIR/steps.jsonl: DIR is checked as run_dir is
 * (run_dir.h; created if missing), the file is created 0600, never opened
 * through a link, and must be a regular file of root's alone (no group or
 * other bits, one link).  The line is written whole under an exclusive
 * lock, or not at all (a short write is cut back); the lock is waited for
 * 50 ms at most.  Returns 0, GOV_EACCES, GOV_ETIMEDOUT (locked past the
 * wait: the record is dropped) or a negative errno (-ENOSPC for a full
 * disk), with *why set to a static reason fit for a log. */
int gov__report_append(const char *dir, const char *line, size_t len, const char **why);

#endif /* GOV_RUN_DIR_H */
