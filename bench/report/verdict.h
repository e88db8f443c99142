/*
 * verdict: the answer of an "eicbench run" folder, from its records only.
 * Per query, the sweep's heap-phase medians paired with the replay of the
 * same heap blocks outside the database (plain reads for 0, the fadvise
 * window PostgreSQL gives at each value, io_uring at that many reads in
 * flight): the speedup each predicts, how much of the observed speedup the
 * device accounts for and what the rest goes with (the backend's CPU in
 * the heap phase, readahead at 0). Then one recommendation for the
 * storage reconciling the queries, the device's own curve with its knee,
 * the check for caches below, and the lines that apply the value. Rendered
 * through bench/report/document.h as text, report.md and a self-contained report.html.
 */
#ifndef BENCH_REPORT_VERDICT_H
#define BENCH_REPORT_VERDICT_H

#include <limits.h>
#include <stdio.h>

#include <jansson.h>

#include "bench/report/report.h"

#define VERDICT_MD   "report.md"
#define VERDICT_HTML "report.html"
#define VERDICT_SHARE_MIN 0.05   /* a saving under 5% of the time at 0 is not explained */

struct verdict_query {
	const char *name;
	char   sweep_dir[PATH_MAX + 80];
	struct report rep;
	int    have_rep;
	json_t *replay_meta, *replay_points;   /* NULL when the replay is missing */
	char   replay_dir[PATH_MAX + 80];
};

struct verdict {
	char    dir[PATH_MAX];
	json_t *meta;
	struct verdict_query q[REPORT_MAX_QUERIES];
	int     nq;
	json_t *device_points, *device_curve;  /* NULL when missing */
	json_t *cachecheck;
	char    missing[1024];                 /* what could not be read, said in the report */
};

/* What one value did in one query, observed and replayed. */
struct verdict_pair {
	const struct report_group *g, *g0;     /* the value's group and 0's (or NULL) */
	double heap_ms, speedup, replay_ms, replay0_ms, predicted, uring_ms;
	double accounted;                      /* share of the saving the replay explains, NAN */
	double heap_cpu_s;                     /* the backend's CPU in the heap phase */
};

/*
 * Load run folder DIR. A subfolder that is missing or unreadable is noted in
 * V->missing and left out; no sweep at all is -EINVAL. Free with
 * verdict_free(), also after a failure.
 */
int verdict_load(const char *dir, struct verdict *v, char *err, size_t errlen);
void verdict_free(struct verdict *v);

/* The replay point of ENGINE at DEPTH in query Q: its elapsed ms, or NAN. */
double verdict_replay_ms(const struct verdict_query *q, const char *engine, unsigned depth);

/* Pair the value VALUE of query Q. 0, or -1 when the sweep lacks it. */
int verdict_pair(const struct verdict_query *q, const char *value, struct verdict_pair *p);


/*
 * The whole ending of a run: load DIR, make the plots, write report.md and
 * report.html, and print the text on OUT. NOTE says what happened to the
 * plots. 0 or -errno with ERR.
 */
int verdict_folder(const char *dir, FILE *out, char *note, size_t notelen,
		   char *err, size_t errlen);

/* "eicbench report RUN": plots (unless !PLOT), report.md and report.html
 * written again, FORMAT (text, md, html, json) on OUT. */
int verdict_render(const char *dir, enum report_format format, int plot, FILE *out,
		   char *note, size_t notelen, char *err, size_t errlen);

#endif
