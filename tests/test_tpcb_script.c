/*
 * test_tpcb_script: pgbench's built-in statements as loaded from sql/tpcb/,
 * their $n numbering and simple-protocol rendering, and the parameter
 * draws: ranges at several scales, reproducibility per seed, and
 * uniformity by a chi-square test on a large seeded sample.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/tpcb/tpcb_script.h"

static void load(enum tpcb_builtin b, struct tpcb_script *s)
{
	char err[256];

	assert_int_equal(tpcb_script_load(b, s, err, sizeof(err)), 0);
}

static void tpcb_like_statements(void **state)
{
	struct tpcb_script s;

	(void)state;
	load(TPCB_TPCB_LIKE, &s);
	assert_int_equal(s.nstmts, 7);
	assert_string_equal(s.stmt[0].text, "BEGIN;");
	assert_string_equal(s.stmt[1].text,
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;");
	assert_string_equal(s.stmt[1].param_sql,
		"UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;");
	assert_int_equal(s.stmt[1].nparams, 2);
	assert_string_equal(s.stmt[2].text, "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;");
	assert_string_equal(s.stmt[3].text,
		"UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;");
	assert_string_equal(s.stmt[4].text,
		"UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;");
	assert_string_equal(s.stmt[5].param_sql,
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);");
	assert_int_equal(s.stmt[5].nparams, 4);
	assert_int_equal(s.stmt[6].nparams, 0);
	assert_string_equal(s.stmt[6].text, "END;");
	assert_int_equal(s.draws, 0xf);
}

static void other_builtins(void **state)
{
	struct tpcb_script s;

	(void)state;
	load(TPCB_SIMPLE_UPDATE, &s);
	assert_int_equal(s.nstmts, 5);
	assert_null(strstr(s.stmt[2].text, "tellers"));
	assert_non_null(strstr(s.stmt[3].text, "INSERT INTO pgbench_history"));
	assert_int_equal(s.draws, 0xf);	/* tid and bid still go into history */
	load(TPCB_SELECT_ONLY, &s);
	assert_int_equal(s.nstmts, 1);
	assert_string_equal(s.stmt[0].param_sql, "SELECT abalance FROM pgbench_accounts WHERE aid = $1;");
	assert_int_equal(s.draws, 1u << TPCB_AID);
}

static void render_and_values(void **state)
{
	struct tpcb_script s;
	struct tpcb_params p = { .v = { 77, 2, 15, -4321 } };
	const char *vals[TPCB_NVARS];
	char buf[512], tiny[20];

	(void)state;
	load(TPCB_TPCB_LIKE, &s);
	for (int v = 0; v < TPCB_NVARS; v++)
		tpcb_format_int(p.v[v], p.txt[v]);
	assert_int_equal(tpcb_stmt_render(&s.stmt[1], &p, buf, sizeof(buf)),
			 (int)strlen("UPDATE pgbench_accounts SET abalance = abalance + -4321 WHERE aid = 77;"));
	assert_string_equal(buf, "UPDATE pgbench_accounts SET abalance = abalance + -4321 WHERE aid = 77;");
	tpcb_stmt_render(&s.stmt[5], &p, buf, sizeof(buf));
	assert_string_equal(buf, "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (15, 2, 77, -4321, CURRENT_TIMESTAMP);");
	tpcb_stmt_render(&s.stmt[0], &p, buf, sizeof(buf));
	assert_string_equal(buf, "BEGIN;");
	assert_int_equal(tpcb_stmt_render(&s.stmt[1], &p, tiny, sizeof(tiny)), -1);
	tpcb_stmt_values(&s.stmt[5], &p, vals);
	assert_string_equal(vals[0], "15");
	assert_string_equal(vals[1], "2");
	assert_string_equal(vals[2], "77");
	assert_string_equal(vals[3], "-4321");
}

static void format_int(void **state)
{
	static const struct { int64_t v; const char *s; } cases[] = {
		{ 0, "0" }, { 7, "7" }, { -5000, "-5000" }, { 100000, "100000" },
		{ INT64_MAX, "9223372036854775807" }, { INT64_MIN, "-9223372036854775808" },
	};
	char buf[TPCB_NUM_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(tpcb_format_int(cases[i].v, buf), (int)strlen(cases[i].s));
		assert_string_equal(buf, cases[i].s);
	}
}

