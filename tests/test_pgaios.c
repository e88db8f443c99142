/*
 * test_pgaios: pg_aios rows become samples (handles per state, bytes of the
 * I/Os in flight), and the time-weighted summary of a run and of windows
 * inside it matches figures worked out by hand; the time line as JSON; a
 * start without a connection starts nothing. The thread on a live 18 server
 * (and "not available" on 15) runs in tests/it/pgstats.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/observe/pgaios.h"
#include "tests/pgresult.h"

#define MS(x) (1000000000u + (uint64_t)(x) * 1000000u)   /* a run starting at 1 s */

/*
 * Four samples, as pg_aios would give them for one backend:
 *   0 ms: nothing in use
 *  10 ms: two reads in flight (128 kB and 8 kB), one completed (8 kB)
 *  30 ms: four 128 kB reads in flight, one handle just handed out
 *  40 ms: one 8 kB read in flight
 */
static const char *const rows[] = {
	"pid|state|operation|length\n",
	"pid|state|operation|length\n"
	"4242|SUBMITTED|readv|131072\n"
	"4242|SUBMITTED|readv|8192\n"
	"4242|COMPLETED_SHARED|readv|8192\n",
	"pid|state|operation|length\n"
	"4242|SUBMITTED|readv|131072\n"
	"4242|SUBMITTED|readv|131072\n"
	"4242|SUBMITTED|readv|131072\n"
	"4242|SUBMITTED|readv|131072\n"
	"4242|HANDED_OUT|invalid|\n",
	"pid|state|operation|length\n"
	"4242|SUBMITTED|readv|8192\n",
};
static const int at_ms[] = { 0, 10, 30, 40 };

static void hand_samples(struct pgaios *a)
{
	memset(a, 0, sizeof(*a));
	a->cfg.interval_ms = 10;
	a->cfg.pid = 4242;
	for (int k = 0; k < 4; k++) {
		PGresult *r = pgresult_from_text(rows[k]);

		assert_non_null(r);
		assert_int_equal(pgaios_add_sample(a, MS(at_ms[k]), r), 0);
		PQclear(r);
	}
}

static void samples(void **state)
{
	struct pgaios a;

	(void)state;
	hand_samples(&a);
	assert_int_equal(a.n, 4);
	assert_int_equal(a.samples[0].handles[PGAIOS_SUBMITTED], 0);
	assert_int_equal(a.samples[1].handles[PGAIOS_SUBMITTED], 2);
	assert_int_equal(a.samples[1].handles[PGAIOS_COMPLETED_SHARED], 1);
	assert_int_equal(a.samples[1].bytes_in_flight, 139264);   /* completed ones are not in flight */
	assert_int_equal(a.samples[2].handles[PGAIOS_SUBMITTED], 4);
	assert_int_equal(a.samples[2].handles[PGAIOS_HANDED_OUT], 1);
	assert_int_equal(a.samples[2].bytes_in_flight, 524288);
	assert_int_equal(a.max_gap_ns, 20000000u);
	pgaios_free(&a);
}

/*
 * Each sample holds until the next. Over the run [0, 40] ms: in flight
 * 0·10 + 2·20 + 4·10 = 80 → 2.0 (max 4); bytes 139264·20 + 524288·10
 * = 8,028,160 → 200,704 (max 524,288); handles 3·20 + 5·10 = 110 → 2.75
 * (max 5); something in flight 30 of 40 ms.
 */
static void summary_run(void **state)
{
	struct pgaios a;
	struct pgaios_summary s;

	(void)state;
	hand_samples(&a);
	assert_int_equal(pgaios_summarize(&a, 0, UINT64_MAX, &s), 0);
	assert_int_equal(s.samples, 4);
	assert_float_equal(s.span_ms, 40.0, 1e-9);
	assert_float_equal(s.in_flight_mean, 2.0, 1e-9);
	assert_int_equal(s.in_flight_max, 4);
	assert_float_equal(s.bytes_mean, 200704.0, 1e-6);
	assert_int_equal(s.bytes_max, 524288);
	assert_float_equal(s.handles_mean, 2.75, 1e-9);
	assert_int_equal(s.handles_max, 5);
	assert_float_equal(s.busy_share, 0.75, 1e-9);
	pgaios_free(&a);
}

/*
 * Windows: [15, 40] ms holds 2 for 15 ms and 4 for 10 ms → 70 / 25 = 2.8,
 * bytes (139264·15 + 524288·10) / 25 = 293,273.6, busy all along, three
 * samples in force. An instant gives that instant's values; a window
 * before the run is empty; no samples, nothing to say.
 */
