/*
 * test_tpcb_script: scripts cut and compiled as pgbench reads them: the
 * builtins from sql/tpcb/ (their \set lines and statements), SQL commands
 * ended by ';' outside quotes, comments and parentheses or by a backslash,
 * "\;" compounds, :variables as $n in order of occurrence and as segments
 * for the simple protocol (a "::" cast is none), \gset joined to its SQL,
 * conditionals' jumps, \sleep's units, weights, -D, and the bad input:
 * each refusal with pgbench's message and the file, line and column.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench/tpcb/tpcb_script.h"

static struct tpcb_scripts set;
static char err[2048];

static int fresh(void **state)
{
	(void)state;
	tpcb_scripts_init(&set);
	err[0] = '\0';
	return 0;
}

static int release(void **state)
{
	(void)state;
	tpcb_scripts_free(&set);
	return 0;
}

static const struct tpcb_script *add(const char *text)
{
	if (tpcb_scripts_add_text(&set, "t.sql", text, 1, err, sizeof(err)) < 0)
		fail_msg("'%s' refused: %s", text, err);
	return &set.s[set.n - 1];
}

static void tpcb_like(void **state)
{
	const struct tpcb_script *s;

	(void)state;
	assert_int_equal(tpcb_scripts_add_builtin(&set, TPCB_TPCB_LIKE, 1, err, sizeof(err)), 0);
	s = &set.s[0];
	assert_string_equal(s->name, "<builtin: TPC-B (sort of)>");
	assert_string_equal(s->builtin, "tpcb-like");
	assert_int_equal(s->ncmds, 11);
	assert_int_equal(s->cmd[0].kind, TPCB_SET);
	assert_string_equal(s->cmd[0].text, "\\set aid random(1, 100000 * :scale)");
	assert_string_equal(set.names[s->cmd[0].slot], "aid");
	assert_int_equal(s->cmd[4].kind, TPCB_SQL);
	assert_string_equal(s->cmd[4].text, "BEGIN;");
	assert_string_equal(s->cmd[5].param_sql,
			    "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;");
	assert_int_equal(s->cmd[9].nparams, 4);
	assert_string_equal(s->cmd[9].param_sql,
			    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);");
	assert_string_equal(s->cmd[10].text, "END;");
	assert_int_equal(s->cmd[5].line, 6);	/* lines of the script's text (the file's comment left out) */
	assert_false(s->waits);
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), 0);
	assert_true(set.builtin_used);
	/* the text --show-script prints has no comment of the file's */
	assert_int_equal(strncmp(tpcb_builtin_text(TPCB_SELECT_ONLY), "\\set aid", 8), 0);
}

static void sql_cutting(void **state)
{
	const struct tpcb_script *s;

	(void)state;
	s = add("-- a comment\n  SELECT ';' AS a, $$;$$, \"x;\" -- not the end;\n FROM t;\n"
		"select (1;2); SELECT E'\\';' \\; SELECT 2;\n/* a; comment */ SELECT 3 \\gset p_\n"
		"SELECT $tag$ ; $tag$::text\n");
	assert_int_equal(s->ncmds, 5);
	assert_string_equal(s->cmd[0].text, "SELECT ';' AS a, $$;$$, \"x;\" -- not the end;\n FROM t;");
	assert_int_equal(s->cmd[0].line, 2);
	assert_string_equal(s->cmd[1].text, "select (1;2);");
	assert_string_equal(s->cmd[2].text, "SELECT E'\\';' ; SELECT 2;");
	assert_string_equal(s->cmd[3].text, "/* a; comment */ SELECT 3 ");
	assert_int_equal(s->cmd[3].gset, TPCB_GSET);
	assert_string_equal(s->cmd[3].prefix, "p_");
	assert_string_equal(s->cmd[4].text, "SELECT $tag$ ; $tag$::text\n");
	assert_true(s->waits);
	assert_true(set.any_gset);
}

static void variables(void **state)
{
	const struct tpcb_script *s;
	const struct tpcb_cmd *c;

	(void)state;
	s = add("SELECT :a, :a::int, ':b', :1x, a::c, :é;\n");
	c = &s->cmd[0];
	/* every occurrence its own $n, quotes not looked at, as pgbench */
	assert_string_equal(c->param_sql, "SELECT $1, $2::int, '$3', :1x, a::c, $4;");
	assert_int_equal(c->nparams, 4);
	assert_string_equal(set.names[c->param_slot[0]], "a");
	assert_int_equal(c->param_slot[0], c->param_slot[1]);
	assert_string_equal(set.names[c->param_slot[2]], "b");
	assert_string_equal(set.names[c->param_slot[3]], "é");
	/* segments: literal runs and variables with their ":name" */
	assert_int_equal(c->nsegs, 9);
	assert_int_equal(c->seg[0].slot, -1);
	assert_int_equal(c->seg[1].slot, c->param_slot[0]);
	assert_int_equal(strncmp(c->text + c->seg[1].off, ":a", c->seg[1].len), 0);
}