/* Every draw in range at SCALE; with EXTREMES, bid, tid and delta reach both ends. */
static void ranges_at(long long scale, bool extremes)
{
	struct tpcb_script s;
	struct tpcb_params p;
	struct rng r;
	int64_t lo[TPCB_NVARS] = { INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX };
	int64_t hi[TPCB_NVARS] = { INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN };
	char txt[TPCB_NUM_MAX];

	load(TPCB_TPCB_LIKE, &s);
	rng_seed(&r, (uint64_t)scale);
	for (int i = 0; i < 200000; i++) {
		tpcb_draw(&r, &s, scale, &p);
		for (int v = 0; v < TPCB_NVARS; v++) {
			lo[v] = p.v[v] < lo[v] ? p.v[v] : lo[v];
			hi[v] = p.v[v] > hi[v] ? p.v[v] : hi[v];
		}
		tpcb_format_int(p.v[TPCB_AID], txt);
		assert_string_equal(txt, p.txt[TPCB_AID]);
	}
	assert_true(lo[TPCB_AID] >= 1 && hi[TPCB_AID] <= 100000 * scale);
	assert_true(lo[TPCB_BID] >= 1 && hi[TPCB_BID] <= scale);
	assert_true(lo[TPCB_TID] >= 1 && hi[TPCB_TID] <= 10 * scale);
	if (!extremes) {
		assert_true(hi[TPCB_AID] > INT32_MAX / 2);
		return;
	}
	assert_int_equal(lo[TPCB_BID], 1);
	assert_int_equal(hi[TPCB_BID], scale);
	assert_int_equal(lo[TPCB_TID], 1);
	assert_int_equal(hi[TPCB_TID], 10 * scale);
	assert_int_equal(lo[TPCB_DELTA], -5000);
	assert_int_equal(hi[TPCB_DELTA], 5000);
}

static void draw_ranges(void **state)
{
	(void)state;
	ranges_at(1, true);
	ranges_at(3, true);
	ranges_at(25000, false);	/* aid up to 2.5e9: bigint territory */
}

static void draw_reproducible(void **state)
{
	struct tpcb_script s;
	struct tpcb_params a, b;
	struct rng r1, r2, r3;
	int same = 0;

	(void)state;
	load(TPCB_SELECT_ONLY, &s);
	rng_seed(&r1, 42);
	rng_seed(&r2, 42);
	rng_seed(&r3, 43);
	for (int i = 0; i < 1000; i++) {
		tpcb_draw(&r1, &s, 10, &a);
		tpcb_draw(&r2, &s, 10, &b);
		assert_int_equal(a.v[TPCB_AID], b.v[TPCB_AID]);
		assert_int_equal(a.v[TPCB_BID], 0);	/* select-only draws aid alone */
		tpcb_draw(&r3, &s, 10, &b);
		same += a.v[TPCB_AID] == b.v[TPCB_AID];
	}
	assert_true(same < 5);
}

/*
 * Chi-square of N draws of variable V at SCALE over BINS equal-width bins of
 * its range; compared with the 0.1% critical value for BINS - 1 degrees of
 * freedom (Wilson-Hilferty), so a uniform draw fails with p < 0.001 while
 * a fixed seed keeps the test deterministic.
 */
static void chi_square(enum tpcb_var v, long long scale, int64_t lo, int64_t n_values,
		       int bins, int n)
{
	struct tpcb_script s;
	struct tpcb_params p;
	struct rng r;
	uint64_t count[200] = { 0 };
	double chi = 0, k = bins - 1, z = 3.090, crit;

	load(TPCB_TPCB_LIKE, &s);
	rng_seed(&r, 20240601 + (uint64_t)v);
	for (int i = 0; i < n; i++) {
		tpcb_draw(&r, &s, scale, &p);
		count[(p.v[v] - lo) * bins / n_values]++;
	}
	for (int b = 0; b < bins; b++) {
		/* values in bin b: those x with floor(x * bins / n_values) == b */
		int64_t first = (b * n_values + bins - 1) / bins;
		int64_t next = ((b + 1) * n_values + bins - 1) / bins;
		double expect = (double)n * (double)(next - first) / (double)n_values;

		chi += ((double)count[b] - expect) * ((double)count[b] - expect) / expect;
	}
	crit = k * pow(1 - 2 / (9 * k) + z * sqrt(2 / (9 * k)), 3);
	if (chi > crit)
		fail_msg("variable %d: chi-square %.1f above %.1f", v, chi, crit);
}

static void draw_uniform(void **state)
{
	(void)state;
	chi_square(TPCB_AID, 1, 1, 100000, 100, 1000000);
	chi_square(TPCB_AID, 7, 1, 700000, 140, 1000000);
	chi_square(TPCB_BID, 50, 1, 50, 50, 500000);
	chi_square(TPCB_TID, 10, 1, 100, 100, 500000);
	chi_square(TPCB_DELTA, 1, -5000, 10001, 101, 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tpcb_like_statements),
		cmocka_unit_test(other_builtins),
		cmocka_unit_test(render_and_values),
		cmocka_unit_test(format_int),
		cmocka_unit_test(draw_ranges),
		cmocka_unit_test(draw_reproducible),
		cmocka_unit_test(draw_uniform),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
