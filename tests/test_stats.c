/*
 * test_stats: table-driven checks of the summary statistics with odd and
 * even counts, duplicates, an outlier; the input must come back unchanged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "io/stats.h"

#define MAXV 8

static const struct stats_case {
	size_t n;
	double v[MAXV];
	double min, max, mean, median, q1, q3, iqr, mad;
} cases[] = {
	{ 1, { 5 },                     5, 5, 5, 5, 5, 5, 0, 0 },
	{ 3, { 3, 1, 2 },               1, 3, 2, 2, 1.5, 2.5, 1, 1 },
	{ 4, { 4, 1, 3, 2 },            1, 4, 2.5, 2.5, 1.75, 3.25, 1.5, 1 },
	{ 6, { 10, 1, 1, 1, 100, 2 },   1, 100, 115.0 / 6, 1.5, 1, 8, 7, 0.5 },
	{ 4, { -2, -2, -2, -2 },        -2, -2, -2, -2, -2, -2, 0, 0 },
	{ 5, { 16.3, 30.1, 22.9, 23.6, 24.8 }, 16.3, 30.1, 23.54, 23.6, 22.9, 24.8, 1.9, 1.2 },
};

#define EPS 1e-12

static void check_summary(const struct stats_case *c)
{
	struct stats_summary s;
	double copy[MAXV];

	memcpy(copy, c->v, sizeof(copy));
	assert_int_equal(stats_summarize(copy, c->n, &s), 0);
	assert_memory_equal(copy, c->v, sizeof(copy));
	assert_int_equal(s.n, c->n);
	assert_float_equal(s.min, c->min, EPS);
	assert_float_equal(s.max, c->max, EPS);
	assert_float_equal(s.mean, c->mean, EPS);
	assert_float_equal(s.median, c->median, EPS);
	assert_float_equal(s.q1, c->q1, EPS);
	assert_float_equal(s.q3, c->q3, EPS);
	assert_float_equal(s.iqr, c->iqr, 1e-9);
	assert_float_equal(s.mad, c->mad, 1e-9);
}

static void check_singles(const struct stats_case *c)
{
	double copy[MAXV];

	memcpy(copy, c->v, sizeof(copy));
	assert_float_equal(stats_min(copy, c->n), c->min, EPS);
	assert_float_equal(stats_max(copy, c->n), c->max, EPS);
	assert_float_equal(stats_mean(copy, c->n), c->mean, EPS);
	assert_float_equal(stats_median(copy, c->n), c->median, EPS);
	assert_float_equal(stats_mad(copy, c->n), c->mad, 1e-9);
	assert_float_equal(stats_quantile(copy, c->n, 0), c->min, EPS);
	assert_float_equal(stats_quantile(copy, c->n, 1), c->max, EPS);
	assert_memory_equal(copy, c->v, sizeof(copy));
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_summary(&cases[i]);
		check_singles(&cases[i]);
	}
}

static void test_empty_and_out_of_range(void **state)
{
	struct stats_summary s;
	double v[] = { 1, 2 };

	(void)state;
	assert_int_equal(stats_summarize(v, 0, &s), -EINVAL);
	assert_true(isnan(stats_median(v, 0)));
	assert_true(isnan(stats_mean(v, 0)));
	assert_true(isnan(stats_min(v, 0)));
	assert_true(isnan(stats_max(v, 0)));
	assert_true(isnan(stats_quantile(v, 2, -0.1)));
	assert_true(isnan(stats_quantile(v, 2, 1.5)));
	assert_true(isnan(stats_quantile(v, 2, NAN)));
}

/* Order-statistic intervals for the median, computed by hand:
 * coverage = 1 - 2 * P(Binomial(n, 1/2) <= k - 1) for [x(k), x(n+1-k)]. */
