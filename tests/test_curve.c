/*
 * test_curve: the steadiness rule (the last K windows within a tolerance of
 * their mean) and the knee (the smallest depth reaching a share of the peak),
 * table-driven, with values worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "io/curve.h"

struct steady_case {
	double v[8];
	size_t n, k;
	double tol;
	bool   want;
};

static const struct steady_case steady_cases[] = {
	{ { 100, 100, 100, 100, 100 }, 5, 5, 0.05, true },
	{ { 100, 100, 100, 100 }, 4, 5, 0.05, false },              /* too few windows */
	{ { 50, 96, 104, 100, 97, 103 }, 6, 5, 0.05, true },       /* the ramp is outside the last 5 */
	{ { 50, 96, 104, 100, 97, 103 }, 6, 6, 0.05, false },
	{ { 100, 100, 100, 100, 106 }, 5, 5, 0.05, true },         /* mean 101.2: 106 is 4.7% off ... */
	{ { 100, 100, 100, 100, 112 }, 5, 5, 0.05, false },        /* ... mean 102.4: 112 is 9.4% off */
	{ { 95, 105, 100, 100, 100 }, 5, 5, 0.05, true },          /* exactly ±5% of 100 */
	{ { 0, 0, 0 }, 3, 3, 0.05, false },                        /* nothing read is not steady */
	{ { 100, 100 }, 2, 0, 0.05, false },
};

static void test_steady(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(steady_cases) / sizeof(steady_cases[0]); i++) {
		const struct steady_case *c = &steady_cases[i];
		bool got = curve_steady(c->v, c->n, c->k, c->tol);
		if (got != c->want)
			fail_msg("steady case %zu: got %d", i, got);
	}
}

/* 100,100,100,100,106: mean 101.2, and 100 is 1.2% below it, 106 4.7% above: steady at 5%. */
static void test_steady_mean_is_of_the_window(void **state)
{
	static const double v[] = { 100, 100, 100, 100, 106 };
	(void)state;
	assert_true(curve_steady(v, 5, 5, 0.05));
	assert_false(curve_steady(v, 5, 5, 0.04));
}

struct knee_case {
	unsigned depths[10];
	double   iops[10];
	size_t   n;
	double   share;
	unsigned peak_depth, knee_depth;
};

static const struct knee_case knee_cases[] = {
	/* fio's curve on this project's first machine (O_DIRECT random 8 KiB reads
	 * of the heap file): peak 78k at 128; 90% is 70.2k, first reached at 64 (76k) */
	{ { 1, 2, 4, 8, 16, 32, 64, 128, 256 },
	  { 16300, 26000, 37000, 51000, 63000, 68000, 76000, 78000, 70000 }, 9, 0.90, 128, 64 },
	{ { 1, 2, 4, 8, 16, 32, 64, 128, 256 },
	  { 16300, 26000, 37000, 51000, 63000, 68000, 76000, 78000, 70000 }, 9, 0.80, 128, 16 },
	/* depths in any order */
	{ { 64, 1, 16, 4 }, { 1000, 100, 950, 500 }, 4, 0.90, 64, 16 },
	/* a flat curve: the smallest depth */
	{ { 1, 2, 4 }, { 500, 500, 500 }, 3, 0.90, 1, 1 },
	/* share 1: the peak itself, the smallest depth among ties */
	{ { 8, 4, 16 }, { 900, 1000, 1000 }, 3, 1.0, 4, 4 },
	{ { 32 }, { 123 }, 1, 0.90, 32, 32 },
};

static void test_knee(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(knee_cases) / sizeof(knee_cases[0]); i++) {
		const struct knee_case *c = &knee_cases[i];
		struct curve_knee k;
		assert_int_equal(curve_find_knee(c->depths, c->iops, c->n, c->share, &k), 0);
		if (c->depths[k.peak] != c->peak_depth || c->depths[k.knee] != c->knee_depth)
			fail_msg("knee case %zu: peak %u knee %u, expected %u and %u", i,
				 c->depths[k.peak], c->depths[k.knee], c->peak_depth, c->knee_depth);
	}
}

static void test_knee_bad_input(void **state)
{
	static const unsigned d[] = { 1, 2 };
	static const double v[] = { 1, 2 };
	struct curve_knee k;
	(void)state;

	assert_int_equal(curve_find_knee(d, v, 0, 0.9, &k), -EINVAL);
	assert_int_equal(curve_find_knee(d, v, 2, 0.0, &k), -EINVAL);
	assert_int_equal(curve_find_knee(d, v, 2, 1.5, &k), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_steady_mean_is_of_the_window),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_knee_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
