/*
 * test_sweep: grids from --eic/--set text, combinations, the per-round
 * shuffle (each round holds every combination once; the seed decides the
 * order), trial keys, and the plan's JSON round trip used by --resume.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "bench/sweep/sweep.h"

static const struct grid_case {
	const char *spec, *msg;   /* msg NULL: accepted */
	int nvalues;
} grid_cases[] = {
	{ "effective_io_concurrency=0,1,2,4,1000", NULL, 5 },
	{ "work_mem=4MB,64MB", NULL, 2 },
	{ "io_combine_limit=1", NULL, 1 },
	{ "effective_io_concurrency=1001", "--set effective_io_concurrency=1001: '1001' is not allowed; give a whole number from 0 to 1000", 0 },
	{ "effective_io_concurrency=-1", "'-1' is not allowed", 0 },
	{ "effective_io_concurrency=4x", "'4x' is not allowed", 0 },
	{ "effective_io_concurrency=", "an empty value", 0 },
	{ "effective_io_concurrency=1,,2", "an empty value", 0 },
	{ "work_mem", "give NAME=V1,V2", 0 },
	{ "Work_Mem=1", "give NAME=V1,V2", 0 },
	{ "=1", "give NAME=V1,V2", 0 },
	{ "effective_io_concurrency=1,16,1", "'1' is given twice", 0 },
	/* one value written two ways: plain numbers only for eic, the rest normalised */
	{ "effective_io_concurrency=1,01,+1", "--set effective_io_concurrency=1,01,+1: '01' is not written plainly; give 1", 0 },
	{ "effective_io_concurrency=4, 8", "' 8' is not written plainly; give 8", 0 },
	{ "work_mem=4MB,4096kB", "--set work_mem=4MB,4096kB: '4MB' and '4096kB' are the same value; give each value once", 0 },
	{ "work_mem=1GB,1024 MB", "'1GB' and '1024 MB' are the same value", 0 },
	{ "io_combine_limit=16,016", "--set io_combine_limit=16,016: '016' is 14 to an integer setting (a leading 0 is octal) and 16 to a real one", 0 },
	{ "io_combine_limit=16,0x10", "'16' and '0x10' are the same value", 0 },
	{ "work_mem=8MB,010MB", "'8MB' and '010MB' are the same value", 0 },
	{ "work_mem=10MB,010MB", NULL, 2 },
	{ "work_mem=1.5kB,1536B", "'1.5kB' and '1536B' are the same value", 0 },
	{ "work_mem=64MB,64mb", NULL, 2 },	/* the server refuses 64mb itself */
	{ "effective_io_concurrency=4,010", "--set effective_io_concurrency=4,010: '010' is not written plainly; the server reads it as 8 (a leading 0 is octal): give 8", 0 },
	{ "effective_io_concurrency=0x10", "'0x10' is not written plainly; give 16", 0 },
	{ "effective_io_concurrency=1.5", "'1.5' is not allowed; give a whole number from 0 to 1000", 0 },
	{ "effective_io_concurrency=1e1", "'1e1' is not written plainly; give 10", 0 },
	{ "io_combine_limit=+16,16", "'+16' and '16' are the same value", 0 },
	{ "random_page_cost=1.1,1.10", "'1.1' and '1.10' are the same value", 0 },
	{ "random_page_cost=0,-0", "'0' and '-0' are the same value", 0 },
	{ "checkpoint_timeout=5min,300s", "'5min' and '300s' are the same value", 0 },
	{ "commit_delay=1000us,1ms", "'1000us' and '1ms' are the same value", 0 },
	{ "fsync=on,true", "'on' and 'true' are the same value", 0 },
	{ "fsync=off,No", "'off' and 'No' are the same value", 0 },
	{ "wal_sync_method=fsync,FSYNC", "'fsync' and 'FSYNC' are the same value", 0 },
	{ "work_mem=4MB,4MB", "'4MB' is given twice", 0 },
	{ "work_mem=4MB\n,8MB", "--set: 'work_mem=4MB\\n,8MB' holds a control character", 0 },
	/* alike only in look: kept */
	{ "work_mem=4MB,4GB,4096", NULL, 3 },
	{ "fsync=on,off", NULL, 2 },
	{ "random_page_cost=1.1,1.01,0x11,16", NULL, 4 },
	{ "random_page_cost=0x10,16", "'0x10' and '16' are the same value", 0 },
	{ "commit_delay=1ms,1s,1min", NULL, 3 },
};

