/*
 * test_opts: the option table parser: every type, both "--x v" and "--x=v",
 * short aliases ("-c 4", "-c4", bundled flags), range errors that name the
 * flag and the range, lists, sizes, durations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "bench/opts.h"

struct cfg {
	long long rows;
	uint64_t bs;
	double dur;
	const char *name;
	bool flag;
	struct opt_list set;
};

static const struct opt_desc table[] = {
	{ "rows", OPT_INT, offsetof(struct cfg, rows), 1, 1000, "N", "10", "rows" },
	{ "bs", OPT_SIZE, offsetof(struct cfg, bs), 512, 1 << 20, "SIZE", "8k", "block size" },
	{ "duration", OPT_SECONDS, offsetof(struct cfg, dur), 0, 0, "T", "10s", "time" },
	{ "name", OPT_STR, offsetof(struct cfg, name), 0, 0, "S", NULL, "a name" },
	{ "flag", OPT_FLAG, offsetof(struct cfg, flag), 0, 0, NULL, NULL, "a flag" },
	{ "set", OPT_LIST, offsetof(struct cfg, set), 0, 0, "K=V", NULL, "repeatable" },
	{ 0 }
};

static int parse_with(const struct opt_desc *t, struct cfg *c, char **argv, char *err)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(c, 0, sizeof(*c));
	return opts_parse(t, c, argc, argv, err, OPT_ERR_MAX);
}

static int parse(struct cfg *c, char **argv, char *err)
{
	return parse_with(table, c, argv, err);
}

static void good_values(void **state)
{
	char *argv[] = { "--rows", "12", "--bs=16k", "--duration", "250ms", "--name",
		"x y", "--flag", "--set", "a=1", "--set=b=2", NULL };
	char err[OPT_ERR_MAX];
	struct cfg c;

	(void)state;
	assert_int_equal(parse(&c, argv, err), 0);
	assert_int_equal(c.rows, 12);
	assert_int_equal(c.bs, 16384);
	assert_float_equal(c.dur, 0.25, 1e-12);
	assert_string_equal(c.name, "x y");
	assert_true(c.flag);
	assert_int_equal(c.set.n, 2);
	assert_string_equal(c.set.v[1], "b=2");
}

static const struct bad_case {
	const char *a, *b, *msg;
} bad[] = {
	{ "--rows", "0", "--rows: '0' is not allowed; give a whole number from 1 to 1000" },
	{ "--rows", "-5", "'-5' is not allowed" },
	{ "--rows", "12x", "'12x' is not allowed" },
	{ "--rows", "1001", "from 1 to 1000" },
	{ "--bs", "100", "--bs: '100' is not allowed" },
	{ "--bs", "8q", "'8q' is not allowed" },
	{ "--duration", "0", "more than 0" },
	{ "--duration", "-1s", "--duration: '-1s'" },
	{ "--nope", "1", "unknown option '--nope'" },
	{ "stray", NULL, "unexpected argument 'stray'" },
	{ "--flag=1", NULL, "--flag takes no value" },
	{ "--rows", NULL, "--rows needs a value" },
};

/* Every case must fail with a message holding its text. */
static void check_bad(const struct opt_desc *t, const struct bad_case *cases, size_t n)
{
	char err[OPT_ERR_MAX];
	struct cfg c;

	for (size_t i = 0; i < n; i++) {
		char *argv[] = { (char *)cases[i].a, (char *)cases[i].b, NULL };

		err[0] = '\0';
		assert_int_equal(parse_with(t, &c, argv, err), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].msg);
	}
}

static void bad_values(void **state)
{
	(void)state;
	check_bad(table, bad, sizeof(bad) / sizeof(bad[0]));
}

static void help(void **state)
{
	char *argv[] = { "--rows", "3", "--help", NULL };
	char err[OPT_ERR_MAX];
	struct cfg c;

	(void)state;
	assert_int_equal(parse(&c, argv, err), 1);
}

/* A table whose entries give short aliases (the trailing field). */
static const struct opt_desc short_table[] = {
	{ "rows", OPT_INT, offsetof(struct cfg, rows), 1, 1000, "N", "10", "rows", 'c' },
	{ "duration", OPT_SECONDS, offsetof(struct cfg, dur), 0, 0, "T", NULL, "time", 'T' },
	{ "name", OPT_STR, offsetof(struct cfg, name), 0, 0, "S", NULL, "a name", 'M' },
	{ "flag", OPT_FLAG, offsetof(struct cfg, flag), 0, 0, NULL, NULL, "a flag", 'S' },
	{ "bs", OPT_SIZE, offsetof(struct cfg, bs), 512, 1 << 20, "SIZE", NULL, "no alias" },
	{ 0 }
};

