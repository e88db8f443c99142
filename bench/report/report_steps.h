/*
 * report_steps: a confsweep's folder as the seed posts' table: per step (or
 * grid combination) in plan order, the settings it changed, the runs, the
 * main figure of the folder's workload (its first figure, e.g. tps, read
 * from the workload named in meta.json) as median with min and max, the
 * latency percentiles, the gain against the previous step and the first,
 * and the warnings the server logged; then the warnings' own lines and a
 * plot of the main figure per step. Only reads records.
 */
#ifndef BENCH_REPORT_REPORT_STEPS_H
#define BENCH_REPORT_REPORT_STEPS_H

#include <stdio.h>

#include "bench/report/document.h"

/* DIR's table as a document (the plot referenced by path). 0 or -errno. */
int report_steps_document(const char *dir, struct doc *d, char *err, size_t errlen);

/* The end of a confsweep (and "report DIR" on one): the plot, report.md,
 * report.html, and the text on OUT. 0 or -errno with ERR. */
int report_steps_finish(const char *dir, FILE *out, char *err, size_t errlen);

/* Is DIR's meta.json a confsweep's? */
int report_steps_is(const char *dir);

#endif
