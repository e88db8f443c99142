/*
 * test_tpcb_expr: pgbench's expression language through the hand-written
 * parser and the evaluator: precedence and associativity, integer and
 * double arithmetic, overflow and division errors, NULL and boolean logic,
 * IS, CASE, every function with its argument checks, the one constant
 * -9223372036854775808, variables read from text, and syntax errors with
 * the offset they are found at. Table-driven: text in, value or error out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/tpcb/tpcb_exprparse.h"

/* Variables of the tests: :x = 10, :d = 2.5 (text), :n unset, :s = "hello". */
static const char *const var_names[] = { "x", "d", "n", "s", "default_seed", "big" };

static int slot(void *arg, const char *name, size_t len)
{
	(void)arg;
	for (int i = 0; i < 6; i++)
		if (strlen(var_names[i]) == len && !strncmp(var_names[i], name, len))
			return i;
	return 2;	/* anything else: the unset one */
}

struct run {
	struct tpcb_exprs x;
	struct tpcb_var vars[6];
	struct tpcb_prng rng;
	struct tpcb_eval e;
	char err[256];
	FILE *debug;
};

static void setup_run(struct run *r)
{
	memset(r, 0, sizeof(*r));
	tpcb_var_set(&r->vars[0], tpcb_int(10));
	tpcb_var_set_text(&r->vars[1], "2.5", 3);
	tpcb_var_set_text(&r->vars[3], "hello", 5);
	tpcb_var_set(&r->vars[4], tpcb_int(12345));
	tpcb_var_set_text(&r->vars[5], "9223372036854775807", 19);
	tpcb_prng_seed(&r->rng, 42);
	r->debug = tmpfile();
	r->e = (struct tpcb_eval){ .vars = r->vars, .names = var_names, .rng = &r->rng,
		.debug = r->debug, .script = 0, .command = 1, .err = r->err, .errlen = sizeof(r->err) };
}

static void free_run(struct run *r)
{
	for (int i = 0; i < 6; i++)
		tpcb_var_free(&r->vars[i]);
	tpcb_exprs_free(&r->x);
	fclose(r->debug);
}

/* Parse and evaluate TEXT: 0 with *V, or the error's code with MSG filled. */
static int eval_text(const char *text, struct tpcb_value *v, char *msg, size_t len)
{
	struct run r;
	struct tpcb_parse_error pe;
	int root, ret;

	setup_run(&r);
	ret = tpcb_expr_parse(&r.x, text, strlen(text), slot, NULL, &root, &pe);
	if (ret < 0) {
		snprintf(msg, len, "parse@%zu: %s", pe.offset, pe.msg);
	} else {
		ret = tpcb_eval(&r.x, root, &r.e, v);
		if (ret < 0)
			snprintf(msg, len, "eval: %s", r.err);
	}
	free_run(&r);
	return ret;
}

