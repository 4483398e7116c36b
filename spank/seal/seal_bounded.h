/*
 * seal_bounded.h - sealing in slurmstepd, with a bound on MUNGE; free of Slurm
 * symbols so that unit tests link it directly.
 */
#ifndef GOV_SPANK_SEAL_BOUNDED_H
#define GOV_SPANK_SEAL_BOUNDED_H

#include "descriptor.h"

#include <stdbool.h>
#include <sys/types.h>

/* The seal, as gov__seal_encode() makes it, but given up after timeout_ms:
 * libmunge has no timeout of its own (it retries a stalled daemon for
 * about 10 s: 5 attempts of 2 s).  The request runs in a child process,
 * killed at the deadline, so the caller may have other threads (slurmstepd)
 * and keeps nothing of a cancelled request.  why: as gov__seal_encode()'s.
 * Returns 0, GOV_ETIMEDOUT, or gov__seal_encode()'s errors. */
int gov__seal_bounded(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                      size_t len, unsigned timeout_ms, char **cred, char *why);

/* Whether root may hand a descriptor to the MUNGE socket at path (NULL:
 * libmunge's default): a user who could put her own listener there would
 * get every task's plaintext descriptor, with root as its peer.  Every
 * directory from "/" to the socket must belong to root or to owner (the
 * munge user; (uid_t)-1: none) and be writable by nobody else, sticky ones
 * (/tmp) included; a link is followed (at most 8) only from such a
 * directory; the socket must be a socket of root's or owner's.  A path
 * that ends in a missing name inside such directories passes: only root
 * or munge could put something there (libmunge then reports it missing).
 * No connection is made: munged logs each one that sends nothing.
 * Returns 0, GOV_EACCES, GOV_EINVAL or another negative errno, with *why
 * a static reason fit for a log. */
int gov__munge_path_check(const char *path, uid_t owner, const char **why);

#endif /* GOV_SPANK_SEAL_BOUNDED_H */
