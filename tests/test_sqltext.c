/*
 * test_sqltext: the embedded SQL files are found by name, and files are split
 * into statements at ';' line ends with comment and blank lines dropped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bench/pg/sqltext.h"

static void lookup(void **state)
{
	(void)state;
	assert_non_null(sql_text("dataset/fast_copy.sql"));
	assert_non_null(strstr(sql_text("dataset/fast_copy.sql"), "FORMAT binary, FREEZE"));
	assert_null(sql_text("dataset/none.sql"));
}

static void split(void **state)
{
	const char *text = "-- a comment\n\nALTER SYSTEM SET a = 1;\n-- b\nSELECT 1,\n  2 ;  \nVACUUM t;";
	char buf[128];
	size_t pos = 0;

	(void)state;
	assert_int_equal(sql_next_statement(text, &pos, buf, sizeof(buf)), 24);
	assert_string_equal(buf, "ALTER SYSTEM SET a = 1;\n");
	assert_true(sql_next_statement(text, &pos, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "SELECT 1,\n  2 ;  \n");
	assert_true(sql_next_statement(text, &pos, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "VACUUM t;\n");
	assert_int_equal(sql_next_statement(text, &pos, buf, sizeof(buf)), 0);
	pos = 0;
	assert_int_equal(sql_next_statement(text, &pos, buf, 8), -1);
}

static void every_file_splits(void **state)
{
	(void)state;
	for (const struct sql_file *f = sql_files; f->name; f++) {
		char buf[8192];
		size_t pos = 0;
		int n, count = 0;

		while ((n = sql_next_statement(f->text, &pos, buf, sizeof(buf))) > 0)
			count++;
		assert_int_equal(n, 0);
		if (count == 0)
			fail_msg("sql/%s holds no statement", f->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup),
		cmocka_unit_test(split),
		cmocka_unit_test(every_file_splits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