static const struct {
	const char *text;
	enum tpcb_vtype type;
	int64_t i;
	double d;
} good[] = {
	{ "1 + 2 * 3", TPCB_INT, 7 },
	{ "(1 + 2) * 3", TPCB_INT, 9 },
	{ "10 - 3 - 2", TPCB_INT, 5 },
	{ "100 / 7 / 2", TPCB_INT, 7 },
	{ "-7 / 2", TPCB_INT, -3 },
	{ "-7 % 3", TPCB_INT, -1 },
	{ "7 % -1", TPCB_INT, 0 },
	{ "-9223372036854775808 / -1 * 0 + 1", TPCB_NONE },	/* an error: below */
	{ "- 2 * 3", TPCB_INT, -6 },
	{ "+5", TPCB_INT, 5 },
	{ "~0", TPCB_INT, -1 },
	{ "~1 | 2", TPCB_INT, -2 },
	{ "~1 + 2", TPCB_INT, -4 },
	{ "1 << 4 >> 2", TPCB_INT, 4 },
	{ "6 & 3 # 1", TPCB_INT, 3 },
	{ "1.5 + 1", TPCB_DOUBLE, 0, 2.5 },
	{ "7 / 2.0", TPCB_DOUBLE, 0, 3.5 },
	{ "7.9 % 3", TPCB_INT, 2 },	/* % rounds doubles to integers */
	{ ".5e1", TPCB_DOUBLE, 0, 5.0 },
	{ "1.", TPCB_DOUBLE, 0, 1.0 },
	{ "2e3", TPCB_DOUBLE, 0, 2000.0 },
	{ "-9223372036854775808", TPCB_INT, INT64_MIN },
	{ "9223372036854775807", TPCB_INT, INT64_MAX },
	{ ":x * 2", TPCB_INT, 20 },
	{ ":d * 2", TPCB_DOUBLE, 0, 5.0 },
	{ ":big", TPCB_INT, INT64_MAX },
	{ "abs(-4) + ABS(-1.5)", TPCB_DOUBLE, 0, 5.5 },
	{ "least(3, 1, 2)", TPCB_INT, 1 },
	{ "greatest(3, 1.5, 2)", TPCB_DOUBLE, 0, 3.0 },
	{ "int(2.5) + int(3.5) + int(-2.5)", TPCB_INT, 4 },	/* rint: to even */
	{ "double(3) / 2", TPCB_DOUBLE, 0, 1.5 },
	{ "sqrt(16) + exp(0) + ln(1)", TPCB_DOUBLE, 0, 5.0 },
	{ "pow(2, 10) + power(2, 0)", TPCB_DOUBLE, 0, 1025.0 },
	{ "mod(17, 5)", TPCB_INT, 2 },
	{ "debug(5) + 1", TPCB_INT, 6 },
	{ "case when :x > 5 then 1 else 2 end", TPCB_INT, 1 },
	{ "CASE WHEN :x < 5 THEN 1 WHEN :x = 10 THEN 3 END", TPCB_INT, 3 },
	{ "case when false then 1 end is null", TPCB_BOOL, 1 },
	{ "1 < 2 and 2 <= 2 and 3 > 2 and 3 >= 3 and 1 <> 2 and 1 != 2 and 1 = 1", TPCB_BOOL, 1 },
	{ "not 1 = 2", TPCB_BOOL, 1 },
	{ "not true or true", TPCB_BOOL, 1 },
	{ "true and null", TPCB_NULL },
	{ "null and 1 / 0 = 1", TPCB_NULL },	/* the right side is never evaluated */
	{ "false and 1 / 0 = 1", TPCB_BOOL, 0 },
	{ "true or 1 / 0 = 1", TPCB_BOOL, 1 },
	{ "null + 1", TPCB_NULL },
	{ "null is null and 1 is not null and (1 = 1) is true and false is not true", TPCB_BOOL, 1 },
	{ "null isnull and 1 notnull", TPCB_BOOL, 1 },
	{ "1 = 1 is true", TPCB_BOOL, 1 },
	{ "pi() > 3.14159 and pi() < 3.1416", TPCB_BOOL, 1 },
	{ "hash(10) = hash_murmur2(10, :default_seed)", TPCB_BOOL, 1 },
	{ "hash_fnv1a(0, 0)", TPCB_INT, INT64_C(-6284781860667377211) },
	{ "permute(0, 1)", TPCB_INT, 0 },
	{ "permute(5, 10) = permute(5, 10, :default_seed)", TPCB_BOOL, 1 },
	{ "random(5, 5)", TPCB_INT, 5 },
};

static void values(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct tpcb_value v = { 0 };
		char msg[600] = "";
		int ret = eval_text(good[i].text, &v, msg, sizeof(msg));

		if (good[i].type == TPCB_NONE) {
			if (ret == 0)
				fail_msg("'%s' should fail", good[i].text);
			continue;
		}
		if (ret < 0)
			fail_msg("'%s': %s", good[i].text, msg);
		if (v.type != good[i].type)
			fail_msg("'%s': type %s, wanted %s", good[i].text, tpcb_type_name(v.type),
				 tpcb_type_name(good[i].type));
		if (v.type == TPCB_INT && v.u.i != good[i].i)
			fail_msg("'%s' = %lld, wanted %lld", good[i].text, (long long)v.u.i, (long long)good[i].i);
		if (v.type == TPCB_DOUBLE && fabs(v.u.d - good[i].d) > 1e-9)
			fail_msg("'%s' = %g, wanted %g", good[i].text, v.u.d, good[i].d);
		if (v.type == TPCB_BOOL && v.u.b != (good[i].i != 0))
			fail_msg("'%s' = %d, wanted %d", good[i].text, v.u.b, (int)good[i].i);
	}
}

