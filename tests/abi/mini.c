#include "mini.h"

#include <string.h>

struct mini_opaque { int a; };

int mini_fill(mini_opaque *o, mini_out *out, mini_level level)
{
    memset(out, 0, sizeof *out);
    out->x = (uint64_t)level + (o ? (uint64_t)o->a : 0);
    return 0;
}

int mini_extra(uint64_t n) { return (int)n; }
