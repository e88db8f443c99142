/*
 * tpcb_report: TPC-B figures as text, in pgbench's layout so a pgbench user
 * reads them without a manual (our additions: percentiles, client CPU,
 * pipeline depth), the -P line, and pgbench's log formats: -l writes
 * "client_id tx_no latency_us script_no epoch_s epoch_us [lag_us] [retries]"
 * per transaction ("failed" or "skipped" in place of the latency, or with
 * --failures-detailed "serialization" or "deadlock"), and
 * --aggregate-interval writes "start_s count lat_sum lat_sum2 lat_min lat_max
 * lag_sum lag_sum2 lag_min lag_max skipped retried retries
 * serialization_failures deadlock_failures" (µs), every column always there,
 * as pgbench 15 and later. Formatting only: the caller owns the FILE.
 */
#ifndef BENCH_TPCB_TPCB_REPORT_H
#define BENCH_TPCB_TPCB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/tpcb/tpcb.h"
#include "bench/tpcb/tpcb_stats.h"

/* One -l line for D, with its newline; its length. */
int tpcb_log_tx_line(char *buf, size_t len, const struct tpcb_done *d,
		     int64_t epoch_offset_ns, bool with_lag, bool with_retries, bool detailed);

/* One --aggregate-interval line, with its newline; its length. */
int tpcb_log_agg_line(char *buf, size_t len, const struct tpcb_agg *a);

/* "progress: 5.0 s, 3201.3 tps, lat 1.249 ms stddev 0.412, 0 failed" and
 * the lag, skipped, retried parts when they apply; with
 * --progress-timestamp the Unix time ("1700000005.250 s"). No newline. */
int tpcb_progress_line(char *buf, size_t len, const struct tpcb_config *cfg,
		       const struct tpcb_progress *p);

/* The figures of a run, pgbench's layout: several scripts each with its
 * own figures, -r's per-command latencies under their script. */
void tpcb_report_print(FILE *out, const struct tpcb_config *cfg,
		       const struct tpcb_target *t, const struct tpcb_result *r);

/* What init did and how long each step took: pgbench's "done in" line. */
void tpcb_report_init(FILE *out, const struct tpcb_init_result *r);

#endif
