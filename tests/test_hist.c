/*
 * test_hist: bucket layout, percentiles against a sorted-array reference
 * within the documented 1/128 bound, exact mean and standard deviation (also
 * far from zero, where a running floating-point mean loses digits), merge,
 * edge cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "io/blocks.h"
#include "io/hist.h"

#define N 20000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Latency-like values spread over several powers of two. */
static void fill_values(uint64_t *v, size_t n, uint64_t seed)
{
	struct blocks b;

	blocks_random(&b, 1u << 20, seed);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = blocks_next(&b);
		v[i] = 20000 + r * (1 + (r % 7) * (r % 13));
	}
}

static void test_index_ranges(void **state)
{
	uint64_t lo, hi, prev_hi = 0;
	(void)state;

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		hist_bucket_range(i, &lo, &hi);
		assert_true(lo <= hi);
		if (i > 0)
			assert_int_equal(lo, prev_hi + 1);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi), i);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, UINT64_MAX);
}

static void test_percentiles_vs_sorted(void **state)
{
	static const double pcts[] = { 1, 25, 50, 90, 99, 99.9, 100 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct hist *h = malloc(sizeof(*h));
	(void)state;

	fill_values(v, N, 42);
	hist_init(h);
	for (size_t i = 0; i < N; i++)
		hist_add(h, v[i]);
	qsort(v, N, sizeof(*v), cmp_u64);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		size_t rank = (size_t)ceil(pcts[k] / 100.0 * N);
		uint64_t ref = v[rank - 1], got = hist_percentile(h, pcts[k]);
		uint64_t diff = got > ref ? got - ref : ref - got;
		assert_true(diff <= ref / 128 + 1);
	}
	assert_int_equal(h->min_ns, v[0]);
	assert_int_equal(h->max_ns, v[N - 1]);
	free(v);
	free(h);
}

static void test_moments(void **state)
{
	uint64_t *v = malloc(N * sizeof(*v));
	struct hist *h = malloc(sizeof(*h));
	long double sum = 0, ss = 0, mean;
	(void)state;

	fill_values(v, N, 7);
	hist_init(h);
	for (size_t i = 0; i < N; i++) {
		hist_add(h, v[i]);
		sum += (long double)v[i];
	}
	mean = sum / N;
	for (size_t i = 0; i < N; i++)
		ss += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	assert_true(fabs(hist_mean(h) - (double)mean) <= (double)mean * 1e-15);
	assert_true(fabs(hist_stddev(h) - (double)sqrtl(ss / (N - 1))) <=
		    (double)sqrtl(ss / (N - 1)) * 1e-12);
	free(v);
	free(h);
}

/* 10^15 ns plus 1, 2 and 3, a thousand times each: the squares are near
 * 10^30, yet the variance (2000 / 2999) must come out exact. */
static void test_moments_far_from_zero(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	const uint64_t base = 1000000000000000ull;
	const unsigned reps = 1000;
	double n = 3.0 * reps, var;
	(void)state;

	hist_init(h);
	for (unsigned i = 0; i < reps; i++)
		for (uint64_t d = 1; d <= 3; d++)
			hist_add(h, base + d);
	/* deviations from the mean (base + 2) are -1, 0, 1: sum of squares 2 * reps */
	var = 2.0 * reps / (n - 1);
	assert_true(hist_mean(h) == (double)(base + 2));
	assert_true(fabs(hist_stddev(h) - sqrt(var)) <= sqrt(var) * 1e-12);
	free(h);
}

static void test_merge(void **state)
{
	uint64_t *v = malloc(N * sizeof(*v));
	struct hist *all = malloc(sizeof(*all)), *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	(void)state;

	fill_values(v, N, 9);
	hist_init(all);
	hist_init(a);
	hist_init(b);
	for (size_t i = 0; i < N; i++) {
		hist_add(all, v[i]);
		hist_add(i < N / 3 ? a : b, v[i]);
	}
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min_ns, all->min_ns);
	assert_int_equal(a->max_ns, all->max_ns);
	assert_memory_equal(a->buckets, all->buckets, sizeof(a->buckets));
	assert_int_equal(a->sum_ns, all->sum_ns);
	assert_true(a->sum_sq_ns2 == all->sum_sq_ns2);
	assert_true(hist_mean(a) == hist_mean(all));
	assert_true(hist_stddev(a) == hist_stddev(all));
	free(v);
	free(all);
	free(a);
	free(b);
}

static void test_empty_and_single(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	struct hist_summary s;
	(void)state;

	hist_init(h);
	hist_summarize(h, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.min_ns, 0);
	assert_int_equal(s.p99_ns, 0);
	hist_add(h, 123456);
	hist_summarize(h, &s);
	assert_int_equal(s.min_ns, 123456);
	assert_int_equal(s.max_ns, 123456);
	assert_int_equal(s.p50_ns, 123456);      /* clamped to min..max */
	assert_int_equal(s.p999_ns, 123456);
	assert_true(s.stddev_ns == 0.0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_ranges),
		cmocka_unit_test(test_percentiles_vs_sorted),
		cmocka_unit_test(test_moments),
		cmocka_unit_test(test_moments_far_from_zero),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty_and_single),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
