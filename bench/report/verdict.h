/*
 * verdict: the answer of an "eicbench run" folder, from its records only.
 * Per query, the sweep's heap-phase medians beside its replay trials (the
 * same heap reads issued on the table's files as PostgreSQL issues them, in
 * the same rounds and cold state: bench/report/prediction_doc.h), checked
 * request by request before they are used, and the observed changes split
 * into waiting for reads, CPU and waiting for a core. Then one
 * recommendation for the storage reconciling the queries (the decision
 * rule, bench/report/regret.h), the device's own
 * curves (random reads against depth, with a knee only where a deeper
 * point shows the plateau; sequential reads against request size), the
 * check for caches below, and the lines that apply the value. Rendered
 * through bench/report/document.h as text, report.md and a self-contained
 * report.html.
 */
#ifndef BENCH_REPORT_VERDICT_H
#define BENCH_REPORT_VERDICT_H

#include <limits.h>
#include <stdio.h>

#include <jansson.h>

#include "bench/report/report.h"

#define VERDICT_MD   "report.md"
#define VERDICT_HTML "report.html"

struct verdict_query {
	const char *name;
	char   sweep_dir[PATH_MAX + 80];
	struct report rep;
	int    have_rep;
	char   replay_dir[PATH_MAX + 80];  /* an older run's replays outside the sweep, or "" */
};

struct verdict {
	char    dir[PATH_MAX];
	json_t *meta;
	struct verdict_query q[REPORT_MAX_QUERIES];
	int     nq;
	json_t *device_points, *device_curve;  /* NULL when missing */
	json_t *device_seq;                    /* sequential reads per request size, or NULL */
	json_t *cachecheck;
	char    missing[1024];                 /* what could not be read, said in the report */
};

/*
 * Load run folder DIR. A subfolder that is missing or unreadable is noted in
 * V->missing and left out; no sweep at all is -EINVAL. Free with
 * verdict_free(), also after a failure.
 */
int verdict_load(const char *dir, struct verdict *v, char *err, size_t errlen);
void verdict_free(struct verdict *v);

/* The group of VALUE in query Q's first series, or NULL. */
const struct report_group *verdict_group(const struct verdict_query *q, const char *value);

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
