/* doctor_runtimes.h - `governor doctor --runtimes`: each runtime installed
 * here asked what it decides, plainly and under governor run, beside the
 * budget (doctor_runtimes.c). */
#ifndef GOV_DOCTOR_RUNTIMES_H
#define GOV_DOCTOR_RUNTIMES_H

#include "cmd_common.h"

/* A probe's time by default: a runtime's start and one import (PyTorch's
 * takes about a second on a small machine, ten times that under TCG). */
#define GOV_PROBE_TIMEOUT_S 20

/* Ask every runtime of runtime_probes.c; the compiled probes are looked
 * for in probe_dir.  Prints the table (or JSON, o->json) and returns the
 * exit status. */
int gov__doctor_runtimes(const gov_snapshot *snap, const gov_cmd_opts *o, const char *probe_dir,
                         unsigned timeout_s);

#endif
