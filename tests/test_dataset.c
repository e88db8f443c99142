/*
 * test_dataset: size estimates against sizes PostgreSQL 15 produced for the
 * same row counts, the free-space check before a load, and the progress of
 * two index builds at once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/statvfs.h>

#include "bench/dataset/dataset.h"

/* Measured on PostgreSQL 15 after loading (bytes). */
static const struct size_case {
	long long rows;                 /* last value of major */
	uint64_t heap, index;
} measured[] = {
	{ 1000000, 36249600, 22487040 },
	{ 10000000, 362479616, 224641024 },
};

/* The full load of 2026-12-06: both builds at 81%, then test_pkey done and
 * gone from the server's view before its result came (72% the other), then
 * its result in. What is shown went 81, 72, 82 before; never back now. */
static void progress(void **state)
{
	double shown;

	(void)state;
	shown = dataset_progress(81 + 81, 0, 2, 100, 0);
	assert_float_equal(shown, 81, 1e-9);
	shown = dataset_progress(72, 0, 2, 100, shown);
	assert_float_equal(shown, 81, 1e-9);
	shown = dataset_progress(72, 1, 2, 100, shown);
	assert_float_equal(shown, 86, 1e-9);
	shown = dataset_progress(0, 2, 2, 100, shown);
	assert_float_equal(shown, 100, 1e-9);
	assert_float_equal(dataset_progress(2e6, 0, 1, 4e6, 0), 2e6, 1e-9);
}

static void estimates(void **state)
{
	struct dataset_estimate e;

	(void)state;
	for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++) {
		dataset_estimate(measured[i].rows, &e);
		assert_int_equal(e.heap_bytes, measured[i].heap);
		/* within 0.5% */
		assert_true(e.index_bytes > measured[i].index * 0.995);
		assert_true(e.index_bytes < measured[i].index * 1.005);
		assert_true(e.need_bytes > e.heap_bytes + 2 * e.index_bytes);
	}
	/* 100M rows: heap 3.46 GB, each index 2.14 GB (measured by hand with psql) */
	dataset_estimate(100000000, &e);
	assert_true(e.heap_bytes > 3.45e9 * 1.048 && e.heap_bytes < 3.47e9 * 1.048);
}

static void space(void **state)
{
	struct dataset_estimate e;
	struct statvfs v;
	char err[512] = "";
	int ret;

	(void)state;
	assert_int_equal(dataset_check_space(".", 1000, err, sizeof(err)), 0);
	dataset_estimate(DATASET_MAX_ROWS, &e);
	assert_int_equal(statvfs(".", &v), 0);
	ret = dataset_check_space(".", DATASET_MAX_ROWS, err, sizeof(err));
	if ((uint64_t)v.f_bavail * v.f_frsize < e.need_bytes) {
		assert_int_equal(ret, -EINVAL);
		assert_non_null(strstr(err, "--rows 2000000000 needs about"));
		assert_non_null(strstr(err, "GiB is free"));
	} else {
		assert_int_equal(ret, 0);
	}
}

static void recipe_names(void **state)
{
	(void)state;
	assert_string_equal(dataset_recipe_name(RECIPE_FAST), "fast");
	assert_string_equal(dataset_recipe_name(RECIPE_BLOG), "blog");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(estimates),
		cmocka_unit_test(progress),
		cmocka_unit_test(space),
		cmocka_unit_test(recipe_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
