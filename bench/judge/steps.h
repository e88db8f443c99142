/*
 * steps: a confsweep's folder loaded and summarized: per step (or grid
 * combination) in plan order, the runs of the main figure of the folder's
 * workload (its first figure, e.g. tps, read from the workload named in
 * meta.json) with median, min and max, the latency percentiles' and
 * transactions' medians, and the warnings the server logged, each line
 * once with its count. No text: bench/report/report_steps.c words it.
 * Reads records only.
 */
#ifndef BENCH_JUDGE_STEPS_H
#define BENCH_JUDGE_STEPS_H

#include <stddef.h>

#include <jansson.h>

#include "bench/record/figures.h"
#include "bench/record/record.h"

#define STEPS_MAX_GROUPS RECORD_STEPS_MAX
#define STEPS_MAX_WARN   40

struct step_group {
	char   name[RECORD_KEY_MAX];        /* the step, or the combination */
	char   changed[512];               /* what this step set anew */
	double *v;                         /* the main figure of each run */
	size_t n;
	double median, min, max, p50, p99, transactions;
	long   warnings;
};

struct steps_result {
	json_t *meta, *trials;
	const struct record_figure *figures, *main;
	const char *summary;         /* what the workload measures */
	struct step_group g[STEPS_MAX_GROUPS];
	int    ng;
	int    torn;
	char   warn[STEPS_MAX_WARN][256];        /* distinct warning lines, without their time stamps */
	int    warn_n[STEPS_MAX_WARN], nwarn;
};

/* Load confsweep folder DIR into S. 0, or -EINVAL (not a confsweep's folder,
 * no finished run) or -errno with ERR; free with steps_free(), also after
 * a failure. */
int steps_load(const char *dir, struct steps_result *s, char *err, size_t errlen);
void steps_free(struct steps_result *s);

#endif
