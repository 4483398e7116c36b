/*
 * plugin.h - the state governor.so keeps for the current step, which every
 * context's file reads.  plugin.c dispatches on spank_context(); each
 * context's work lives in its own file, with its own header.
 */
#ifndef GOV_SPANK_PLUGIN_H
#define GOV_SPANK_PLUGIN_H

/* spank.h uses the fixed-width types without including their header. */
#include <stdint.h>
#include <slurm/spank.h>

#include "parse.h"
#include "report_gather.h"
#include "seal_bounded.h"
#include "task_snapshot.h"
#include "topo.h"

/* The variables the plan reads (knobs.h: gov__runenv_inputs), at most. */
#define GOV_PLUGIN_INPUTS_MAX 32

/* Everything the plugin knows about the current step on this node.  SPANK
 * callbacks take no user pointer, so plugin.c keeps the one instance. */
typedef struct gov_plugin {
    gov_spank_policy site;
    bool site_ok;          /* the plugstack arguments parsed */
    gov_mode mode;
    bool mode_ok;          /* the last --governor value parsed */
    bool active;           /* capture done; a descriptor for each task */
    bool capture_failed;   /* on for the step, but its facts were unreadable */
    bool pressure;         /* the tasks get pressure triggers (pressure_delegate.c) */
    bool pressure_delegated;   /* the first task's fork gave the files away */
    gov_descriptor step;   /* step-level facts from capture.c */
    gov_topo_table *node;  /* the node's table, for each task's own topology */
    gov_report report;     /* report=DIR: the step's record (report_gather.c) */
    /* The step's hand-off (handoff.c): the MUNGE credential (malloc'd),
     * the file's path, and why neither was made. */
    char *cred;
    char file[GOV_SPANK_POLICY_PATH_MAX + 64];
    char failure[GOV_SEAL_WHY_MAX + 200];
    bool env_failed;       /* slurmstepd refused the descriptor's variable */
    uint64_t gpus;         /* the GPU grant sealed, for the step report */
    /* The user's values of the variables the plan reads, as the step had
     * them before user_init set its own ("NAME=value", malloc'd, NULL
     * ended; environment.c). */
    bool inputs_read;
    char *inputs[GOV_PLUGIN_INPUTS_MAX + 1];
    /* The variables user_init set or removed for every task (names,
     * malloc'd, NULL ended): a task whose own plan leaves one alone gets
     * the user's value back. */
    char *preset[GOV_PLUGIN_INPUTS_MAX + 1];
    /* slurmstepd's mount table (malloc'd) and the host's memory, read
     * once (user_init) for every task: a task's cgroup mounts are its
     * slurmstepd's, and the host is the same. */
    gov_step_reads reads;
} gov_plugin;

#endif /* GOV_SPANK_PLUGIN_H */
