/*
 * report_words: the words for values, sets of values and ranges that the
 * explanations (report_explain.c, report_bound.c) share; report_fmt_ms,
 * the time in words, is declared in report.h for every renderer.
 */
#ifndef BENCH_REPORT_REPORT_WORDS_H
#define BENCH_REPORT_REPORT_WORDS_H

#include <stdbool.h>
#include <stdio.h>

#include "bench/report/report.h"

/* The swept value of group G ("16"). */
const char *report_explain_value(const struct sweep_result *r, size_t g);
/* "4 to 1000", "4, 16 and 64" or "4": the groups IDX[i] with IN[i]. */
void report_explain_set(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n, const bool *in);
/* "14-18 KiB" from LO and HI formatted by FMT; one figure when they agree. */
const char *report_explain_range(char *buf, size_t len, double lo, double hi,
				 const char *(*fmt)(char *, size_t, double));

#endif
