/*
 * snapshot_fields.h - every field of gov_snapshot once (snapshot_fields.c):
 * its JSON path, how it is rendered, and so what "unknown" is for it.
 * gov_snapshot_init() and each collector's starting value come from it,
 * gov_snapshot_json() renders it, and tests/consistency/test_snapshot_fields.sh
 * checks that docs/snapshot.md lists exactly its paths.  A new fact is a
 * member in governor.h, a row here, a row in docs/snapshot.md, and the
 * collector that fills it.
 */
#ifndef GOV_SNAPSHOT_FIELDS_H
#define GOV_SNAPSHOT_FIELDS_H

#include "governor.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum gov_field_kind {
    GOV_FIELD_COUNT,     /* uint64_t; unknown GOV_UNKNOWN, printed null */
    GOV_FIELD_FRACTION,  /* double; unknown NaN, printed null */
    GOV_FIELD_FLAG,      /* int 0/1, a JSON boolean, never unknown */
    GOV_FIELD_TRISTATE,  /* int 1/0, unknown -1, printed null */
    GOV_FIELD_INDEX,     /* int >= 0, unknown -1, printed null */
    GOV_FIELD_PERCENT,   /* uint32_t, 0 when none: a JSON number */
    GOV_FIELD_VERSION,   /* int cgroup version 1 or 2; unknown 0, printed null */
    GOV_FIELD_NAME,      /* an enum, printed by `name`; unknown 0 (every
                            enum's "none" member, printed null) */
    GOV_FIELD_CPUSET,    /* gov_cpuset, printed as a CPU list; null when the
                            count at `aux` is GOV_UNKNOWN */
    GOV_FIELD_DERIVED,   /* printed by `derive` from other members */
    GOV_FIELD_NUMA_LIST, /* gov_topology_numa[], `aux` the offset of its
                            uint32_t count: an array of objects; null when
                            the task part is unknown */
} gov_field_kind;

typedef struct gov_field {
    /* The JSON path below the top ("memory.cgroup.limit_bytes"); for a
     * hidden field the member's name, for the reader. */
    const char *path;
    gov_field_kind kind;
    /* Not printed itself: a derived field shows it.  Still a member with
     * an unknown value. */
    bool hidden;
    size_t offset;       /* of the member in gov_snapshot */
    size_t aux;          /* CPUSET, NUMA_LIST: offset of its count */
    const char *(*name)(unsigned value);                    /* NAME */
    /* DERIVED: the string to print, NULL for null; buf is scratch. */
    const char *(*derive)(const gov_snapshot *s, char *buf, size_t cap);
} gov_field;

/* Every field in JSON order; *count set. */
const gov_field *gov__snapshot_fields(size_t *count);

/* Set the part of a snapshot at offset (size bytes) to unknown: zero, then
 * each field's unknown value.  The part may live outside a snapshot (a
 * collector's own gov_snapshot_memory_cgroup). */
void gov__part_set_unknown(void *part, size_t offset, size_t size);

/* GOV_SET_UNKNOWN(&cg->memory, memory.cgroup): the part named as a member
 * of gov_snapshot; the pointer must be of that member's type. */
#define GOV_SET_UNKNOWN(ptr, member)                                               \
    ((void)sizeof((ptr) == &((gov_snapshot *)0)->member),                         \
     gov__part_set_unknown((ptr), offsetof(gov_snapshot, member),                   \
                           sizeof(((gov_snapshot *)0)->member)))

#endif /* GOV_SNAPSHOT_FIELDS_H */
