/*
 * export_tpcb: TPC-B runs into the results database: a row in tests per
 * run (a tpcb folder's record, each confsweep trial's) with the figures a
 * pgbench-tools user looks for as columns, and with --with-logs the
 * folder's pgbench logs (per transaction into timing, per interval into
 * timing_intervals) through COPY. Part of export; within its transaction.
 */
#ifndef BENCH_EXPORT_EXPORT_TPCB_H
#define BENCH_EXPORT_EXPORT_TPCB_H

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/export/export.h"

/* The test row of run REC (a tpcb result, or a confsweep trial holding one
 * under "tpcb") of folder F, keyed KEY. 0 or -errno with ERR. */
int export_tpcb_test(PGconn *c, const struct export_folder *f, const json_t *meta,
		     const char *label, const char *key, const json_t *rec, char *err, size_t errlen);

/* The pgbench logs of tpcb folder F (run REC) into timing or
 * timing_intervals, keyed KEY, replacing the folder's earlier ones; the
 * lines loaded into *LINES. 0 or -errno with ERR. */
int export_tpcb_logs(PGconn *c, struct export_folder *f, const char *key, const json_t *rec,
		     char *err, size_t errlen);

#endif