static void conditionals(void **state)
{
	const struct tpcb_script *s;

	(void)state;
	s = add("\\if :client_id = 0\nSELECT 1;\n\\elif :client_id = 1\nSELECT 2;\n"
		"\\else\n\\if true\n\\endif\nSELECT 3;\n\\endif\nSELECT 4;\n");
	assert_int_equal(s->cmd[0].kind, TPCB_IF);
	assert_int_equal(s->cmd[0].jump, 2);	/* false: to the \elif */
	assert_int_equal(s->cmd[2].jump, 4);	/* false: to the \else */
	assert_int_equal(s->cmd[2].end, 8);	/* after a branch ran: to \endif */
	assert_int_equal(s->cmd[4].end, 8);
	assert_int_equal(s->cmd[5].jump, 6);	/* the inner \if's \endif */
	assert_int_equal(s->cmd[8].kind, TPCB_ENDIF);
}

static void sleeps(void **state)
{
	const struct tpcb_script *s;

	(void)state;
	s = add("\\sleep 10ms\n\\sleep 3\n\\sleep 250 us\n\\sleep :t s\n\\set t 1\n");
	assert_int_equal(s->cmd[0].amount * s->cmd[0].unit_us, 10000);
	assert_int_equal(s->cmd[1].amount * s->cmd[1].unit_us, 3000000);
	assert_int_equal(s->cmd[2].amount * s->cmd[2].unit_us, 250);
	assert_int_equal(s->cmd[3].unit_us, 1000000);
	assert_string_equal(set.names[s->cmd[3].sleep_slot], "t");
	assert_true(s->waits);
	/* the longest that fits, and a negative one (no sleep when run) */
	s = add("\\sleep 9223372036854775 us\n\\sleep -5\n\\sleep -99999999999999999999 ms\n");
	assert_int_equal(s->cmd[0].amount, 9223372036854775LL);
	assert_int_equal(s->cmd[1].amount, -5);
	assert_true(s->cmd[2].amount < 0);
}

static void weights_and_defines(void **state)
{
	char name[64];
	int w;

	(void)state;
	assert_int_equal(tpcb_script_weight("x.sql@7", name, sizeof(name), &w, err, sizeof(err)), 0);
	assert_string_equal(name, "x.sql");
	assert_int_equal(w, 7);
	assert_int_equal(tpcb_script_weight("a@b@2", name, sizeof(name), &w, err, sizeof(err)), 0);
	assert_string_equal(name, "a@b");
	assert_int_equal(tpcb_script_weight("plain", name, sizeof(name), &w, err, sizeof(err)), 0);
	assert_int_equal(w, 1);
	assert_int_equal(tpcb_script_weight("select-only@one", name, sizeof(name), &w, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "invalid weight specification: @one"));
	assert_int_equal(tpcb_script_weight("x@-1", name, sizeof(name), &w, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "weight specification out of range (0 .. 2147483647): -1"));
	assert_int_equal(tpcb_scripts_define(&set, "v=12", err, sizeof(err)), 0);
	assert_int_equal(tpcb_scripts_define(&set, "v=13", err, sizeof(err)), 0);
	assert_int_equal(set.ndefs, 1);
	assert_string_equal(set.defs[0].value, "13");
	assert_int_equal(tpcb_scripts_define(&set, "foobla", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "invalid variable definition: \"foobla\""));
	assert_int_equal(tpcb_scripts_define(&set, "1x=2", err, sizeof(err)), -EINVAL);
	assert_int_equal(tpcb_scripts_define(&set, "x=", err, sizeof(err)), -EINVAL);
	add("\\set y :v + 1\n");
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), 0);
}

