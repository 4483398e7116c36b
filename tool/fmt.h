/* fmt.h - figures as the tool prints them for people (fmt.c): shared by
 * the verbs (through cmd_common.h) and the report's renderings. */
#ifndef GOV_TOOL_FMT_H
#define GOV_TOOL_FMT_H

#include <stddef.h>
#include <stdint.h>

/* "1.5 GiB", "-" for GOV_UNKNOWN. */
void gov__fmt_bytes(uint64_t v, char *buf, size_t cap);
/* "12", "-" for GOV_UNKNOWN. */
void gov__fmt_count(uint64_t v, char *buf, size_t cap);

#endif
