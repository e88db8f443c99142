/*
 * hist: latency statistics in nanoseconds. A log-linear histogram (exact
 * below 64 ns, then 64 sub-buckets per power of two) gives percentiles with a
 * relative error below 1/128 (0.8%: a value is reported as the middle of its
 * bucket, whose width is at most 1/64 of its lower bound); the sum and the sum
 * of squares are kept as integers, so mean and variance are exact (computed
 * when asked, not per value); min and max are exact. hist_add is a few
 * integer operations: no division, no allocation, no system call. Two
 * histograms merge losslessly.
 */
#ifndef IO_HIST_H
#define IO_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB      (1u << HIST_SUB_BITS)            /* sub-buckets per 2^k */
#define HIST_BUCKETS  ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min_ns, max_ns;
	uint64_t sum_ns;                  /* of every value */
	unsigned __int128 sum_sq_ns2;     /* of every value's square */
	uint64_t buckets[HIST_BUCKETS];
};

struct hist_summary {
	uint64_t count;
	uint64_t min_ns, max_ns;
	double   mean_ns, stddev_ns;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns;
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t ns);
void hist_merge(struct hist *dst, const struct hist *src);

/* The value at percentile PCT (0 < PCT <= 100), 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double pct);
/* The mean, 0 when empty; the sample standard deviation, 0 below 2 values. */
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);
void hist_summarize(const struct hist *h, struct hist_summary *out);

/* Bucket index of a value and the value range [lo, hi] a bucket holds. */
unsigned hist_index(uint64_t ns);
void hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi);

#endif