static const struct {
	const char *text;
	const char *msg;               /* the start of what it says */
} bad[] = {
	{ "1 +", "parse@3: syntax error" },
	{ "1 < 2 < 3", "parse@6: syntax error" },
	{ "1 = 1 = 1", "parse@6: syntax error" },
	{ "null is null is null", "parse@13: syntax error" },
	{ "(1 + 2", "parse@6: syntax error" },
	{ "1 2", "parse@2: syntax error" },
	{ "foo(1)", "parse@0: unexpected function name (foo)" },
	{ "abs", "parse@3: syntax error" },
	{ "least()", "parse@0: at least one argument expected (least)" },
	{ "greatest()", "parse@0: at least one argument expected (greatest)" },
	{ "hash()", "parse@0: unexpected number of arguments (hash)" },
	{ "hash(1, 2, 3)", "parse@0: unexpected number of arguments (hash)" },
	{ "permute(1)", "parse@0: unexpected number of arguments (permute)" },
	{ "permute(1, 2, 3, 4)", "parse@0: unexpected number of arguments (permute)" },
	{ "random(1)", "parse@0: unexpected number of arguments (random)" },
	{ "100000000000000000000", "parse@0: bigint constant overflow" },
	{ "1.0E309", "parse@0: double constant overflow" },
	{ ".1E310", "parse@0: double constant overflow" },
	{ "9223372036854775808", "parse@0: syntax error" },
	{ "1 $ 2", "parse@2: unexpected character ($)" },
	{ "case 1 end", "parse@5: syntax error" },
	{ ":", "parse@0: unexpected character (:)" },
	{ "1 / 0", "eval: division by zero" },
	{ "1 % 0", "eval: division by zero" },
	{ "-9223372036854775808 / -1", "eval: bigint div out of range" },
	{ "9223372036854775807 + 1", "eval: bigint add out of range" },
	{ "-9223372036854775808 - 1", "eval: bigint sub out of range" },
	{ "9223372036854775807 * 2", "eval: bigint mul out of range" },
	{ "int(1e30)", "eval: double to int overflow" },
	{ "not 1", "eval: cannot coerce int to boolean" },
	{ "1 and true", "eval: cannot coerce int to boolean" },
	{ "true + 1", "eval: cannot coerce boolean to int" },
	{ "sqrt(true)", "eval: cannot coerce boolean to double" },
	{ ":n + 1", "eval: undefined variable \"n\"" },
	{ ":s + 1", "eval: malformed variable \"s\" value: \"hello\"" },
	{ "random(2, 1)", "eval: empty range given to random" },
	{ "random(-9223372036854775808, 9223372036854775807)", "eval: random range is too large" },
	{ "random_gaussian(1, 10, 1.5)", "eval: gaussian parameter must be at least 2" },
	{ "random_exponential(1, 10, 0)", "eval: exponential parameter must be greater than zero" },
	{ "random_zipfian(1, 10, 1.0)", "eval: zipfian parameter must be in range [1.001, 1000]" },
	{ "permute(1, 0)", "eval: permute size parameter must be greater than zero" },
};

static void errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tpcb_value v;
		char msg[600] = "";

		if (eval_text(bad[i].text, &v, msg, sizeof(msg)) == 0)
			fail_msg("'%s' should fail with '%s'", bad[i].text, bad[i].msg);
		if (strncmp(msg, bad[i].msg, strlen(bad[i].msg)))
			fail_msg("'%s': '%s', wanted '%s'", bad[i].text, msg, bad[i].msg);
	}
}

