/*
 * seal.h - sealing in a task that is about to exec, with a bound on MUNGE;
 * free of Slurm symbols so that unit tests link it directly.
 */
#ifndef GOV_SPANK_SEAL_H
#define GOV_SPANK_SEAL_H

#include "descriptor.h"

#include <stdbool.h>

/* The seal, as gov_seal_encode() makes it, but given up after timeout_ms:
 * libmunge has no timeout of its own (it retries a stalled daemon for
 * about 10 s: 5 attempts of 2 s).  The request runs in a thread that is
 * cancelled at the deadline; every descriptor opened meanwhile is then
 * closed (the process must have no other thread).  Only for a process
 * that will exec or exit soon (a task in task_init_privileged): what the
 * cancelled call allocated is not freed.  why: as gov_seal_encode()'s.
 * Returns 0, GOV_ETIMEDOUT, or gov_seal_encode()'s errors. */
int gov_seal_bounded(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                     size_t len, unsigned timeout_ms, char **cred, char *why);

#endif /* GOV_SPANK_SEAL_H */
