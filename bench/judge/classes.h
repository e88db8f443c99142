/*
 * classes: which query classes a run's answer for the storage stands on,
 * and how much each weighs. A class counts when its weight is above 0 and
 * its measured plan is the planner's own (plan.forced false), or forced
 * classes were asked for (--include-forced); weights default to 1. Both
 * choices are recorded with each sweep's racing (plan.racing.weights,
 * plan.racing.include_forced), so that racing and the judge leave out the
 * same classes. A weight scales its class's regret in logs (a time ratio
 * R counts as R^(w / the largest weight)) where no value is within the
 * margin in every class and the answer is the least worst case.
 */
#ifndef BENCH_JUDGE_CLASSES_H
#define BENCH_JUDGE_CLASSES_H

#include <stddef.h>

#include <jansson.h>

#include "bench/judge/result.h"

#define CLASS_MAX_WEIGHTS 16
#define CLASS_MAX_WEIGHT  1000

struct class_weights {
	size_t n;
	char   name[CLASS_MAX_WEIGHTS][64];
	double w[CLASS_MAX_WEIGHTS];
};

/*
 * Parse SPEC, "CLASS=W,..." (W a number from 0 to 1000, each class once),
 * into CW. 0, or -EINVAL with ERR naming the part and what is allowed.
 * The classes' names are checked by the caller, who knows which it runs.
 */
int class_weights_parse(const char *spec, struct class_weights *cw, char *err, size_t errlen);

/* CW as a JSON object {class: weight}. */
json_t *class_weights_json(const struct class_weights *cw);

/* The weight R's racing records for class NAME (1 when none is). */
double class_weight(const struct sweep_result *r, const char *name);

/* R's measured plan is not the planner's own (plan.forced). */
int class_forced(const struct sweep_result *r);

/* Does sweep R (class NAME) count in the answer for the storage? */
int class_counts(const struct sweep_result *r, const char *name);
/* The same from a sweep's META (its meta.json) alone. */
int class_counts_meta(const json_t *meta, const char *name);

/* The share of the table's heap pages R's trials read (the median over its
 * trials of EXPLAIN's exact and lossy heap blocks, over the table's pages
 * when loaded), or NAN when the records do not say. */
double class_page_share(const struct sweep_result *r);

/* The planner's own scan for R's query, unforced ("Seq Scan", "Index Only
 * Scan", "Index Scan", "Bitmap Heap Scan", the first such node of
 * plan.planner_plan), or NULL when not recorded. */
const char *class_planner_scan(const struct sweep_result *r);

#endif
