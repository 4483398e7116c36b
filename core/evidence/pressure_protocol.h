/*
 * pressure_protocol.h - systemd's pressure hand-off, which the plugin
 * writes (pressure on) and libgovernor reads: $MEMORY_PRESSURE_WATCH names
 * a PSI file to open read-write, $MEMORY_PRESSURE_WRITE the trigger to
 * write into it, base64-encoded ("some 200000 2000000": 200 ms of stall
 * in any 2 s); the CPU_ and IO_ pairs likewise.  A WATCH of "/dev/null"
 * means none, as systemd says.
 */
#ifndef GOV_PRESSURE_PROTOCOL_H
#define GOV_PRESSURE_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct gov_pressure_kind {
    const char *name;        /* memory */
    const char *watch_var;   /* MEMORY_PRESSURE_WATCH */
    const char *write_var;   /* MEMORY_PRESSURE_WRITE */
    const char *file;        /* memory.pressure, in a cgroup v2 directory */
} gov_pressure_kind;

/* memory, cpu, io: bit i of a kind mask is gov__pressure_kinds[i]. */
#define GOV_PRESSURE_KINDS 3
extern const gov_pressure_kind gov__pressure_kinds[GOV_PRESSURE_KINDS];

/* The only window an unprivileged writer may use on Linux 6.5 and later is
 * a multiple of 2 s (served by the kernel's averaging work, no real-time
 * poller); the plugin asks for the smallest. */
#define GOV_PRESSURE_WINDOW_US 2000000u

/* Room for a trigger's text and for its base64. */
#define GOV_PRESSURE_TRIGGER_MAX 64
#define GOV_PRESSURE_WRITE_MAX 96

/* Base64 (RFC 4648, padded) of the trigger "some THRESHOLD WINDOW" (us)
 * into b64.  Returns 0, GOV_EINVAL (threshold 0 or not below the window)
 * or GOV_ENOSPC. */
int gov__pressure_write_encode(uint32_t threshold_us, uint32_t window_us, char *b64, size_t cap);

/* Decode a WRITE value (base64, padding optional, no whitespace) into
 * out, NUL-terminated, *len the byte count.  The result must be a trigger
 * the kernel parses: "some" or "full", then two decimal figures, nothing
 * else (a trailing NUL or newline allowed).  Returns 0, GOV_EPARSE or
 * GOV_ENOSPC. */
int gov__pressure_write_decode(const char *b64, char *out, size_t cap, size_t *len);

#endif /* GOV_PRESSURE_PROTOCOL_H */
