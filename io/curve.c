/*
 * curve: steadiness of a point's windows, and the knee of a curve; see
 * curve.h.
 */
#include "io/curve.h"

#include <errno.h>
#include <math.h>

bool curve_steady(const double *iops, size_t n, size_t k, double tolerance)
{
	double mean = 0;

	if (k == 0 || n < k)
		return false;
	for (size_t i = n - k; i < n; i++)
		mean += iops[i];
	mean /= (double)k;
	if (!(mean > 0))
		return false;
	for (size_t i = n - k; i < n; i++)
		if (fabs(iops[i] - mean) > tolerance * mean)
			return false;
	return true;
}

/* Is point I a better choice than point J for "the smallest depth"? */
static bool shallower(const unsigned *depths, size_t i, size_t j)
{
	return depths[i] < depths[j];
}

int curve_find_knee(const unsigned *depths, const double *iops, size_t n,
		    double share, struct curve_knee *out)
{
	size_t peak = 0, knee = n;

	if (n == 0 || !(share > 0 && share <= 1))
		return -EINVAL;
	for (size_t i = 1; i < n; i++)
		if (iops[i] > iops[peak] || (iops[i] == iops[peak] && shallower(depths, i, peak)))
			peak = i;
	for (size_t i = 0; i < n; i++)
		if (iops[i] >= share * iops[peak] && (knee == n || shallower(depths, i, knee)))
			knee = i;
	out->peak = peak;
	out->knee = knee;
	out->plateau = false;
	for (size_t i = 0; i < n; i++)
		out->plateau |= depths[i] > depths[knee];
	return 0;
}

bool curve_flat(const double *iops, size_t n)
{
	if (n < CURVE_FLAT_POINTS + 1)
		return false;
	for (size_t i = n - CURVE_FLAT_POINTS; i < n; i++) {
		double best = 0;

		for (size_t j = 0; j < i; j++)
			best = iops[j] > best ? iops[j] : best;
		if (!(iops[i] < best * (1 + CURVE_RISE_MIN)))
			return false;
	}
	return true;
}
