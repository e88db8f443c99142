/*
 * test_pgprocs: pg_stat_activity rows become the list of processes that
 * work for a query (I/O workers, a leader's parallel workers); their pids
 * go into a sampler's list after the backend's; their CPU over a window of
 * hand-written samples comes out per process and per role. The listing on
 * live 15 and 18 servers runs in tests/it/pgstats.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/observe/pgprocs.h"
#include "bench/observe/pgstats.h"
#include "tests/pgresult.h"

static const char *const activity =
	"pid|backend_type\n"
	"12621|io worker\n"
	"12622|io worker\n"
	"12623|io worker\n"
	"13001|parallel worker\n";

static void list(struct pgprocs *p)
{
	PGresult *r = pgresult_from_text(activity);

	assert_non_null(r);
	memset(p, 0, sizeof(*p));
	assert_int_equal(pgprocs_parse(r, p), 0);
	PQclear(r);
}

static void parse(void **state)
{
	struct pgprocs p;
	json_t *j;
	char *s;

	(void)state;
	list(&p);
	assert_int_equal(p.n, 4);
	assert_int_equal(p.p[0].pid, 12621);
	assert_string_equal(p.p[3].role, "parallel worker");
	assert_int_equal(pgprocs_count(&p, "io worker"), 3);
	assert_int_equal(pgprocs_count(&p, "parallel worker"), 1);
	assert_int_equal(pgprocs_count(&p, NULL), 4);
	assert_false(p.truncated);
	j = pgprocs_json(&p);
	s = json_dumps(json_array_get(j, 3), JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"pid\":13001,\"role\":\"parallel worker\"}");
	free(s);
	json_decref(j);
}

/* Rows whose type the role may not see are counted, never listed. */
static void hidden(void **state)
{
	struct pgprocs p;
	PGresult *r = pgresult_from_text("pid|backend_type\n12621|io worker\n21454|\n21455|\n");

	(void)state;
	assert_int_equal(pgprocs_parse(r, &p), 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.hidden, 2);
	PQclear(r);
}

static void bad_and_many(void **state)
{
	struct pgprocs p;
	char text[8192] = "pid|backend_type\n";
	PGresult *r = pgresult_from_text("pid|state\n1|active\n");

	(void)state;
	assert_int_equal(pgprocs_parse(r, &p), -EPROTO);
	PQclear(r);
	for (int i = 1; i <= PGPROCS_MAX + 3; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%d|io worker\n", 100 + i);
	r = pgresult_from_text(text);
	assert_int_equal(pgprocs_parse(r, &p), 0);
	assert_int_equal(p.n, PGPROCS_MAX);
	assert_true(p.truncated);
	PQclear(r);
}

/* The pids go after those already there, as many as the sampler holds. */
static void to_sampler(void **state)
{
	struct pgprocs p;
	struct sampler_cfg cfg = { .npids = 1, .pids = { 4242 } };
	int added, first;

	(void)state;
	list(&p);
	first = pgprocs_to_sampler(&p, &cfg, &added);
	assert_int_equal(first, 1);
	assert_int_equal(added, 4);
	assert_int_equal(cfg.npids, 5);
	assert_int_equal(cfg.pids[0], 4242);
	assert_int_equal(cfg.pids[1], 12621);
	assert_int_equal(cfg.pids[4], 13001);
	cfg.npids = SAMPLER_MAX_PIDS - 2;
	first = pgprocs_to_sampler(&p, &cfg, &added);
	assert_int_equal(first, SAMPLER_MAX_PIDS - 2);
	assert_int_equal(added, 2);
	assert_int_equal(cfg.npids, SAMPLER_MAX_PIDS);
}

/*
 * Three samples 1 s apart; sampler pid 0 is the backend. The io workers
 * used 100 + 20, 30 + 0 and no ticks over the 2 s; the parallel worker
 * could not be read. Per role: three io workers, 130 user and 20 system
 * ticks.
 */
static void cpu(void **state)
{
	struct pgprocs p;
	struct sampler sm;
	double hz = (double)sysconf(_SC_CLK_TCK);
	json_t *j, *w;

	(void)state;
	list(&p);
	memset(&sm, 0, sizeof(sm));
	sm.cfg.npids = 5;
	sm.cfg.interval_ms = 100;
	sm.n = sm.cap = 3;
	sm.samples = calloc(3, sizeof(*sm.samples));
	for (int k = 0; k < 3; k++) {
		sm.samples[k].t_ns = (uint64_t)(k + 1) * 1000000000u;
		sm.samples[k].utime[1] = (uint64_t)k * 50;
		sm.samples[k].stime[1] = (uint64_t)k * 10;
	}
	sm.samples[2].utime[2] = 30;
	sm.pid_first[4] = SAMPLER_NEVER;	/* never read */
	j = pgprocs_cpu_json(&p, &sm, 1, 4, 0, UINT64_MAX);
	w = json_array_get(json_object_get(j, "procs"), 0);
	assert_int_equal(json_integer_value(json_object_get(w, "pid")), 12621);
	assert_float_equal(json_real_value(json_object_get(w, "user_s")), 100 / hz, 1e-9);
	assert_float_equal(json_real_value(json_object_get(w, "system_s")), 20 / hz, 1e-9);
	assert_float_equal(json_real_value(json_object_get(w, "cpu_share")), 120 / hz / 2, 1e-9);
	w = json_array_get(json_object_get(j, "procs"), 3);
	assert_string_equal(json_string_value(json_object_get(w, "role")), "parallel worker");
	assert_true(json_is_null(json_object_get(w, "cpu_share")));
	w = json_object_get(json_object_get(j, "by_role"), "io worker");
	assert_int_equal(json_integer_value(json_object_get(w, "count")), 3);
	assert_float_equal(json_real_value(json_object_get(w, "user_s")), 130 / hz, 1e-9);
	assert_float_equal(json_real_value(json_object_get(w, "system_s")), 20 / hz, 1e-9);
	assert_float_equal(json_real_value(json_object_get(w, "cpu_share")), 150 / hz / 2, 1e-9);
	assert_null(json_object_get(json_object_get(j, "by_role"), "parallel worker"));
	json_decref(j);
	free(sm.samples);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(hidden),
		cmocka_unit_test(bad_and_many),
		cmocka_unit_test(to_sampler),
		cmocka_unit_test(cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
