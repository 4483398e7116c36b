/*
 * run_dir.h - the plugin's run directory: the one place where governor.so
 * writes, as root, on a node (the topology table, topo_cache.c; the log
 * rate-limit stamps, ratelimit.c; the steps' descriptor files, step_file.c).  Free of Slurm symbols so that unit
 * tests link it directly.
 *
 * Nothing in it, and nothing on the way to it, may be something a user
 * can prepare or hold: root reads and writes there on every task launch.
 */
#ifndef GOV_SPANK_RUN_DIR_H
#define GOV_SPANK_RUN_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * (step_file.c; NAME random, mode 0444, the directory 0711 and made when
 * missing), its path into path.  Returns 0, or a negative GOV_E* with *why
 * a static reason fit for a log. */
int gov__step_file_write(const char *run_dir, const char *text, size_t len, char *path,
                         size_t cap, const char **why);

/* Remove a file gov__step_file_write() made (at the step's end). */
void gov__step_file_remove(const char *run_dir, const char *path);

#endif /* GOV_SPANK_RUN_DIR_H */
