/*
 * test_opts: the option table parser: every type, both "--x v" and "--x=v",
 * short aliases ("-c 4", "-c4", bundled flags), range errors that name the
 * flag and the range, lists, sizes, durations; the strict rules: numbers
 * written plainly, lists without repeats, durations bounded, no control
 * characters in strings and positional paths (shown escaped); positional
 * arguments in any order with the options, "--" ending them; help asked
 * with -h where -h is free; --help wrapped to a width; an option's other
 * spelling (alias) taken, errors naming the option by its own name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cli/opts.h"

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
	{ "wait", OPT_SECONDS, offsetof(struct cfg, dur), 0, 86400, "T", NULL, "at most a day" },
	{ "delta", OPT_INT, offsetof(struct cfg, rows), -10, 10, "N", NULL, "signed" },
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

/* The bounds themselves, and text past ASCII, are taken. */
static void edges(void **state)
{
	char *edge[] = { "--duration", "168h", "--wait=24h", "--delta", "-10", "--name", "caf\xc3\xa9", NULL };
	char err[OPT_ERR_MAX];
	struct cfg c;

	(void)state;
	assert_int_equal(parse(&c, edge, err), 0);
	assert_float_equal(c.dur, 86400, 1e-9);	/* the last one given */
	assert_int_equal(c.rows, -10);
	assert_string_equal(c.name, "caf\xc3\xa9");
	edge[1] = "1ms";
	edge[2] = "--wait=0.001";
	assert_int_equal(parse(&c, edge, err), 0);
	assert_float_equal(c.dur, 0.001, 1e-12);
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
	{ "--duration", "0", "--duration: '0' is not allowed; give a duration from 1ms to 168h (7 days)" },
	{ "--duration", "-1s", "--duration: '-1s'" },
	{ "--nope", "1", "unknown option '--nope'" },
	{ "stray", NULL, "unexpected argument 'stray'" },
	{ "--flag=1", NULL, "--flag takes no value" },
	{ "--rows", NULL, "--rows needs a value" },
	/* whole numbers written plainly, the plain form named */
	{ "--rows", "012", "--rows: '012' is not written plainly; give 12" },
	{ "--rows", "+12", "'+12' is not written plainly; give 12" },
	{ "--rows", " 12", "' 12' is not written plainly; give 12" },
	{ "--rows", "12 ", "'12 ' is not allowed; give a whole number from 1 to 1000" },
	{ "--rows", "1e2", "'1e2' is not allowed" },
	{ "--rows", "0x10", "'0x10' is not allowed" },
	{ "--rows", "", "'' is not allowed" },
	{ "--rows", "0012000", "'0012000' is not allowed; give a whole number from 1 to 1000" },
	{ "--delta", "-05", "--delta: '-05' is not written plainly; give -5" },
	{ "--delta", "-0", "'-0' is not written plainly; give 0" },
	{ "--delta", "-11", "from -10 to 10" },
	{ "--rows", "99999999999999999999999", "is not allowed" },
	{ "--bs", "08k", "--bs: '08k' is not allowed" },
	{ "--bs", "+8k", "'+8k' is not allowed" },
	/* durations: a decimal number, bounded, the bound named */
	{ "--duration", "1e306h", "--duration: '1e306h' is not allowed; give a duration from 1ms to 168h (7 days)" },
	{ "--duration", "169h", "to 168h (7 days)" },
	{ "--duration", "nan", "'nan' is not allowed" },
	{ "--duration", "inf", "'inf' is not allowed" },
	{ "--duration", "0x10", "'0x10' is not allowed" },
	{ "--duration", "1e3", "'1e3' is not allowed" },
	{ "--duration", "01s", "'01s' is not allowed" },
	{ "--duration", ".5s", "'.5s' is not allowed" },
	{ "--duration", "1.s", "'1.s' is not allowed" },
	{ "--duration", "0.0005", "from 1ms" },
	{ "--duration", "99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999h",
	  "is not allowed" },
	{ "--wait", "25h", "--wait: '25h' is not allowed; give a duration from 1ms to 24h" },
	{ "--wait", "86401", "to 24h" },
	/* strings: no control characters, shown escaped */
	{ "--name", "a\nb", "--name: 'a\\nb' holds a control character; give printable characters only" },
	{ "--name", "\t", "'\\t' holds a control character" },
	{ "--name", "x\ry", "'x\\ry' holds" },
	{ "--name", "a\x7f", "'a\\x7f' holds" },
	{ "--name", "\x1b[31m", "'\\x1b[31m' holds" },
	{ "--set", "k=1\n", "--set: 'k=1\\n' holds a control character" },
	{ "--rows", "1\n", "'1\\n' is not allowed" },
	{ "--na\nme", "x", "unknown option '--na\\nme'" },
	{ "a\nb", NULL, "unexpected argument 'a\\nb'" },
	{ "-\x01", NULL, "unknown option '-\\x01'" },
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
	/* one value in two spellings, or twice */
	assert_int_equal(opts_parse_ll_list("depth", "4,04", 1, 4096, v, 8, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--depth: '04' is not written plainly; give 4");
	assert_int_equal(opts_parse_ll_list("depth", "+4", 1, 4096, v, 8, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "give 4"));
	assert_int_equal(opts_parse_ll_list("depth", "1,4,2,4", 1, 4096, v, 8, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--depth: 4 is given twice; give each value once");
	assert_int_equal(opts_parse_ll_list("depth", "4097", 1, 4096, v, 8, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "from 1 to 4096"));
	assert_int_equal(opts_parse_ll_list("depth", "1,\n2", 1, 4096, v, 8, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'1,\\n2' holds a control character"));
	assert_int_equal(opts_parse_ll_list("depth", "4096,1", 1, 4096, v, 8, err, sizeof(err)), 2);
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
	assert_int_equal(opts_parse_seconds("0.25", &s), 0);
	assert_float_equal(s, 0.25, 1e-12);
	assert_int_equal(opts_parse_seconds("150us", &s), 0);
	assert_true(fabs(s - 150e-6) < 1e-12);
	assert_int_equal(opts_parse_seconds("2\xc2\xb5s", &s), 0);
	assert_true(fabs(s - 2e-6) < 1e-12);
	assert_int_equal(opts_parse_seconds("40ns", &s), 0);
	assert_true(fabs(s - 40e-9) < 1e-15);
	assert_int_equal(opts_parse_seconds("500ms", &s), 0);
	assert_float_equal(s, 0.5, 1e-12);
	assert_int_equal(opts_parse_seconds("1e306h", &s), -EINVAL);
	assert_int_equal(opts_parse_size("08k", &b), -EINVAL);
	assert_int_equal(opts_parse_size("0", &b), 0);
}

static void decimals(void **state)
{
	const char *rest;
	double v;

	(void)state;
	assert_int_equal(opts_parse_decimal("1.5", &v, NULL), 0);
	assert_float_equal(v, 1.5, 1e-12);
	assert_int_equal(opts_parse_decimal("0.001", &v, NULL), 0);
	assert_int_equal(opts_parse_decimal("10", &v, NULL), 0);
	static const char *const bad[] = { "", "1.", ".5", "01", "+1", "-1", "1e3", "0x1", "nan",
		"inf", " 1", "1 ", "1.5x", NULL };
	for (int i = 0; bad[i]; i++)
		if (opts_parse_decimal(bad[i], &v, NULL) != -EINVAL)
			fail_msg("'%s' was taken", bad[i]);
	assert_int_equal(opts_parse_decimal("2.5ms", &v, &rest), 0);
	assert_string_equal(rest, "ms");
}

static void bounds_named(void **state)
{
	char buf[48];

	(void)state;
	opts_format_seconds(86400, buf, sizeof(buf));
	assert_string_equal(buf, "24h");
	opts_format_seconds(7 * 86400, buf, sizeof(buf));
	assert_string_equal(buf, "168h (7 days)");
	opts_format_seconds(120, buf, sizeof(buf));
	assert_string_equal(buf, "2m");
	opts_format_seconds(90, buf, sizeof(buf));
	assert_string_equal(buf, "90s");
}

static void escaping(void **state)
{
	char buf[256], big[400], err[OPT_ERR_MAX];

	(void)state;
	opts_escape("a\nb\tc\rd\x01" "e\x7f", buf, sizeof(buf));
	assert_string_equal(buf, "a\\nb\\tc\\rd\\x01e\\x7f");
	assert_false(opts_has_control("caf\xc3\xa9 / x"));
	assert_true(opts_has_control("x\x7f"));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	opts_escape(big, buf, sizeof(buf));	/* cut, and said so */
	assert_int_equal(strlen(buf), 163);
	assert_string_equal(buf + 160, "...");
	opts_escape("\n\n\n", buf, 6);	/* never past the buffer */
	assert_true(strlen(buf) < 6);
	assert_int_equal(opts_check_text("--x", "ok", err, sizeof(err)), 0);
	assert_int_equal(opts_check_text("--x", "\n", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--x: '\\n' holds a control character; give printable characters only (no newline, tab or other control character)");
}

static void paths_checked(void **state)
{
	char dir[] = "/tmp/eicbench-opts.XXXXXX", other[64], dot[64], err[OPT_ERR_MAX];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(other, sizeof(other), "%s/b", dir);
	snprintf(dot, sizeof(dot), "%s/.", dir);
	assert_int_equal(mkdir(other, 0700), 0);
	{
		char *fine[] = { dir, other, "/nonexistent/a", "/nonexistent/b" };
		char *twice[] = { dir, other, dir };
		char *same[] = { dir, dot };
		char *ctl[] = { dir, "x\ny" };

		assert_int_equal(opts_check_paths("result folder", fine, 4, err, sizeof(err)), 0);
		assert_int_equal(opts_check_paths("result folder", twice, 3, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "result folder: '"));
		assert_non_null(strstr(err, "' is given twice; give each once"));
		assert_int_equal(opts_check_paths("result folder", same, 2, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "are the same; give each once"));
		assert_int_equal(opts_check_paths("result folder", ctl, 2, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "'x\\ny' holds a control character"));
	}
	rmdir(other);
	rmdir(dir);
}


/* A table taking a file and then any number of folders, anywhere. */
struct pos_cfg {
	const char *file;
	struct opt_args rest;
	long long rows;
	bool flag;
};

static const struct opt_desc pos_table[] = {
	{ "FILE", OPT_ARG, offsetof(struct pos_cfg, file), 0, 0, "FILE", NULL, "the file" },
	{ "DIR", OPT_ARGS, offsetof(struct pos_cfg, rest), 0, 0, "DIR", NULL, "folders" },
	{ "rows", OPT_INT, offsetof(struct pos_cfg, rows), 1, 1000, "N", NULL, "rows", 'c' },
	{ "flag", OPT_FLAG, offsetof(struct pos_cfg, flag), 0, 0, NULL, NULL, "a flag" },
	{ 0 }
};

static const struct opt_desc file_table[] = {	/* one positional, no more */
	{ "FILE", OPT_ARG, offsetof(struct pos_cfg, file), 0, 0, "FILE.ini", NULL, "the file" },
	{ "rows", OPT_INT, offsetof(struct pos_cfg, rows), 1, 1000, "N", NULL, "rows" },
	{ 0 }
};

static int parse_pos(const struct opt_desc *t, struct pos_cfg *c, char **argv, char *err)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	return opts_parse(t, c, argc, argv, err, OPT_ERR_MAX);
}

/* Options and positional arguments in any order, as getopt_long takes them. */
static void any_order(void **state)
{
	static const struct {
		char *argv[8];
	} orders[] = {
		{ { "f.ini", "a", "b", "--rows", "3", "--flag", NULL } },
		{ { "--rows", "3", "--flag", "f.ini", "a", "b", NULL } },
		{ { "--rows=3", "f.ini", "--flag", "a", "-c", "3", "b" } },
		{ { "f.ini", "-c3", "a", "--flag", "b", NULL } },
	};
	char err[OPT_ERR_MAX];
	struct pos_cfg c;

	(void)state;
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		char *argv[9] = { 0 };

		memcpy(argv, orders[i].argv, sizeof(orders[i].argv));
		assert_int_equal(parse_pos(pos_table, &c, argv, err), 0);
		assert_string_equal(c.file, "f.ini");
		assert_int_equal(c.rest.n, 2);
		assert_string_equal(c.rest.v[0], "a");
		assert_string_equal(c.rest.v[1], "b");
		assert_int_equal(c.rows, 3);
		assert_true(c.flag);
	}
	/* confsweep's shape: options before the file, and after it */
	{
		char *before[] = { "--rows", "2", "f.ini", NULL };
		char *twice[] = { "--rows", "2", "f.ini", "g.ini", NULL };

		assert_int_equal(parse_pos(file_table, &c, before, err), 0);
		assert_string_equal(c.file, "f.ini");
		assert_int_equal(parse_pos(file_table, &c, twice, err), -EINVAL);
		assert_string_equal(err, "too many command-line arguments (first is 'g.ini'); give one FILE.ini");
	}
}

/* "--" ends the options: what follows is positional, "--help" and "-x" too. */
static void double_dash(void **state)
{
	char *a1[] = { "--rows", "4", "--", "--flag", "-c", "--help", NULL };
	char *a2[] = { "--", NULL };
	char *a3[] = { "--flag", "--", "--rows", NULL };
	char *a4[] = { "--help", "--", "x", NULL };
	char err[OPT_ERR_MAX];
	struct pos_cfg c;

	(void)state;
	assert_int_equal(parse_pos(pos_table, &c, a1, err), 0);
	assert_int_equal(c.rows, 4);
	assert_false(c.flag);
	assert_string_equal(c.file, "--flag");
	assert_int_equal(c.rest.n, 2);
	assert_string_equal(c.rest.v[0], "-c");
	assert_string_equal(c.rest.v[1], "--help");
	assert_int_equal(parse_pos(pos_table, &c, a2, err), 0);
	assert_null(c.file);
	assert_int_equal(parse_pos(file_table, &c, a3, err), -EINVAL);	/* no --flag there */
	assert_int_equal(parse_pos(pos_table, &c, a3, err), 0);
	assert_true(c.flag);
	assert_string_equal(c.file, "--rows");
	assert_int_equal(parse_pos(pos_table, &c, a4, err), 1);	/* before "--", help */
	/* a table without positional arguments still refuses one after "--" */
	{
		char *argv[] = { "--", "stray", NULL };
		struct cfg k;

		assert_int_equal(parse(&k, argv, err), -EINVAL);
		assert_non_null(strstr(err, "unexpected argument 'stray'"));
	}
}

/* -h asks for help unless the table gives it a meaning; -? always does. */
static void help_short(void **state)
{
	static const struct opt_desc host_table[] = {
		{ "host", OPT_STR, offsetof(struct cfg, name), 0, 0, "HOST", NULL, "host", 'h' },
		{ 0 }
	};
	char *h[] = { "-h", NULL }, *hv[] = { "-h", "db1", NULL }, *q[] = { "-?", NULL };
	char err[OPT_ERR_MAX];
	struct cfg c;

	(void)state;
	assert_int_equal(parse(&c, h, err), 1);
	assert_int_equal(parse(&c, q, err), 1);
	assert_int_equal(parse_with(host_table, &c, hv, err), 0);
	assert_string_equal(c.name, "db1");
	assert_int_equal(parse_with(host_table, &c, q, err), 1);
}

/* The words of S, each once separated by one space. */
static void squeeze(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (*s != ' ' && *s != '\n')
			out[n++] = *s;
		else if (n && out[n - 1] != ' ')
			out[n++] = ' ';
	out[n] = '\0';
}

static size_t longest_line(const char *s)
{
	size_t best = 0;

	for (const char *l = s; *l;) {
		size_t n = strcspn(l, "\n");

		best = n > best ? n : best;
		l += n + (l[n] == '\n');
	}
	return best;
}

/* --help wrapped to the width asked, every word kept, in order. */
static void usage_wrapped(void **state)
{
	static const char usage[] = "eicbench thing [--rows N] [--a-long-option-name VALUE] [--flag] [--another-long-one X] FILE\n"
				    "       eicbench thing --other";
	static const struct opt_desc long_table[] = {
		{ "rows", OPT_INT, offsetof(struct cfg, rows), 1, 1000, "N", "a default that is long as well",
		  "how many rows the thing makes, which is a sentence long enough to need two lines or three at eighty columns" },
		{ "a-very-long-option-name-indeed", OPT_STR, offsetof(struct cfg, name), 0, 0, "VALUE", NULL,
		  "an option wider than its column" },
		{ "flag", OPT_FLAG, offsetof(struct cfg, flag), 0, 0, NULL, NULL, "short" },
		{ 0 }
	};
	char buf[3][8192], flat[2][8192];
	int widths[3] = { 80, 120, 60 };

	(void)state;
	for (int i = 0; i < 3; i++) {
		FILE *f = fmemopen(buf[i], sizeof(buf[i]) - 1, "w");

		assert_non_null(f);
		memset(buf[i], 0, sizeof(buf[i]));
		opts_usage_width(f, usage, long_table, widths[i]);
		fclose(f);
		if (longest_line(buf[i]) > (size_t)widths[i])
			fail_msg("a line of %zu columns at width %d:\n%s", longest_line(buf[i]), widths[i], buf[i]);
	}
	assert_true(longest_line(buf[1]) > 80);		/* the width is used, not 80 */
	squeeze(buf[0], flat[0], sizeof(flat[0]));
	squeeze(buf[1], flat[1], sizeof(flat[1]));
	assert_string_equal(flat[0], flat[1]);		/* the same words, in order */
	assert_non_null(strstr(flat[0], "need two lines or three at eighty columns (default a default that is long as well)"));
	assert_non_null(strstr(buf[0], "\n  --flag                     short\n"));
	assert_non_null(strstr(buf[0], "\n       eicbench thing --other\n"));
	/* a FILE that is no terminal gets 80 columns */
	{
		FILE *f = fmemopen(buf[2], sizeof(buf[2]), "w");

		assert_int_equal(opts_width(f), 80);
		fclose(f);
	}
}

static void aliases(void **state)
{
	static const struct opt_desc alias_table[] = {
		{ "depth", OPT_INT, offsetof(struct cfg, rows), 1, 64, "N", NULL, "reads in flight", .alias = "depths" },
		{ 0 }
	};
	char *a1[] = { "--depths", "4", NULL }, *a2[] = { "--depths=8", NULL }, *a3[] = { "--depths", "04", NULL };
	char *a4[] = { "--dept", "4", NULL };
	char err[OPT_ERR_MAX], buf[1024] = "";
	struct cfg c;
	FILE *f;

	(void)state;
	assert_int_equal(parse_with(alias_table, &c, a1, err), 0);
	assert_int_equal(c.rows, 4);
	assert_int_equal(parse_with(alias_table, &c, a2, err), 0);
	assert_int_equal(c.rows, 8);
	assert_int_equal(parse_with(alias_table, &c, a3, err), -EINVAL);
	assert_string_equal(err, "--depth: '04' is not written plainly; give 4");
	assert_int_equal(parse_with(alias_table, &c, a4, err), -EINVAL);	/* no prefixes */
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	opts_usage_width(f, "x", alias_table, 80);
	fclose(f);
	assert_non_null(strstr(buf, "  --depth N                  reads in flight (also --depths)\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_values),
		cmocka_unit_test(edges),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(help),
		cmocka_unit_test(short_aliases),
		cmocka_unit_test(short_errors),
		cmocka_unit_test(short_usage),
		cmocka_unit_test(lists),
		cmocka_unit_test(sizes_and_seconds),
		cmocka_unit_test(decimals),
		cmocka_unit_test(bounds_named),
		cmocka_unit_test(escaping),
		cmocka_unit_test(paths_checked),
		cmocka_unit_test(any_order),
		cmocka_unit_test(double_dash),
		cmocka_unit_test(help_short),
		cmocka_unit_test(usage_wrapped),
		cmocka_unit_test(aliases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
