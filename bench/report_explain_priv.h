/*
 * report_explain_priv: what report_explain.c and report_bound.c share (the
 * words for values, sets of values and ranges); not for other modules.
 */
#ifndef BENCH_REPORT_EXPLAIN_PRIV_H
#define BENCH_REPORT_EXPLAIN_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "bench/report.h"

/* The swept value of group G ("16"). */
const char *report_explain_value(const struct report *r, size_t g);
/* "4 to 1000", "4, 16 and 64" or "4": the groups IDX[i] with IN[i]. */
void report_explain_set(FILE *f, const struct report *r, const size_t *idx, size_t n, const bool *in);
/* "14-18 KiB" from LO and HI formatted by FMT; one figure when they agree. */
const char *report_explain_range(char *buf, size_t len, double lo, double hi,
				 const char *(*fmt)(char *, size_t, double));
/* What bound the heap phase of series S (groups IDX[0..n)), the index phase
 * and read_ahead_kb: report_bound.c. */
void report_explain_bound(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n);

#endif
