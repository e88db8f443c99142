/*
 * verdict_box: the top of a run's report and its JSON for scripts. The box
 * is a DBA's (at most 12 lines of text): the value (or, provisional, the
 * leading one and how much longer to run), what it changes against the
 * setting the server ran and the version's default, why and what it risks
 * in measured seconds, how sure, and how to apply it; no statistical term.
 * Below it the caveats, each query's own fastest and the summary table;
 * the figures behind "how sure" (the regret table, its bounds and their
 * definitions) and the racing history are sections of their own. The JSON
 * (schema 1, docs/verdict.schema.json) carries the same figures, rounded to
 * the digits they have.
 */
#ifndef BENCH_REPORT_VERDICT_BOX_H
#define BENCH_REPORT_VERDICT_BOX_H

#include <jansson.h>

#include "bench/report/document.h"
#include "bench/judge/judge.h"
#include "bench/report/verdict.h"

#define VERDICT_SCHEMA 1

/* J's box (with its classes' paragraph, verdict_classes.h), the
 * per-query bests and the summary table into D. */
void verdict_box(struct doc *d, const struct judgement *j);

/* How sure, in figures: the decision's state in its own terms, the
 * stability, the regret table and the words that define them. */
void verdict_figures(struct doc *d, const struct run_result *v, const struct regret *g,
		     const struct stability *st);

/* The racing history, flagged runs and priming trials (a details section). */
void verdict_racing(struct doc *d, const struct run_result *v, const struct regret *g);

/* The verdict as JSON, schema 1 (stability null when ST is NULL or none
 * could be measured). */
json_t *verdict_box_json(const struct run_result *v, const struct regret *g, const struct stability *st);

#endif
