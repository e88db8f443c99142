/*
 * verdict_classes: the query classes in a run's verdict. In the box, one
 * paragraph when it has something to say: the classes the answer costs
 * more than the margin, each with the value that serves it as a role's or
 * session's setting and what each costs; and the classes left out of the
 * answer (a plan that had to be forced, a weight of 0). Below the box, the
 * class table: the share of the heap pages each read, the planner's own
 * plan and whether it was measured, its weight, its own answer, and its
 * whole-query times at 0, at the answer and at the version's default. The
 * JSON carries the same. The figures are the judge's (bench/judge/judge.h).
 */
#ifndef BENCH_REPORT_VERDICT_CLASSES_H
#define BENCH_REPORT_VERDICT_CLASSES_H

#include <jansson.h>

#include "bench/judge/judge.h"
#include "bench/report/document.h"

void verdict_classes_box(struct doc *d, const struct judgement *j);
void verdict_classes_table(struct doc *d, const struct judgement *j);
json_t *verdict_classes_json(const struct judgement *j);

#endif
