/*
 * stats: summary statistics of a small set of doubles for reports (median,
 * min, max, mean, quartiles, IQR, MAD). Never modifies its input: order
 * statistics sort a private copy. Unit-free; an empty set has no statistics
 * (NAN, or -EINVAL from stats_summarize). NaN inputs sort last.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

struct stats_summary {
	size_t n;
	double min, max, mean;
	double median;
	double q1, q3, iqr;     /* quartiles by linear interpolation (R type 7) */
	double mad;             /* median absolute deviation, unscaled */
};

double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
double stats_mean(const double *v, size_t n);
double stats_median(const double *v, size_t n);
/* Quantile Q in [0, 1], linear between order statistics; NAN if out of range. */
double stats_quantile(const double *v, size_t n, double q);
double stats_mad(const double *v, size_t n);

/* All of the above in one pass over one sorted copy. 0, -EINVAL, -ENOMEM. */
int stats_summarize(const double *v, size_t n, struct stats_summary *out);

#endif
