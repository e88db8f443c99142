/*
 * comparison: two or more result folders (sweeps, or runs holding one sweep
 * per query) loaded side by side: per query, every line (a folder, or a
 * series of it when it swept more than effective_io_concurrency). Folders
 * of different data sets (rows, seed, the query's text) are refused, naming
 * the difference, unless forced. Reads records only; the words are
 * bench/report/compare.c's.
 */
#ifndef BENCH_JUDGE_COMPARISON_H
#define BENCH_JUDGE_COMPARISON_H

#include <stddef.h>

#include "bench/judge/result.h"

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

/* The loaded sweep LINE belongs to. */
const struct sweep_result *compare_line_result(const struct compare *c, const struct compare_line *l);

#endif
