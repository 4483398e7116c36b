/* mini.h - a library small enough to break on purpose (test_check.sh),
 * laid out the way include/governor.h is: parts with reserved tails. */
#include <stdint.h>

typedef enum mini_level {
    MINI_A = 0,
    MINI_B,
} mini_level;

typedef struct mini_part {
    uint64_t a;
    uint32_t b;
    uint64_t reserved[2];
} mini_part;

typedef struct mini_opaque mini_opaque;

typedef struct mini_out {
    uint64_t x;
    struct {
        uint64_t y;
        uint64_t reserved[2];
    } inner;
    mini_part part;
    uint64_t reserved[4];
} mini_out;

int mini_fill(mini_opaque *o, mini_out *out, mini_level level);
int mini_extra(uint64_t n);
