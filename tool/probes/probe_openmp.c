/* probe_openmp.c - what the OpenMP runtime this was built with (gcc's
 * libgomp) decides for this process, for `governor doctor --runtimes`:
 * omp_get_max_threads(), a parallel region's team size. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    printf("version=OpenMP %d\nthreads=%d\n", _OPENMP, omp_get_max_threads());
    return 0;
}
