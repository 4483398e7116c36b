/* Reports how many OpenMP threads actually ran one parallel region, and the
 * GOVERNOR_* variables it was given (for tests/tool/test_run.sh). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int ran = 0;
    const char *w = getenv("GOVERNOR_WORKERS");
    const char *t = getenv("GOVERNOR_THREADS_PER_WORKER");

#pragma omp parallel
    {
#pragma omp atomic
        ran++;
    }
    printf("threads=%d workers=%s per_worker=%s\n", ran, w ? w : "-", t ? t : "-");
    return 0;
}
