/*
 * stats: summary statistics of a small set of doubles for reports (median,
 * min, max, mean, quartiles, IQR, MAD). Never modifies its input: order
 * statistics sort a private copy. Unit-free; an empty set has no statistics
 * (NAN, or -EINVAL from stats_summarize). NaN inputs sort last.
 */
#ifndef IO_STATS_H
#define IO_STATS_H

#include <stddef.h>
#include <stdint.h>

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

/* An interval with the confidence it actually has. */
struct stats_interval {
	double lo, hi;
	double coverage;        /* e.g. 0.96875; NAN when there is none */
};

/*
 * The distribution-free interval for the median of V (no assumption about
 * the shape of the distribution): the order statistics x(k) and x(n+1-k)
 * with the largest k whose coverage 1 - 2 P(Binomial(n, 1/2) <= k-1) is at
 * least LEVEL. Below 6 values no k reaches 0.95: the interval is then min..max
 * and COVERAGE says how much less it is (3 values: 0.75). 0, -EINVAL (no
 * values, LEVEL outside (0, 1)), -ENOMEM.
 */
int stats_median_interval(const double *v, size_t n, double level,
			  struct stats_interval *out);

/*
 * The ratio median(A) / median(B) with a percentile bootstrap interval at
 * LEVEL: RESAMPLES resamples of each set with replacement, drawn from SEED
 * (the same seed gives the same interval). COVERAGE is LEVEL (nominal).
 * 0, -EINVAL, -ENOMEM.
 */
int stats_ratio_interval(const double *a, size_t na, const double *b, size_t nb,
			 double level, int resamples, uint64_t seed,
			 double *ratio, struct stats_interval *out);

/* Do two intervals share a point? */
int stats_overlap(const struct stats_interval *a, const struct stats_interval *b);

#endif
