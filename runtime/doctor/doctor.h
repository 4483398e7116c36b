/* doctor.h - the site audit behind `governor doctor`: findings that follow
 * from one snapshot.  For each resource the scheduler allocated, a finding
 * says what the kernel enforces and names the setting that would close a
 * gap.  Pure: it reads no files and prints nothing. */
#ifndef GOV_DOCTOR_H
#define GOV_DOCTOR_H

#include "governor.h"

#include <stddef.h>

/* X(ENUMERATOR, name in JSON, label in the tool's table), mildest first. */
#define GOV_DOCTOR_SEVERITY_LIST(X)                                                       \
    X(GOV_DOCTOR_OK, "ok", "ok")                                                          \
    X(GOV_DOCTOR_INFO, "info", "info")                                                    \
    X(GOV_DOCTOR_WARN, "warn", "warn")                                                    \
    X(GOV_DOCTOR_ERROR, "error", "ERROR") /* an allocation the kernel does not enforce */ \
    /* append above this line */
typedef enum gov_doctor_severity {
    GOV_DOCTOR_SEVERITY_LIST(GOV_ENUM_MEMBER_)
} gov_doctor_severity;
enum { GOV_DOCTOR_SEVERITY_COUNT = GOV_DOCTOR_SEVERITY_LIST(GOV_ENUM_ONE_) 0 };

/* Bit (1u << layer) of each kernel layer that holds a process within its
 * allocation: GOV_LAYER_AFFINITY, _CPUSET, _QUOTA for CPU, _CGROUP (a hard
 * memory limit) for memory, _DEVICES (a device cgroup) for GPUs. */
#define GOV_DOCTOR_HELD(layer) (1u << (layer))

typedef struct gov_doctor_finding {
    const char *id;               /* stable, e.g. "memory.not_enforced" */
    gov_doctor_severity severity;
    const char *resource;         /* "descriptor", "scheduler", "cpu", "memory",
                                     "gpu", "cgroup", "pressure", "swap" */
    uint64_t allocation;          /* CPUs (cpu), bytes (memory) or GPUs (gpu) per
                                     process; GOV_UNKNOWN when not about one */
    int assessed;                 /* 1: `held` says what enforces it */
    unsigned held;                /* GOV_DOCTOR_HELD bits; 0 = nothing holds it */
    const char *summary;          /* what the snapshot shows (static) */
    const char *fix;              /* the setting that closes the gap, or NULL */
} gov_doctor_finding;

#define GOV_DOCTOR_MAX_FINDINGS 20

typedef struct gov_doctor_report {
    size_t count;
    gov_doctor_finding findings[GOV_DOCTOR_MAX_FINDINGS];
    int exit_status;              /* 0, or 1 when some finding is an error */
} gov_doctor_report;

/* Examine a resolved snapshot.  Returns 0, or GOV_EINVAL for NULL. */
int gov__doctor_examine(const gov_snapshot *snap, gov_doctor_report *out);

/* "ok", "info", "warn", "error"; NULL outside the enum. */
const char *gov__doctor_severity_name(gov_doctor_severity s);

/* The tool's label: the name, but "ERROR" shouts. */
const char *gov__doctor_severity_label(gov_doctor_severity s);

/* "cpus", "bytes" or "gpus" for a finding about an allocation, else NULL. */
const char *gov__doctor_unit(const gov_doctor_finding *f);

/* The holding layers as "affinity,cpuset" into buf; "none" when nothing
 * holds; "" when not assessed. */
void gov__doctor_held_names(const gov_doctor_finding *f, char *buf, size_t cap);

#endif
