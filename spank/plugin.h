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
#include "seal.h"
#include "topology.h"

/* Everything the plugin knows about the current step on this node.  SPANK
 * callbacks take no user pointer, so plugin.c keeps the one instance. */
typedef struct gov_plugin {
    gov_spank_policy site;
    bool site_ok;          /* the plugstack arguments parsed */
    gov_mode mode;
    bool mode_ok;          /* the last --governor value parsed */
    bool active;           /* capture done; seal for each task */
    bool capture_failed;   /* on for the step, but its facts were unreadable */
    bool gpu_nodes_absent; /* the node has no GPU device node at all */
    gov_descriptor step;   /* step-level facts from capture.c */
} gov_plugin;

/* capture.c: the step's facts from the job credential (remote context,
 * once per step and node).  Returns 0 or a GOV_E* code. */
int gov_capture_step(spank_t sp, const gov_spank_policy *site, gov_descriptor *out);

/* capture.c: the task's GPU facts: the grant slurmstepd wrote, checked
 * against the device nodes the task's cgroup lets root open; nodes_absent
 * (gov_capture_gpu_nodes_absent, once per step) skips the scan. */
void gov_capture_gpus(spank_t sp, bool nodes_absent, gov_descriptor *d);

/* capture.c: whether the node has no /dev/nvidiaN and no
 * /dev/dri/renderDN at all: read once per step, so that tasks on the many
 * nodes without GPUs do not scan /dev each. */
bool gov_capture_gpu_nodes_absent(void);

/* node_topology.c: slurmd's start: put this boot's topology table into
 * the site's cache directory (topology.h), logging what went wrong. */
void gov_node_topology_prepare(const gov_spank_policy *site);

/* node_topology.c: slurmstepd: the topology summary for the step's cores
 * (a Slurm core index list), from the cache or a discovery, logged. */
void gov_node_topology_step(const gov_spank_policy *site, const gov_cpuset *cores,
                            gov_desc_topology *out);

/* handoff.c: seal this task's descriptor into its environment.  Returns 0,
 * or -1 to fail the task. */
int gov_handoff_task(spank_t sp, const gov_plugin *pl);

/* handoff.c: the governor is off for this step: drop an inherited
 * descriptor so that nothing stale verifies. */
void gov_handoff_clear(spank_t sp);

/* environment.c: in task_init, give the task the variables of its mode
 * (runtimes: all that `governor run` sets, threads: the CPU ones) and, under
 * a CPU quota, a narrowed affinity; remove what an earlier step exported
 * that this step does not set.  Failures are logged; the task starts. */
void gov_environment_task(spank_t sp, const gov_plugin *pl);

/* seal_log.c: a task starts without its descriptor (seal=optional): say why
 * at info level at most once a minute on the node (a stamp in the site's
 * run_dir), else at debug level. */
void gov_log_seal_skipped(const gov_spank_policy *site, const char *why);

#endif /* GOV_SPANK_PLUGIN_H */
