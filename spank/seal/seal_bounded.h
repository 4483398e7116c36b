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


#endif /* GOV_SPANK_SEAL_BOUNDED_H */
