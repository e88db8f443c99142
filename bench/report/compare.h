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

#include "bench/report/report.h"

#define COMPARE_MAX_SIDES 8
#define COMPARE_MAX_LINES 16

struct compare_side {
	const char *dir;
	char label[512];                      /* "A: vda, PostgreSQL 15.18, ..." */
	char letter;                          /* A, B, ... */
	int  nreports;
	struct sweep_result reports[RESULT_MAX_QUERIES];
	const char *queries[RESULT_MAX_QUERIES];
	json_t *meta;                         /* the folder's own meta.json */
};

/* One line of a query's table: a side and one series of its sweep. */
struct compare_line {
	int side, report;
	size_t series;
	char name[320];
};

struct compare_query {
	const char *name;
	struct compare_line lines[COMPARE_MAX_LINES];
	int nlines;
};

struct compare {
	struct compare_side sides[COMPARE_MAX_SIDES];
	int nsides;
	struct compare_query queries[RESULT_MAX_QUERIES];
	int nqueries;
	char note[1024];                      /* what was forced or skipped */
};

/*
 * Load DIRS[0..n) (2 to COMPARE_MAX_SIDES). A folder that is neither a sweep
 * nor a run, or has no finished trials: -EINVAL naming it. Folders whose
 * data sets differ: -EINVAL naming the difference, unless FORCE (then said
 * in C->note). Free with compare_free(), also after a failure.
 */
int compare_load(const char *const *dirs, int n, int force, struct compare *c,
		 char *err, size_t errlen);
void compare_free(struct compare *c);

/* The group of LINE whose swept value is VALUE, or NULL. */
const struct result_group *compare_group(const struct compare *c, const struct compare_line *l,
					 const char *value);

/* The tables and the verdicts as text or Markdown, and as JSON. */
int compare_render(const struct compare *c, int markdown, FILE *out);
json_t *compare_json(const struct compare *c);

/* DIR/compare-QUERY.dat for each query and its plots (plot-sweep.gp). 0, or
 * 1 when plotting was skipped, with MSG. */
int compare_plot(const struct compare *c, const char *dir, char *msg, size_t msglen);

#endif
