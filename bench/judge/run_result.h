/*
 * run_result: an "eicbench run" folder loaded from its records only: per
 * query its sweep (bench/judge/result.h, with the replay trials beside the
 * query trials), the device's curves (random reads against depth,
 * sequential reads against request size) and the check for caches below.
 * The decision over its queries is the judge's (bench/judge/judge.h).
 */
#ifndef BENCH_JUDGE_RUN_RESULT_H
#define BENCH_JUDGE_RUN_RESULT_H

#include <limits.h>

#include <jansson.h>

#include "bench/judge/result.h"

struct run_query {
	const char *name;
	char   sweep_dir[PATH_MAX + 80];
	struct sweep_result rep;
	int    have_rep;
	char   replay_dir[PATH_MAX + 80];  /* an older run's replays outside the sweep, or "" */
};

struct run_result {
	char    dir[PATH_MAX];
	json_t *meta;
	struct run_query q[RESULT_MAX_QUERIES];
	int     nq;
	json_t *device_points, *device_curve;  /* NULL when missing */
	json_t *device_seq;                    /* sequential reads per request size, or NULL */
	json_t *cachecheck;
	char    missing[1024];                 /* what could not be read, said in the report */
};

/*
 * Load run folder DIR. A subfolder that is missing or unreadable is noted in
 * V->missing and left out; no sweep at all is -EINVAL. Free with
 * run_result_free(), also after a failure.
 */
int run_result_load(const char *dir, struct run_result *v, char *err, size_t errlen);
void run_result_free(struct run_result *v);

#endif
