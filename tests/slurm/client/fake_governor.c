/* A user's own client-side stand-in for governor.so: a SPANK plugin of the
 * same name whose --governor option accepts anything, so that srun sends a
 * value slurmstepd's governor.so never saw checked (case gov_strict).  A
 * user can load it with a private slurm.conf (SLURM_CONF) whose
 * PlugStackConfig lists it. */
#include <stddef.h>
#include <stdint.h>
#include <slurm/spank.h>

SPANK_PLUGIN(governor, 1);

static int take_anything(int val, const char *optarg, int remote)
{
    (void)val;
    (void)optarg;
    (void)remote;
    return 0;
}

/* Slurm loads a SPANK plugin only when it defines some callback. */
int slurm_spank_init(spank_t sp, int ac, char **av)
{
    (void)sp;
    (void)ac;
    (void)av;
    return 0;
}

struct spank_option spank_options[] = {
    { "governor", "MODE", "anything goes", 2, 0, take_anything },
    { NULL, NULL, NULL, 0, 0, NULL },
};