static void test_median_interval(void **state)
{
	static const struct {
		size_t n;
		double v[20];
		double lo, hi, coverage;
	} c[] = {
		{ 1, { 7 }, 7, 7, 0 },
		{ 3, { 3, 1, 2 }, 1, 3, 0.75 },                       /* 1 - 2/8 */
		{ 5, { 5, 4, 3, 2, 1 }, 1, 5, 0.9375 },               /* 1 - 2/32 */
		{ 6, { 10, 1, 1, 1, 100, 2 }, 1, 100, 0.96875 },      /* 1 - 2/64 */
		{ 10, { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 }, 2, 9, 1 - 2 * 11.0 / 1024 },
		{ 20, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 },
		  6, 15, 1 - 2 * 21700.0 / 1048576 },
	};
	struct stats_interval iv;
	double v[] = { 1, 2 };

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(stats_median_interval(c[i].v, c[i].n, 0.95, &iv), 0);
		assert_float_equal(iv.lo, c[i].lo, EPS);
		assert_float_equal(iv.hi, c[i].hi, EPS);
		assert_float_equal(iv.coverage, c[i].coverage, 1e-12);
	}
	/* at 0.80, ten values reach k = 3: 1 - 2 * 56/1024 */
	assert_int_equal(stats_median_interval(c[4].v, 10, 0.80, &iv), 0);
	assert_float_equal(iv.lo, 3, EPS);
	assert_float_equal(iv.hi, 8, EPS);
	assert_float_equal(iv.coverage, 1 - 2 * 56.0 / 1024, 1e-12);
	assert_int_equal(stats_median_interval(v, 0, 0.95, &iv), -EINVAL);
	assert_int_equal(stats_median_interval(v, 2, 1.0, &iv), -EINVAL);
}

static void test_ratio_interval(void **state)
{
	double a[] = { 10, 10, 10 }, b[] = { 5, 5, 5 };
	double x[] = { 8.1, 7.8, 8.4, 8.0, 7.9 }, y[] = { 3.7, 3.6, 4.2, 3.9, 3.8 };
	struct stats_interval iv, again;
	double ratio, r2;

	(void)state;
	assert_int_equal(stats_ratio_interval(a, 3, b, 3, 0.95, 1000, 1, &ratio, &iv), 0);
	assert_float_equal(ratio, 2, EPS);
	assert_float_equal(iv.lo, 2, EPS);
	assert_float_equal(iv.hi, 2, EPS);
	assert_int_equal(stats_ratio_interval(x, 5, y, 5, 0.95, 2000, 42, &ratio, &iv), 0);
	assert_float_equal(ratio, 8.0 / 3.8, EPS);
	assert_true(iv.lo <= ratio && ratio <= iv.hi && iv.lo < iv.hi);
	assert_true(iv.lo >= 7.8 / 4.2 - EPS && iv.hi <= 8.4 / 3.6 + EPS);
	assert_float_equal(iv.coverage, 0.95, EPS);
	/* the same seed, the same interval: reports render the same figures */
	assert_int_equal(stats_ratio_interval(x, 5, y, 5, 0.95, 2000, 42, &r2, &again), 0);
	assert_float_equal(again.lo, iv.lo, 0);
	assert_float_equal(again.hi, iv.hi, 0);
	assert_int_equal(stats_ratio_interval(x, 0, y, 5, 0.95, 2000, 42, &r2, &again), -EINVAL);
}

static void test_overlap(void **state)
{
	struct stats_interval a = { 1, 2, 0.95 }, b = { 2, 3, 0.95 }, c = { 2.1, 3, 0.95 };

	(void)state;
	assert_true(stats_overlap(&a, &b));
	assert_true(stats_overlap(&b, &a));
	assert_false(stats_overlap(&a, &c));
	assert_false(stats_overlap(&c, &a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_empty_and_out_of_range),
		cmocka_unit_test(test_median_interval),
		cmocka_unit_test(test_ratio_interval),
		cmocka_unit_test(test_overlap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
