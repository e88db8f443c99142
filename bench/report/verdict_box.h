/*
 * verdict_box: the top of a run's report and its JSON for scripts. The box
 * holds the value for the measured tablespace, the ALTER line, whether the
 * decision is made (or provisional, and why), the caveats that bear on it,
 * then the regret table; below it each query's own fastest, labelled as per
 * query, and the racing history. The JSON (schema 1, docs/verdict.schema.json)
 * carries the same figures, rounded to the digits they have.
 */
#ifndef BENCH_REPORT_VERDICT_BOX_H
#define BENCH_REPORT_VERDICT_BOX_H

#include <jansson.h>

#include "bench/report/document.h"
#include "bench/judge/judge.h"
#include "bench/report/verdict.h"

#define VERDICT_SCHEMA 1

/* The box, the per-query bests and the summary table into D; ST, the
 * answer's stability, is said when given (NULL: not). */
void verdict_box(struct doc *d, const struct run_result *v, const struct regret *g,
		 const struct stability *st);

/* The racing history, flagged runs and priming trials (a details section). */
void verdict_racing(struct doc *d, const struct run_result *v, const struct regret *g);

/* The verdict as JSON, schema 1 (stability null when ST is NULL or none
 * could be measured). */
json_t *verdict_box_json(const struct run_result *v, const struct regret *g, const struct stability *st);

#endif
