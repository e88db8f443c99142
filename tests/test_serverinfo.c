/*
 * test_serverinfo: each pg_settings type becomes the JSON value a record
 * should carry (the reading itself runs against real servers in
 * tests/it/server.sh and tests/it/pg18.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "bench/pg/serverinfo.h"

static const struct value_case {
	const char *vartype, *unit, *shown;
	const char *json;       /* json_dumps of the value, JSON_ENCODE_ANY */
} values[] = {
	{ "bool", "", "on", "true" },
	{ "bool", "", "off", "false" },
	{ "integer", "", "180006", "180006" },
	{ "integer", "", "-1", "-1" },
	{ "integer", "", "3", "3" },
	{ "integer", "8kB", "128kB", "\"128kB\"" },    /* io_combine_limit: as shown */
	{ "integer", "", "12abc", "\"12abc\"" },       /* not a number: kept as text */
	{ "integer", "", "", "\"\"" },
	{ "enum", "", "io_uring", "\"io_uring\"" },
	{ "string", "", "18.6", "\"18.6\"" },
	{ "bool", "", "maybe", "\"maybe\"" },
	{ "real", "", "1.5", "\"1.5\"" },
};

static void value(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		json_t *v = serverinfo_value(values[i].vartype, values[i].unit, values[i].shown);
		char *s = json_dumps(v, JSON_ENCODE_ANY);

		assert_non_null(s);
		assert_string_equal(s, values[i].json);
		free(s);
		json_decref(v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