/* debug() writes pgbench's line and passes its value on. */
static void debug_line(void **state)
{
	struct run r;
	struct tpcb_parse_error pe;
	struct tpcb_value v;
	char line[128] = "";
	int root;

	(void)state;
	setup_run(&r);
	r.e.script = 2;
	r.e.command = 7;
	assert_int_equal(tpcb_expr_parse(&r.x, "debug(1.5) + debug(null is null) * 0 + debug(:x)", 48,
					 slot, NULL, &root, &pe), 0);
	assert_int_equal(tpcb_eval(&r.x, root, &r.e, &v), -EINVAL);	/* boolean * int */
	rewind(r.debug);
	assert_non_null(fgets(line, sizeof(line), r.debug));
	assert_string_equal(line, "debug(script=2,command=7): double 1.5\n");
	assert_non_null(fgets(line, sizeof(line), r.debug));
	assert_string_equal(line, "debug(script=2,command=7): boolean true\n");
	free_run(&r);
}

/* A nesting deeper than the bound is refused, not a stack overflow. */
static void deep(void **state)
{
	char text[2 * TPCB_EXPR_DEPTH_MAX + 16];
	struct tpcb_value v;
	char msg[600];
	int n = 0;

	(void)state;
	for (int i = 0; i < TPCB_EXPR_DEPTH_MAX + 5; i++)
		text[n++] = '(';
	text[n++] = '1';
	for (int i = 0; i < TPCB_EXPR_DEPTH_MAX + 5; i++)
		text[n++] = ')';
	text[n] = '\0';
	assert_int_equal(eval_text(text, &v, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "nested too deeply"));
}

/* Texts read as values the way pgbench reads them. */
static void text_values(void **state)
{
	static const struct { const char *s; enum tpcb_vtype t; int64_t i; } cases[] = {
		{ "42", TPCB_INT, 42 }, { " -7", TPCB_INT, -7 }, { "+3", TPCB_INT, 3 },
		{ "t", TPCB_BOOL, 1 }, { "YES", TPCB_BOOL, 1 }, { "on", TPCB_BOOL, 1 },
		{ "f", TPCB_BOOL, 0 }, { "n", TPCB_BOOL, 0 }, { "off", TPCB_BOOL, 0 }, { "of", TPCB_BOOL, 0 },
		{ "NULL", TPCB_NULL, 0 }, { "1.5", TPCB_DOUBLE, 0 }, { "1e3", TPCB_DOUBLE, 0 },
	};
	struct tpcb_value v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(tpcb_value_parse(cases[i].s, &v), 0);
		assert_int_equal(v.type, cases[i].t);
		if (v.type == TPCB_INT || v.type == TPCB_BOOL)
			assert_int_equal(v.type == TPCB_INT ? v.u.i : v.u.b, cases[i].i);
	}
	assert_int_equal(tpcb_value_parse("", &v), -EINVAL);
	assert_int_equal(tpcb_value_parse("o", &v), -EINVAL);	/* neither on nor off */
	assert_int_equal(tpcb_value_parse("99999999999999999999", &v), -EINVAL);
	assert_int_equal(tpcb_value_parse("12abc", &v), -EINVAL);
}

/* Values as SQL receives them. */
static void texts(void **state)
{
	char buf[TPCB_NUM_MAX];
	struct tpcb_value v;

	(void)state;
	v = tpcb_int(INT64_MIN);
	tpcb_value_text(&v, buf);
	assert_string_equal(buf, "-9223372036854775808");
	{
		static const int64_t ints[] = { 0, 7, 10, 99, 100, 101, 12345, -1, -10, INT64_MAX };

		for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
			char want[32];

			snprintf(want, sizeof(want), "%lld", (long long)ints[i]);
			assert_int_equal(tpcb_format_int(ints[i], buf), (int)strlen(want));
			assert_string_equal(buf, want);
		}
	}
	v = tpcb_double(1.0 / 3.0);
	tpcb_value_text(&v, buf);
	assert_string_equal(buf, "0.333333333333333");
	v = tpcb_bool(false);
	tpcb_value_text(&v, buf);
	assert_string_equal(buf, "false");
	v = tpcb_null();
	tpcb_value_text(&v, buf);
	assert_string_equal(buf, "NULL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values),
		cmocka_unit_test(errors),
		cmocka_unit_test(debug_line),
		cmocka_unit_test(deep),
		cmocka_unit_test(text_values),
		cmocka_unit_test(texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