/* Each refusal: text, then what its message must hold. */
static const struct {
	const char *text, *msg;
} refused[] = {
	{ "\\if 1\n", "t.sql:1: \\if without matching \\endif" },
	{ "\\elif 1\n", "t.sql:1: \\elif without matching \\if" },
	{ "\\else\n", "t.sql:1: \\else without matching \\if" },
	{ "\\endif\n", "t.sql:1: \\endif without matching \\if" },
	{ "\\if 1\n\\else\n\\elif 0\n\\endif\n", "t.sql:3: \\elif after \\else" },
	{ "\\if 1\n\\else\n\\else\n\\endif\n", "t.sql:3: \\else after \\else" },
	{ "\\if\n\\endif\n", "t.sql:1:4: syntax error in command \"if\"" },
	{ "\\if 0\n\\elif +\n\\endif\n", "t.sql:2:8: syntax error in command \"elif\"" },
	{ "\\if 0\n\\else BAD\n\\endif\n", "t.sql:2:7: unexpected argument in command \"else\"" },
	{ "\\if 0\n\\endif BAD\n", "t.sql:2:8: unexpected argument in command \"endif\"" },
	{ "\\set i least()\n", "at least one argument expected (least)" },
	{ "\\set i hash(1,2,3)\n", "unexpected number of arguments (hash)" },
	{ "\\set i 100000000000000000000\n", "bigint constant overflow" },
	{ "\\set d .1E310\n", "double constant overflow" },
	{ "SELECT 1;\n\\set i 1 +\n", "t.sql:2:11: syntax error in command \"set\"\n\\set i 1 +\n          ^ error found here" },
	{ "\\set i permute(1)\n", "unexpected number of arguments (permute)" },
	{ "\\set\n", "t.sql:1:1: missing argument in command \"set\"" },
	{ "\\set 9x 1\n", "t.sql:1:6: invalid variable name: \"9x\"" },
	{ "\\sleep\n", "missing argument in command \"sleep\"" },
	{ "\\sleep 1 ms x\n", "too many arguments in command \"sleep\"" },
	{ "\\sleep 1 hours\n", "unrecognized time unit, must be us, ms or s (hours)" },
	{ "\\sleep x\n", "invalid sleep time, must be an integer (x)" },
	{ "SELECT 1;\n\\sleep 99999999999999999999\n", "t.sql:2:8: sleep time out of range, at most 9223372036854775 us (99999999999999999999) in command \"sleep\"" },
	{ "\\sleep 9223372036854776 us\n", "t.sql:1:8: sleep time out of range" },
	{ "\\sleep 9223372036855 ms\n", "t.sql:1:8: sleep time out of range" },
	{ "\\gset\n", "t.sql:1:1: \\gset must follow an SQL command" },
	{ "SELECT 1 \\gset a b\n", "too many arguments in command \"gset\"" },
	{ "SELECT 1 \\gset\n\\aset\n", "\\aset must follow an SQL command" },
	{ "\\frobnicate\n", "t.sql:1:1: invalid command in command \"frobnicate\"" },
	{ "\\shell ls\n", "\\shell is not supported by eicbench" },
	{ "\\startpipeline\n\\startpipeline\n", "already in pipeline mode" },
	{ "\\endpipeline\n", "\\endpipeline: not in pipeline mode" },
	{ "\\startpipeline\nSELECT 1 \\gset\n\\endpipeline\n", "\\gset is not allowed in pipeline mode" },
	{ "\\startpipeline\nSELECT 1;\n", "end of script reached with pipeline open" },
	{ "-- only a comment\n", "empty command list for script \"t.sql\"" },
	{ "", "empty command list for script \"t.sql\"" },
};

static void refusals(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct tpcb_scripts one;
		char why[2048] = "";

		tpcb_scripts_init(&one);
		if (tpcb_scripts_add_text(&one, "t.sql", refused[i].text, 1, why, sizeof(why)) != -EINVAL)
			fail_msg("'%s' accepted", refused[i].text);
		if (!strstr(why, refused[i].msg))
			fail_msg("'%s': '%s' lacks '%s'", refused[i].text, why, refused[i].msg);
		tpcb_scripts_free(&one);
	}
}

/* A variable read that nothing can set: refused with its place. */
static void unknown_variable(void **state)
{
	(void)state;
	add("SELECT 1;\n\\set y 2 * :nowhere\n");
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.sql:2:12: undefined variable \"nowhere\""));
	assert_non_null(strstr(err, "\n\\set y 2 * :nowhere\n           ^"));
}

/* With a \gset anywhere, any name may be set at run time: no refusal. */
static void gset_may_set(void **state)
{
	(void)state;
	add("SELECT 1 AS one \\gset\n\\set y :one + :elsewhere\n");
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), 0);
}

static void whole_set(void **state)
{
	(void)state;
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), 0);	/* none: tpcb-like */
	assert_int_equal(set.n, 1);
	assert_string_equal(set.s[0].builtin, "tpcb-like");
	tpcb_scripts_free(&set);
	tpcb_scripts_init(&set);
	for (int i = 0; i < 3; i++)
		assert_int_equal(tpcb_scripts_add_builtin(&set, (enum tpcb_builtin)i, 0, err, sizeof(err)), 0);
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "total script weight must not be zero"));
	tpcb_scripts_free(&set);
	tpcb_scripts_init(&set);
	for (int i = 0; i < TPCB_MAX_SCRIPTS; i++)
		assert_int_equal(tpcb_scripts_add_builtin(&set, TPCB_SELECT_ONLY, 1, err, sizeof(err)), 0);
	assert_int_equal(tpcb_scripts_add_builtin(&set, TPCB_SELECT_ONLY, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at most 128 SQL scripts are allowed"));
	assert_int_equal(set.ncmds, 2 * TPCB_MAX_SCRIPTS);
	assert_int_equal(set.s[5].first, 10);
}

static void missing_file(void **state)
{
	(void)state;
	assert_int_equal(tpcb_scripts_add_file(&set, "/nonexistent/no-such-file.sql", 1, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "could not open file \"/nonexistent/no-such-file.sql\""));
}

#define T(f) cmocka_unit_test_setup_teardown(f, fresh, release)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(tpcb_like), T(sql_cutting), T(variables), T(conditionals), T(sleeps),
		T(weights_and_defines), T(refusals), T(unknown_variable), T(gset_may_set),
		T(whole_set), T(missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
