/* kernel_release.c - compare uname's release with a MAJOR.MINOR: what the
 * kernel allows an unprivileged pressure trigger depends on it. */
#include "parse.h"
#include "base.h"

#include <string.h>

bool gov__kernel_release_at_least(const char *release, unsigned major, unsigned minor)
{
    const char *p = release, *end;
    uint64_t maj, min;

    if (!release)
        return false;
    end = release + strlen(release);
    if (gov__scan_dec(&p, end, 1u << 16, &maj) || p == end || *p++ != '.' ||
        gov__scan_dec(&p, end, 1u << 16, &min))
        return false;
    return maj != major ? maj > major : min >= minor;
}
