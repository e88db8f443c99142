/*
 * report_bound: what bound the heap phase of a series, in plain words from
 * the summarized groups: CPU against waiting, the device's queue and
 * request sizes, readahead, pg_aios and the I/O workers on 18, and the
 * index phase beside it. Part of the explanation (report_explain.c).
 */
#ifndef BENCH_REPORT_REPORT_BOUND_H
#define BENCH_REPORT_REPORT_BOUND_H

#include <stddef.h>
#include <stdio.h>

#include "bench/report/report.h"

/* What bound the heap phase of series S (groups IDX[0..n)), the index phase
 * and read_ahead_kb, as sentences into F. */
void report_explain_bound(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n);

#endif
