/*
 * verdict_time: the times a run's verdict shows, in the decision's unit
 * (the whole query's, or the heap phase's for records decided on it), and
 * how it writes them.
 */
#ifndef BENCH_REPORT_VERDICT_TIME_H
#define BENCH_REPORT_VERDICT_TIME_H

#include <stddef.h>

#include "bench/judge/regret.h"

/* Group GR's median in the decision's unit (NAN when GR is NULL). */
double verdict_unit_ms(const struct sweep_result *r, const struct result_group *gr);

/* The median time of value V in column Q of G (ms), as the summary table
 * shows it; NAN when V is none or has no runs. */
double verdict_median_ms(const struct regret *g, size_t q, size_t v);

/* MS as seconds, "2.30s", "41.2s", "312s" ("?" when not finite). */
const char *verdict_secs(char *buf, size_t len, double ms);

#endif
