/*
 * compare: two or more result folders (sweeps, or runs holding one sweep
 * per query) side by side: per query, every line (a folder, or a series of
 * it when it swept more than effective_io_concurrency) with its medians and
 * intervals, each line's own recommendation by the report's rule, and for
 * every value the ratio of each line's median to the first line's with its
 * bootstrap interval: a difference is "beyond the intervals" when that
 * interval leaves out 1. Folders of different data sets (rows, seed, the
 * query's text) are refused, naming the difference, unless forced. Reads
 * records only.
 */
#ifndef BENCH_REPORT_COMPARE_H
#define BENCH_REPORT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "bench/judge/comparison.h"
#include "bench/report/report.h"

/* The tables and the verdicts as text or Markdown, and as JSON. */
int compare_render(const struct compare *c, int markdown, FILE *out);
json_t *compare_json(const struct compare *c);

/* DIR/compare-QUERY.dat for each query and its plots (plot-sweep.gp). 0, or
 * 1 when plotting was skipped, with MSG. */
int compare_plot(const struct compare *c, const char *dir, char *msg, size_t msglen);

#endif
