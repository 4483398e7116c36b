/* report.h - `governor report`: the steps read from the record files
 * (cmd_report.c), grouped (report_steps.c), and their three renderings
 * (report_render.c). */
#ifndef GOV_TOOL_REPORT_H
#define GOV_TOOL_REPORT_H

#include "step_report.h"

#include <stdio.h>

/* One step of one job: a record per node, and their total (node "all"):
 * elapsed the longest, start the earliest, counts and CPU time summed (a
 * sum with an unknown part is unknown), memory peak the sum of the nodes'
 * peaks, told the largest, findings the union, efficiency over the sum of
 * each node's elapsed time its CPUs. */
typedef struct gov_report_step {
    gov_step_record total;
    gov_step_record *nodes;
    size_t n;
} gov_report_step;

/* Sort the *nv records v by job, step, node and start, drop exact repeats
 * (a file given twice, a rotated copy beside its original; counted into
 * *duplicates, *nv lowered), and cut them into steps (room for *nv), each
 * pointing into v.  Returns the number of steps. */
size_t gov__report_group(gov_step_record *v, size_t *nv, gov_report_step *steps,
                         size_t *duplicates);

void gov__report_table(FILE *f, const gov_report_step *steps, size_t n);
/* Returns 0 or GOV_ENOSPC (a record does not encode). */
int gov__report_json(FILE *f, const gov_report_step *steps, size_t n);
void gov__report_prometheus(FILE *f, const gov_report_step *steps, size_t n);

#endif
