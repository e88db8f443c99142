/*
 * prediction_doc: a sweep's replay trials in words: the prediction with its
 * error and request check, the observed change against 0 in parts that add
 * up, and the sentences made from them (bench/judge/prediction.h holds
 * the figures). The sweep's report and a run's verdict both show it.
 */
#ifndef BENCH_REPORT_PREDICTION_DOC_H
#define BENCH_REPORT_PREDICTION_DOC_H

#include <jansson.h>

#include "bench/judge/judge.h"
#include "bench/report/document.h"
#include "bench/report/report.h"

/*
 * R's replay tables and sentences into D. SEQ: the device's sequential
 * points (a run's), or NULL; VALUE: the value the sentences tell (the
 * recommendation or best prefetching value), or NULL; OLDER_REPLAYS: the
 * run made replays of the older kind (after its sweeps), which are not used.
 */
void prediction_section(struct doc *d, const struct sweep_result *r, const json_t *seq,
			const char *value, int older_replays);

/* R's prediction per value as a JSON array (empty without replay trials). */
json_t *prediction_json(const struct sweep_result *r);

#endif
