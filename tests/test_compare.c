/*
 * test_compare: folders side by side over tests/fixtures/sweep (run from the
 * repository root): the lines per query, each line's recommendation, the
 * ratio to the first line with its verdict, the refusal of folders of other
 * data sets unless forced, and of folders that are no sweep.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/compare.h"

#define F "tests/fixtures/sweep/"

static void side_by_side(void **state)
{
	const char *dirs[] = { F "clear", F "indist" };
	char err[1024] = "", *buf = NULL;
	size_t len = 0;
	struct compare c;
	json_t *j, *row;
	FILE *f;

	(void)state;
	assert_int_equal(compare_load(dirs, 2, 0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nqueries, 1);
	assert_string_equal(c.queries[0].name, "sparse");
	assert_int_equal(c.queries[0].nlines, 2);
	assert_string_equal(c.queries[0].lines[1].name, "B");
	assert_non_null(compare_group(&c, &c.queries[0].lines[1], "64"));
	assert_null(compare_group(&c, &c.queries[0].lines[1], "2"));
	j = compare_json(&c);
	/* value 4: B took about 0.79x A's time, beyond the interval */
	row = json_array_get(json_object_get(json_array_get(json_object_get(j, "queries"), 0), "values"), 2);
	assert_string_equal(json_string_value(json_object_get(row, "value")), "4");
	row = json_array_get(json_object_get(row, "lines"), 1);
	assert_string_equal(json_string_value(json_object_get(row, "verdict")), "faster");
	assert_true(json_real_value(json_object_get(row, "ratio_hi")) < 1.0);
	json_decref(j);
	f = open_memstream(&buf, &len);
	assert_int_equal(compare_render(&c, 0, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "A: recommends 16 (fastest 16); B: recommends 4 (fastest 16)"));
	assert_non_null(strstr(buf, "B against A: at 4 0.79x the time"));
	assert_non_null(strstr(buf, "at the other values measured by both the interval holds 1"));
	free(buf);
	compare_free(&c);
}

/* PostgreSQL 15 against 18 with io_method varied: a line per method, named
 * in full; where every shared value differs, no "other values" claimed. */
static void versions_and_methods(void **state)
{
	const char *dirs[] = { F "sparse", F "grid2" };
	char err[1024] = "", *buf = NULL;
	size_t len = 0;
	struct compare c;
	FILE *f;

	(void)state;
	assert_int_equal(compare_load(dirs, 2, 0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.queries[0].nlines, 3);
	assert_string_equal(c.queries[0].lines[1].name, "B io_method=sync");
	assert_string_equal(c.queries[0].lines[2].name, "B io_method=worker");
	f = open_memstream(&buf, &len);
	assert_int_equal(compare_render(&c, 0, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "B io_method=sync ms"));
	assert_non_null(strstr(buf, "B io_method=worker ms"));
	assert_non_null(strstr(buf, "PostgreSQL 15.18)"));
	assert_non_null(strstr(buf, "PostgreSQL 18.1)"));
	assert_non_null(strstr(buf, "B io_method=sync against A: at 0 1.25x the time (1.21-1.29), at 1 0.67x the time"));
	assert_null(strstr(buf, "other values"));
	free(buf);
	compare_free(&c);
}

static void other_data_set(void **state)
{
	const char *dirs[] = { F "clear", F "otherdata" };
	char err[1024] = "";
	struct compare c;

	(void)state;
	assert_int_equal(compare_load(dirs, 2, 0, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "measured different data sets (their rows differs)"));
	assert_non_null(strstr(err, "--force"));
	compare_free(&c);
	assert_int_equal(compare_load(dirs, 2, 1, &c, err, sizeof(err)), 0);
	assert_non_null(strstr(c.note, "(forced)"));
	compare_free(&c);
}

static void refused(void **state)
{
	const char *notsweep[] = { F "clear", F "notsweep" }, *one[] = { F "clear" };
	const char *missing[] = { F "clear", F "nosuch" }, *empty[] = { F "clear", F "empty" };
	char err[1024] = "";
	struct compare c;

	(void)state;
	assert_int_equal(compare_load(notsweep, 2, 0, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "holds the records of 'probe'"));
	compare_free(&c);
	assert_int_equal(compare_load(one, 1, 0, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "give 2 to 8 result folders"));
	compare_free(&c);
	assert_int_equal(compare_load(missing, 2, 0, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no readable meta.json"));
	compare_free(&c);
	assert_int_equal(compare_load(empty, 2, 0, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no finished trials"));
	compare_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(side_by_side),
		cmocka_unit_test(versions_and_methods),
		cmocka_unit_test(other_data_set),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
