/*
 * stats: order statistics work on a sorted private copy; the caller's array
 * is read only. Quantiles interpolate linearly between neighbouring order
 * statistics (position q*(n-1)), so the median of an even count is the mean
 * of the middle two. Intervals: distribution-free order-statistic intervals
 * for a median, percentile bootstrap for a ratio of medians (io/rng.h, so a
 * report renders the same figures every time).
 */
#include "io/stats.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/rng.h"

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

/* P(Binomial(n, 1/2) <= k), exactly enough for n up to a few hundred. */
static double binom_half_cdf(size_t n, size_t k)
{
	double term = pow(0.5, (double)n), sum = 0;

	for (size_t i = 0; i <= k && i <= n; i++) {
		sum += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return sum;
}

int stats_median_interval(const double *v, size_t n, double level,
			  struct stats_interval *out)
{
	double *s;
	size_t k = 1;

	*out = (struct stats_interval){ NAN, NAN, NAN };
	if (n == 0 || !(level > 0 && level < 1))
		return -EINVAL;
	if (!(s = sorted_copy(v, n)))
		return -ENOMEM;
	while (k + 1 <= n / 2 && 1 - 2 * binom_half_cdf(n, k) >= level)
		k++;
	out->lo = s[k - 1];
	out->hi = s[n - k];
	out->coverage = n == 1 ? 0 : 1 - 2 * binom_half_cdf(n, k - 1);
	free(s);
	return 0;
}

/*
 * The K-th smallest of V[0..N), V reordered so that V[0..K) <= V[K]
 * (Hoare's selection, linear on average: a resample of thousands of
 * latencies is not sorted whole). No NaN in V.
 */
static double select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < m) {
		double x = v[k], t;
		ptrdiff_t i = l, j = m;

		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				t = v[i], v[i] = v[j], v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return v[k];
}

/* The median of V[0..N) (reordered), as quantile_sorted(.., 0.5) gives it
 * on the sorted values: the mean of the middle two when N is even. */
static double median_in_place(double *v, size_t n)
{
	double hi = select_kth(v, n, n / 2), lo = hi;

	if (n % 2 == 0) {
		lo = v[0];                     /* the largest of the lower half */
		for (size_t i = 1; i < n / 2; i++)
			if (v[i] > lo)
				lo = v[i];
	}
	return lo + 0.5 * (hi - lo);
}

/* The median of N draws with replacement from V, through BUF. */
static double resample_median(const double *v, size_t n, struct rng *g, double *buf)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = v[rng_below(g, n)];
	return median_in_place(buf, n);
}

int stats_ratio_interval(const double *a, size_t na, const double *b, size_t nb,
			 double level, int resamples, uint64_t seed,
			 double *ratio, struct stats_interval *out)
{
	double *buf, *r;
	struct rng g;
	size_t m = (size_t)resamples;

	*out = (struct stats_interval){ NAN, NAN, NAN };
	*ratio = NAN;
	if (na == 0 || nb == 0 || resamples < 10 || !(level > 0 && level < 1))
		return -EINVAL;
	for (size_t i = 0; i < na || i < nb; i++)
		if ((i < na && isnan(a[i])) || (i < nb && isnan(b[i])))
			return -EINVAL;
	buf = malloc((na > nb ? na : nb) * sizeof(*buf));
	r = malloc(m * sizeof(*r));
	if (!buf || !r) {
		free(buf), free(r);
		return -ENOMEM;
	}
	rng_seed(&g, seed);
	for (size_t i = 0; i < m; i++) {
		double x = resample_median(a, na, &g, buf);

		r[i] = x / resample_median(b, nb, &g, buf);
	}
	*ratio = stats_median(a, na) / stats_median(b, nb);
	qsort(r, m, sizeof(*r), cmp_double);
	out->lo = quantile_sorted(r, m, (1 - level) / 2);
	out->hi = quantile_sorted(r, m, 1 - (1 - level) / 2);
	out->coverage = level;
	free(buf), free(r);
	return 0;
}

int stats_overlap(const struct stats_interval *a, const struct stats_interval *b)
{
	return a->lo <= b->hi && b->lo <= a->hi;
}
