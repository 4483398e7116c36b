/*
 * plugin.h - the parts of governor.so that talk to Slurm.  plugin.c
 * dispatches on spank_context(); each context's work lives in its own file.
 */
#ifndef GOV_SPANK_PLUGIN_H
#define GOV_SPANK_PLUGIN_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"

/* Everything the plugin knows about the current step on this node.  SPANK
 * callbacks take no user pointer, so plugin.c keeps the one instance. */
typedef struct gov_plugin {
    gov_spank_policy site;
    bool site_ok;          /* the plugstack arguments parsed */
    gov_mode mode;
    bool mode_ok;          /* the last --governor value parsed */
    bool active;           /* capture done; seal for each task */
    bool capture_failed;   /* on for the step, but its facts were unreadable */
    gov_descriptor step;   /* step-level facts from capture.c */
} gov_plugin;

/* capture.c: the step's facts from the job credential (remote context,
 * once per step and node).  Returns 0 or a GOV_E* code. */
int gov_capture_step(spank_t sp, const gov_spank_policy *site, gov_descriptor *out);

/* capture.c: the task's GPU facts: the grant in slurmstepd's variables,
 * checked against the GPU device nodes the task's device cgroup lets root
 * open (task_init_privileged, euid 0). */
void gov_capture_gpus(spank_t sp, gov_descriptor *d);

/* topology.c: hwloc summary of this node restricted to the step's cores
 * (a Slurm core index list), from the XML cached under cache_dir when set.
 * hwloc is loaded with dlopen here only: login nodes need not have it. */
void gov_topology_summarise(const char *cache_dir, const gov_cpuset *cores,
                            gov_desc_topology *out);

/* handoff.c: seal this task's descriptor into its environment and export
 * thread counts when asked.  Returns 0, or -1 to fail the task. */
int gov_handoff_task(spank_t sp, const gov_plugin *pl);

/* handoff.c: the governor is off for this step: drop an inherited
 * descriptor so that nothing stale verifies. */
void gov_handoff_clear(spank_t sp);

#endif /* GOV_SPANK_PLUGIN_H */
