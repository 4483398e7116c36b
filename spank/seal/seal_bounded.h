/*
 * seal_bounded.h - sealing in slurmstepd, with a bound on MUNGE; free of Slurm
 * symbols so that unit tests link it directly.
 */
#ifndef GOV_SPANK_SEAL_BOUNDED_H
#define GOV_SPANK_SEAL_BOUNDED_H

#include "descriptor.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The seal, as gov__seal_encode() makes it, but given up after timeout_ms:
 * libmunge has no timeout of its own (it retries a stalled daemon for
 * about 10 s: 5 attempts of 2 s).  The request runs in a child process,
 * killed at the deadline, so the caller may have other threads (slurmstepd)
 * and keeps nothing of a cancelled request.  why: as gov__seal_encode()'s.
 * Returns 0, GOV_ETIMEDOUT, or gov__seal_encode()'s errors. */
int gov__seal_bounded(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                      size_t len, unsigned timeout_ms, char **cred, char *why);

/* The same in two halves, so that the caller works while munged answers:
 * gov__seal_start forks the request's child (0, or an errno's code); the
 * deadline runs from there.  gov__seal_finish waits for the answer until
 * the deadline, reaps the child and returns as gov__seal_bounded does;
 * gov__seal_abandon kills and reaps a child whose answer is not wanted. */
typedef struct gov_seal_job {
    pid_t pid;           /* -1: none */
    int fd;              /* the child's pipe, -1: none */
    int64_t deadline_ms; /* CLOCK_MONOTONIC */
} gov_seal_job;

int gov__seal_start(const char *socket, uint32_t ttl_s, uint32_t uid, const void *payload,
                    size_t len, unsigned timeout_ms, gov_seal_job *job);
int gov__seal_finish(gov_seal_job *job, char **cred, char *why);
void gov__seal_abandon(gov_seal_job *job);


#endif /* GOV_SPANK_SEAL_BOUNDED_H */
