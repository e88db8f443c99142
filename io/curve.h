/*
 * curve: the device's own curve, IOPS against depth. Per point, whether IOPS
 * has become steady: the last K windows' IOPS each lie within a tolerance of
 * their mean. Across points, the peak and the knee: the smallest depth whose
 * IOPS reaches a share of the peak, a knee only when a deeper point shows
 * the plateau past it; and whether deeper points have stopped adding IOPS.
 * Pure arithmetic on figures; no I/O.
 */
#ifndef IO_CURVE_H
#define IO_CURVE_H

#include <stdbool.h>
#include <stddef.h>

/* The steadiness rule of `probe --steady`. */
#define CURVE_STEADY_WINDOWS   5       /* the last 5 windows ... */
#define CURVE_STEADY_TOLERANCE 0.05    /* ... each within ±5% of their mean */
#define CURVE_KNEE_SHARE       0.90    /* the knee: the smallest depth reaching 90% of the peak */
#define CURVE_RISE_MIN         0.05    /* a deeper point adding less than 5% ... */
#define CURVE_FLAT_POINTS      2       /* ... twice in a row: IOPS have stopped rising */

/*
 * True when there are at least K values and each of the last K lies within
 * TOLERANCE (a fraction, e.g. 0.05) of their mean. False for K == 0 or a mean
 * of 0.
 */
bool curve_steady(const double *iops, size_t n, size_t k, double tolerance);

struct curve_knee {
	size_t peak;                   /* index of the highest IOPS */
	size_t knee;                   /* index of the smallest depth reaching share * peak */
	bool   plateau;                /* a deeper point than the knee was measured: the knee
					  stands; else IOPS may still rise beyond the curve */
};

/*
 * The peak and knee of N points (DEPTHS in any order; IOPS per point). Ties
 * in depth or in IOPS go to the smaller depth. 0, or -EINVAL when N is 0 or
 * SHARE is outside (0, 1].
 */
int curve_find_knee(const unsigned *depths, const double *iops, size_t n,
		    double share, struct curve_knee *out);

/*
 * True when the last CURVE_FLAT_POINTS of N points (IOPS in order of
 * increasing depth) each add less than CURVE_RISE_MIN to the highest IOPS
 * of the points before it: going deeper stopped paying.
 */
bool curve_flat(const double *iops, size_t n);

#endif
