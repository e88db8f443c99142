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

#include "bench/stats.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_empty_and_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
