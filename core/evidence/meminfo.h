/*
 * meminfo.h - the host's memory from /proc/meminfo (meminfo.c).  The
 * collector never fails: what it cannot read stays GOV_UNKNOWN.
 */
#ifndef GOV_MEMINFO_H
#define GOV_MEMINFO_H

#include "governor.h"
#include "sysroot.h"

#include <stddef.h>

int gov__meminfo_parse(const char *text, size_t len, uint64_t *total_bytes,
                       uint64_t *available_bytes);
void gov__meminfo_collect(const gov_root *root, uint64_t *total_bytes,
                          uint64_t *available_bytes);

#endif /* GOV_MEMINFO_H */
