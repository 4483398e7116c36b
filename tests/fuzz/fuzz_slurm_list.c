/* Fuzz the compressed Slurm count list ("1(x2),4"), the GPU variables
 * (SLURM_STEP_GPUS, SLURM_GPUS_ON_NODE, SLURM_GPUS_PER_TASK) and the step
 * id (SLURM_STEP_ID, signed on 26.05): never crash; a uniform answer agrees
 * with every index; values stay within their bound. */
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

#define MAX_GPUS 1024

static void gpu_variables(const uint8_t *data, size_t size)
{
    char *v = malloc(size + 1);
    uint64_t n;

    if (!v)
        return;
    memcpy(v, data, size);
    v[size] = '\0';
    n = gov__slurm_gpus_on_node(v, NULL);
    if (n != GOV_UNKNOWN && n > MAX_GPUS)
        abort();
    n = gov__slurm_gpus_on_node(NULL, v);
    if (n != GOV_UNKNOWN && n > MAX_GPUS)
        abort();
    n = gov__slurm_gpus_per_task(v);
    if (n != GOV_UNKNOWN && n > MAX_GPUS)
        abort();
    /* A step id is a 32-bit quantity, however Slurm prints it. */
    if (gov__slurm_step_id_parse(v, &n) == 0 && n > UINT32_MAX)
        abort();
    free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    uint64_t uniform, v;
    int rc_uniform = gov__slurm_list_resolve(text, size, GOV_UNKNOWN, &uniform);

    for (uint64_t i = 0; i < 8; i++) {
        int rc = gov__slurm_list_resolve(text, size, i, &v);
        if (rc == 0 && v > 1000000)
            abort();
        if (rc == 0 && rc_uniform == 0 && v != uniform)
            abort();
        if (rc == GOV_ENOENT)
            abort(); /* only the no-index query may say "not uniform" */
        if (i == 0 && rc_uniform == 0 && rc != 0)
            abort();
    }
    gpu_variables(data, size);
    return 0;
}
