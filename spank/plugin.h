/*
 * plugin.h - the state governor.so keeps for the current step, owned by
 * the dispatcher (plugin.c), which switches on spank_context() and hands
 * each context's file (its own header, its own part of the state) only
 * what it needs.
 */
#ifndef GOV_SPANK_PLUGIN_H
#define GOV_SPANK_PLUGIN_H

#include "environment.h"
#include "handoff.h"
#include "parse.h"
#include "pressure_delegate.h"
#include "report_gather.h"
#include "step_recovery.h"
#include "topo.h"

/* Everything the plugin knows about the current step on this node.  SPANK
 * callbacks take no user pointer, so plugin.c keeps the one instance and
 * gives each context's file the parts it works on. */
typedef struct gov_plugin {
    gov_spank_policy site;
    bool site_ok;          /* the plugstack arguments parsed */
    gov_mode mode;
    bool mode_ok;          /* the last --governor value parsed */
    bool active;           /* capture done; a descriptor for each task */
    gov_descriptor step;   /* step-level facts from capture.c */
    gov_topo_table *node;  /* the node's table, for each task's own topology */
    gov_handoff handoff;   /* handoff.c */
    gov_env_step env;      /* environment.c */
    gov_pressure_handout pressure;   /* pressure_delegate.c */
    gov_report report;     /* report=DIR: the step's record (report_gather.c) */
    gov_recovery recovery; /* what a lost slurmstepd would leave (step_recovery.c) */
} gov_plugin;

#endif /* GOV_SPANK_PLUGIN_H */
