/*
 * hist: log-linear latency histogram with exact integer moments.
 * Bucket index: values below 2^HIST_SUB_BITS map to themselves; above, the
 * top HIST_SUB_BITS+1 bits select the bucket, so each power of two is split in
 * HIST_SUB equal parts. Percentiles use the nearest-rank definition.
 */
#include "io/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

unsigned hist_index(uint64_t ns)
{
	unsigned msb, shift;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned)((ns >> shift) - HIST_SUB);
}

void hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned group = idx / HIST_SUB, sub = idx % HIST_SUB;
	unsigned shift;

	if (group == 0) {
		*lo = *hi = idx;
		return;
	}
	shift = group - 1;
	*lo = (uint64_t)(HIST_SUB + sub) << shift;
	*hi = *lo + ((UINT64_C(1) << shift) - 1);
}

void hist_add(struct hist *h, uint64_t ns)
{
	h->buckets[hist_index(ns)]++;
	h->count++;
	h->sum_ns += ns;
	h->sum_sq_ns2 += (unsigned __int128)ns * ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->sum_sq_ns2 += src->sum_sq_ns2;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0, lo, hi;

	if (h->count == 0)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			hist_bucket_range(i, &lo, &hi);
			return clamp(lo + (hi - lo) / 2, h->min_ns, h->max_ns);
		}
	}
	return h->max_ns;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}

/*
 * n * sum(x^2) - sum(x)^2, which is n^2 times the population variance: in
 * integers, exact, unless n * sum(x^2) needs more than 128 bits (then in
 * long double).
 */
static long double spread(const struct hist *h)
{
	unsigned __int128 n = h->count, s = h->sum_ns, nsq;
	long double mean;

	if (!__builtin_mul_overflow(n, h->sum_sq_ns2, &nsq))
		return (long double)(nsq - s * s);
	mean = (long double)h->sum_ns / (long double)h->count;
	return ((long double)h->sum_sq_ns2 - mean * (long double)h->sum_ns) * (long double)h->count;
}

double hist_stddev(const struct hist *h)
{
	long double n = (long double)h->count;

	if (h->count < 2)
		return 0.0;
	return (double)sqrtl(spread(h) / (n * (n - 1)));
}

void hist_summarize(const struct hist *h, struct hist_summary *out)
{
	*out = (struct hist_summary){
		.count = h->count,
		.min_ns = h->count ? h->min_ns : 0,
		.max_ns = h->max_ns,
		.mean_ns = hist_mean(h),
		.stddev_ns = hist_stddev(h),
		.p50_ns = hist_percentile(h, 50.0),
		.p90_ns = hist_percentile(h, 90.0),
		.p99_ns = hist_percentile(h, 99.0),
		.p999_ns = hist_percentile(h, 99.9),
	};
}