static void summary_windows(void **state)
{
	struct pgaios a;
	struct pgaios_summary s;

	(void)state;
	hand_samples(&a);
	assert_int_equal(pgaios_summarize(&a, MS(15), MS(40), &s), 0);
	assert_int_equal(s.samples, 3);
	assert_float_equal(s.span_ms, 25.0, 1e-9);
	assert_float_equal(s.in_flight_mean, 2.8, 1e-9);
	assert_int_equal(s.in_flight_max, 4);
	assert_float_equal(s.bytes_mean, 293273.6, 1e-6);
	assert_float_equal(s.busy_share, 1.0, 1e-9);
	assert_int_equal(pgaios_summarize(&a, MS(20), MS(20), &s), 0);
	assert_int_equal(s.samples, 1);
	assert_float_equal(s.in_flight_mean, 2.0, 1e-9);
	assert_int_equal(s.handles_max, 3);
	assert_int_equal(pgaios_summarize(&a, 0, MS(0) - 1, &s), -ERANGE);
	assert_true(json_is_null(pgaios_window_json(&a, MS(30), MS(20))));
	pgaios_free(&a);
	memset(&a, 0, sizeof(a));
	assert_int_equal(pgaios_summarize(&a, 0, UINT64_MAX, &s), -ENOENT);
}

static void timeline(void **state)
{
	struct pgaios a;
	json_t *j, *tl, *h;

	(void)state;
	hand_samples(&a);
	j = pgaios_json(&a, MS(5));
	assert_true(json_is_true(json_object_get(j, "available")));
	assert_int_equal(json_integer_value(json_object_get(j, "pid")), 4242);
	assert_int_equal(json_integer_value(json_object_get(j, "samples")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "summary"), "in_flight_max")), 4);
	tl = json_object_get(j, "timeline");
	assert_float_equal(json_real_value(json_array_get(json_object_get(tl, "t_ms"), 0)), -5.0, 1e-9);
	assert_float_equal(json_real_value(json_array_get(json_object_get(tl, "t_ms"), 3)), 35.0, 1e-9);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(tl, "in_flight"), 2)), 4);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(tl, "bytes_in_flight"), 3)), 8192);
	h = json_object_get(tl, "handles");
	assert_int_equal(json_object_size(h), 3);    /* only the states seen */
	assert_int_equal(json_integer_value(json_array_get(json_object_get(h, "HANDED_OUT"), 2)), 1);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(h, "COMPLETED_SHARED"), 1)), 1);
	assert_null(json_object_get(h, "STAGED"));
	json_decref(j);
	pgaios_free(&a);
}

static void states(void **state)
{
	static const char *const names[] = { "HANDED_OUT", "DEFINED", "STAGED", "SUBMITTED",
		"COMPLETED_IO", "COMPLETED_SHARED", "COMPLETED_LOCAL" };
	struct pgaios a;
	PGresult *r = pgresult_from_text("state|length\nIDLE|\nSUBMITTED|\n");

	(void)state;
	for (int s = 0; s < 7; s++) {
		assert_int_equal(pgaios_state_of(names[s]), s);
		assert_string_equal(pgaios_state_name((enum pgaios_state)s), names[s]);
	}
	assert_int_equal(pgaios_state_of("QUEUED"), PGAIOS_OTHER);
	/* an unknown state still counts as a handle; a NULL length adds no bytes */
	memset(&a, 0, sizeof(a));
	assert_int_equal(pgaios_add_sample(&a, 1, r), 0);
	assert_int_equal(a.samples[0].handles[PGAIOS_OTHER], 1);
	assert_int_equal(a.samples[0].handles[PGAIOS_SUBMITTED], 1);
	assert_int_equal(a.samples[0].bytes_in_flight, 0);
	PQclear(r);
	r = pgresult_from_text("pid|operation\n1|readv\n");
	assert_int_equal(pgaios_add_sample(&a, 2, r), -EPROTO);
	PQclear(r);
	pgaios_free(&a);
}

/* A failed connect starts nothing; stop and free are safe after it. */
static void no_connection(void **state)
{
	struct pgaios a;
	struct pgaios_cfg cfg = { 0 };
	char err[64] = "as the caller left it";

	(void)state;
	assert_int_equal(pgaios_start(&a, NULL, &cfg, err, sizeof(err)), -EIO);
	assert_string_equal(err, "as the caller left it");
	assert_false(a.ticker.running);
	assert_int_equal(a.cfg.interval_ms, PGAIOS_DEFAULT_INTERVAL_MS);
	pgaios_stop(&a);
	pgaios_free(&a);
	assert_int_equal(a.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples),
		cmocka_unit_test(summary_run),
		cmocka_unit_test(summary_windows),
		cmocka_unit_test(timeline),
		cmocka_unit_test(states),
		cmocka_unit_test(no_connection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
