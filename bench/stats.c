/*
 * stats: order statistics work on a sorted private copy; the caller's array
 * is read only. Quantiles interpolate linearly between neighbouring order
 * statistics (position q*(n-1)), so the median of an even count is the mean
 * of the middle two.
 */
#include "bench/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

static double quantile_sorted(const double *s, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	double frac = pos - (double)lo;

	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + frac * (s[lo + 1] - s[lo]);
}

/* Median of |s[i] - median| into *MAD. 0 or -ENOMEM. */
static int mad_of(const double *s, size_t n, double median, double *mad)
{
	double *dev = malloc(n * sizeof(*dev));

	if (!dev)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(s[i] - median);
	qsort(dev, n, sizeof(*dev), cmp_double);
	*mad = quantile_sorted(dev, n, 0.5);
	free(dev);
	return 0;
}

double stats_min(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

double stats_mean(const double *v, size_t n)
{
	double mean = 0;

	if (n == 0)
		return NAN;
	/* Running mean: no overflow from a large sum. */
	for (size_t i = 0; i < n; i++)
		mean += (v[i] - mean) / (double)(i + 1);
	return mean;
}

double stats_quantile(const double *v, size_t n, double q)
{
	double *s, r;

	if (n == 0 || !(q >= 0 && q <= 1))
		return NAN;
	s = sorted_copy(v, n);
	if (!s)
		return NAN;
	r = quantile_sorted(s, n, q);
	free(s);
	return r;
}

double stats_median(const double *v, size_t n)
{
	return stats_quantile(v, n, 0.5);
}

double stats_mad(const double *v, size_t n)
{
	struct stats_summary sum;

	return stats_summarize(v, n, &sum) == 0 ? sum.mad : NAN;
}

int stats_summarize(const double *v, size_t n, struct stats_summary *out)
{
	double *s;
	int rc;

	if (n == 0 || !v)
		return -EINVAL;
	s = sorted_copy(v, n);
	if (!s)
		return -ENOMEM;
	out->n = n;
	out->min = s[0];
	out->max = stats_max(s, n);
	out->mean = stats_mean(s, n);
	out->median = quantile_sorted(s, n, 0.5);
	out->q1 = quantile_sorted(s, n, 0.25);
	out->q3 = quantile_sorted(s, n, 0.75);
	out->iqr = out->q3 - out->q1;
	rc = mad_of(s, n, out->median, &out->mad);
	free(s);
	return rc;
}