static int parse_short_table(struct cfg *c, char **argv, char *err)
{
	return parse_with(short_table, c, argv, err);
}

static void short_aliases(void **state)
{
	char *a1[] = { "-c", "12", "-T5", "-S", "--bs", "1k", NULL };
	char *a2[] = { "-Sc7", "-M", "-x", NULL };
	char *a3[] = { "--rows=3", "-c", "4", NULL };
	char err[OPT_ERR_MAX];
	struct cfg c;

	(void)state;
	assert_int_equal(parse_short_table(&c, a1, err), 0);
	assert_int_equal(c.rows, 12);
	assert_float_equal(c.dur, 5, 1e-12);
	assert_true(c.flag);
	assert_int_equal(c.bs, 1024);
	/* a flag bundled with an option that takes the rest as its value */
	assert_int_equal(parse_short_table(&c, a2, err), 0);
	assert_true(c.flag);
	assert_int_equal(c.rows, 7);
	assert_string_equal(c.name, "-x");	/* a value may start with '-' */
	/* the last one given wins, long or short */
	assert_int_equal(parse_short_table(&c, a3, err), 0);
	assert_int_equal(c.rows, 4);
}

static const struct bad_case short_bad[] = {
	{ "-c", "0", "--rows: '0' is not allowed; give a whole number from 1 to 1000" },
	{ "-c", NULL, "--rows needs a value (N)" },
	{ "-q", NULL, "unknown option '-q'" },
	{ "-Sq", NULL, "unknown option '-q'" },
	{ "-", NULL, "unexpected argument '-'" },
	{ "-T", "0", "--duration: '0' is not allowed" },
};

static void short_errors(void **state)
{
	char err[OPT_ERR_MAX];
	struct cfg c;

	(void)state;
	check_bad(short_table, short_bad, sizeof(short_bad) / sizeof(short_bad[0]));
	/* a table without aliases knows no short options */
	{
		char *argv[] = { "-r", "3", NULL };

		assert_int_equal(parse(&c, argv, err), -EINVAL);
		assert_non_null(strstr(err, "unknown option '-r'"));
	}
}

static void short_usage(void **state)
{
	char buf[4096] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	opts_usage(f, "x", short_table);
	fclose(f);
	assert_non_null(strstr(buf, "  -c, --rows N "));
	assert_non_null(strstr(buf, "  -S, --flag "));
	assert_non_null(strstr(buf, "  --bs SIZE "));
}

static void lists(void **state)
{
	long long v[8];
	char err[OPT_ERR_MAX];

	(void)state;
	assert_int_equal(opts_parse_ll_list("eic", "0,1,16,1000", 0, 1000, v, 8, err, sizeof(err)), 4);
	assert_int_equal(v[2], 16);
	assert_int_equal(opts_parse_ll_list("eic", "", 0, 1000, v, 8, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the list is empty"));
	assert_int_equal(opts_parse_ll_list("eic", "1,,2", 0, 1000, v, 8, err, sizeof(err)), -EINVAL);
	assert_int_equal(opts_parse_ll_list("eic", "1,1001", 0, 1000, v, 8, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--eic: '1001' is not allowed"));
	assert_int_equal(opts_parse_ll_list("eic", "1,2,3", 0, 1000, v, 2, err, sizeof(err)), -EINVAL);
}

static void sizes_and_seconds(void **state)
{
	uint64_t b;
	double s;

	(void)state;
	assert_int_equal(opts_parse_size("8k", &b), 0);
	assert_int_equal(b, 8192);
	assert_int_equal(opts_parse_size("4GiB", &b), 0);
	assert_int_equal(b, 4ULL << 30);
	assert_int_equal(opts_parse_size("-1", &b), -EINVAL);
	assert_int_equal(opts_parse_seconds("2m", &s), 0);
	assert_float_equal(s, 120, 1e-9);
	assert_int_equal(opts_parse_seconds("1.5h", &s), 0);
	assert_float_equal(s, 5400, 1e-9);
	assert_int_equal(opts_parse_seconds("3 s", &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_values),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(help),
		cmocka_unit_test(short_aliases),
		cmocka_unit_test(short_errors),
		cmocka_unit_test(short_usage),
		cmocka_unit_test(lists),
		cmocka_unit_test(sizes_and_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