static void grids(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(grid_cases) / sizeof(grid_cases[0]); i++) {
		struct sweep_grid g = { 0 };
		char err[256] = "";
		int ret = sweep_grid_add(&g, grid_cases[i].spec, err, sizeof(err));

		if (!grid_cases[i].msg) {
			assert_int_equal(ret, 0);
			assert_int_equal(g.s[0].nvalues, grid_cases[i].nvalues);
		} else {
			assert_int_equal(ret, -EINVAL);
			if (!strstr(err, grid_cases[i].msg))
				fail_msg("%s: '%s' lacks '%s'", grid_cases[i].spec, err, grid_cases[i].msg);
		}
	}
}

static void twice(void **state)
{
	struct sweep_grid g = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(sweep_grid_add(&g, "work_mem=1MB", err, sizeof(err)), 0);
	assert_int_equal(sweep_grid_add(&g, "work_mem=2MB", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "already being varied"));
}

/* --eic's own list: messages name --eic and the list. */
static void eic_list(void **state)
{
	struct sweep_grid g = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(sweep_grid_add_eic(&g, "4,04", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--eic 4,04: '04' is not written plainly; give 4");
	assert_int_equal(sweep_grid_add_eic(&g, "4,16,4", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--eic 4,16,4: '4' is given twice; give each value once");
	assert_int_equal(sweep_grid_add_eic(&g, "2000", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--eic 2000: '2000' is not allowed; give a whole number from 0 to 1000");
	assert_int_equal(sweep_grid_add_eic(&g, "1\t2", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--eic: '1\\t2' holds a control character"));
	assert_int_equal(g.nsettings, 0);
	assert_int_equal(sweep_grid_add_eic(&g, "0,1,1000", err, sizeof(err)), 0);
	assert_int_equal(g.s[0].nvalues, 3);
	assert_int_equal(sweep_grid_add_eic(&g, "2", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "already being varied"));
}

static void make_plan(struct sweep_plan *p, int runs, uint64_t seed)
{
	struct sweep_grid g = { 0 };
	char err[256];

	assert_int_equal(sweep_grid_add(&g, "effective_io_concurrency=0,1,16", err, sizeof(err)), 0);
	assert_int_equal(sweep_grid_add(&g, "io_combine_limit=1,16", err, sizeof(err)), 0);
	assert_int_equal(sweep_plan_build(p, &g, runs, seed, err, sizeof(err)), 0);
}

static void combinations(void **state)
{
	struct sweep_plan p;

	(void)state;
	make_plan(&p, 1, 7);
	assert_int_equal(p.ncombos, 6);
	/* the first setting varies slowest */
	assert_string_equal(sweep_value(&p, 0, 0), "0");
	assert_string_equal(sweep_value(&p, 0, 1), "1");
	assert_string_equal(sweep_value(&p, 1, 1), "16");
	assert_string_equal(sweep_value(&p, 2, 0), "1");
	assert_string_equal(sweep_value(&p, 5, 0), "16");
	assert_string_equal(sweep_value(&p, 5, 1), "16");
	sweep_plan_free(&p);
}

/* Companions run in their round, once each, in an order of their own; the
 * plan's trials keep theirs; a companion is not bound to its trial's side. */
static void interleave(void **state)
{
	struct sweep_plan p;
	int *u, *again, next_q, adjacent = 0, comp_orders_differ = 0;

	(void)state;
	make_plan(&p, 20, 11);
	u = malloc(sizeof(int) * (size_t)(2 * p.ntrials));
	again = malloc(sizeof(int) * (size_t)(2 * p.ntrials));
	assert_int_equal(sweep_interleave(&p, u), 0);
	assert_int_equal(sweep_interleave(&p, again), 0);
	assert_memory_equal(u, again, sizeof(int) * (size_t)(2 * p.ntrials));
	next_q = 0;
	int *seen = calloc((size_t)(2 * p.ntrials), sizeof(int)), round = 1;

	for (int k = 0; k < 2 * p.ntrials; k++) {
		int i = u[k] % p.ntrials, slot = u[k] / p.ntrials;

		assert_in_range(u[k], 0, 2 * p.ntrials - 1);
		assert_int_equal(seen[u[k]]++, 0);
		assert_true(p.trials[i].round >= round);	/* rounds stay in order */
		round = p.trials[i].round;
		if (!slot)
			assert_int_equal(i, next_q++);	/* the plan's own order */
		else {
			if ((k > 0 && u[k - 1] == i) || (k + 1 < 2 * p.ntrials && u[k + 1] == i))
				adjacent++;
		}
	}
	for (int r = 0; r < 20; r++)	/* the companions' order is not the trials' */
		for (int c = 0; c < p.ncombos; c++) {
			int pos_q = -1, pos_c = -1;

			for (int k = 0; k < 2 * p.ntrials; k++) {
				if (u[k] == r * p.ncombos + c)
					pos_q = k;
				if (u[k] == p.ntrials + r * p.ncombos + c)
					pos_c = k;
			}
			comp_orders_differ += pos_c < pos_q;
		}
	/* beside its own trial about 2 times in 2m - 1 (m = 6 a round), not always */
	assert_true(adjacent > 0 && adjacent < p.ntrials / 2);
	assert_true(comp_orders_differ > p.ntrials / 4 && comp_orders_differ < 3 * p.ntrials / 4);
	free(seen);
	free(again);
	free(u);
	sweep_plan_free(&p);
}

static void rounds(void **state)
{
	struct sweep_plan p, same, other;
	int differs = 0;

	(void)state;
	make_plan(&p, 4, 42);
	make_plan(&same, 4, 42);
	make_plan(&other, 4, 43);
	assert_int_equal(p.ntrials, 24);
	for (int r = 0; r < 4; r++) {
		int seen[6] = { 0 };

		for (int c = 0; c < 6; c++) {
			const struct sweep_trial *t = &p.trials[r * 6 + c];

			assert_int_equal(t->round, r + 1);
			seen[t->combo]++;
		}
		for (int c = 0; c < 6; c++)
			assert_int_equal(seen[c], 1);
	}
	assert_true(sweep_plan_same(&p, &same));
	for (int t = 0; t < 24; t++)
		differs += p.trials[t].combo != other.trials[t].combo;
	assert_true(differs > 0);
	assert_false(sweep_plan_same(&p, &other));
	sweep_plan_free(&p);
	sweep_plan_free(&same);
	sweep_plan_free(&other);
}

static void keys(void **state)
{
	struct sweep_plan p;
	char want[128];

	(void)state;
	make_plan(&p, 2, 1);
	for (int t = 0; t < p.ntrials; t++) {
		snprintf(want, sizeof(want), "round=%d effective_io_concurrency=%s io_combine_limit=%s",
			 p.trials[t].round, sweep_value(&p, p.trials[t].combo, 0),
			 sweep_value(&p, p.trials[t].combo, 1));
		assert_string_equal(p.trials[t].key, want);
	}
	sweep_plan_free(&p);
}

static void json_round_trip(void **state)
{
	struct sweep_plan p, back;
	char err[256];
	json_t *j;

	(void)state;
	make_plan(&p, 3, 99);
	j = sweep_plan_json(&p);
	assert_int_equal(json_array_size(json_object_get(j, "trial_keys")), 18);
	assert_int_equal(sweep_plan_from_json(&back, j, err, sizeof(err)), 0);
	assert_true(sweep_plan_same(&p, &back));
	json_object_set_new(j, "runs", json_integer(2));
	sweep_plan_free(&back);
	assert_int_equal(sweep_plan_from_json(&back, j, err, sizeof(err)), 0);
	assert_false(sweep_plan_same(&p, &back));
	sweep_plan_free(&back);
	json_object_del(j, "grid");
	assert_int_equal(sweep_plan_from_json(&back, j, err, sizeof(err)), -EINVAL);
	json_decref(j);
	sweep_plan_free(&p);
}

static void limits(void **state)
{
	struct sweep_grid g = { 0 };
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_grid_add(&g, "effective_io_concurrency=1", err, sizeof(err)), 0);
	assert_int_equal(sweep_plan_build(&p, &g, 0, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "allowed are 1 to 100000"));
	/* 64^6 combinations must not overflow into a small count */
	for (int i = 0; i < SWEEP_MAX_SETTINGS - 1; i++) {
		char spec[512] = "", name[16];
		size_t used;

		snprintf(name, sizeof(name), "s%c", 'a' + i);
		used = (size_t)snprintf(spec, sizeof(spec), "%s=", name);
		for (int v = 0; v < 64; v++)
			used += (size_t)snprintf(spec + used, sizeof(spec) - used, "%s%d", v ? "," : "", v);
		assert_int_equal(sweep_grid_add(&g, spec, err, sizeof(err)), 0);
	}
	assert_int_equal(sweep_plan_build(&p, &g, 1, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "over 100000 trials"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grids),
		cmocka_unit_test(twice),
		cmocka_unit_test(eic_list),
		cmocka_unit_test(combinations),
		cmocka_unit_test(rounds),
		cmocka_unit_test(interleave),
		cmocka_unit_test(keys),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
