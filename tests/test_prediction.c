/*
 * test_prediction: a sweep's replay trials against its query trials on the
 * records of tests/fixtures/sweep/replay (values 0, 4 and 16, three runs of
 * each, worked out by hand): the medians, the error ln(replay / query) with
 * its interval, the request check (the replay at 16 issued a third more
 * requests: not used), and the split of each change against 0 into waiting
 * for reads, CPU and waiting for a core, which adds up to the change.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/report/prediction.h"
#include "bench/report/report.h"

#define F "tests/fixtures/sweep/replay"

static const struct prediction_value *value(const struct prediction *p, const char *v)
{
	for (size_t i = 0; i < p->nvalues; i++)
		if (!strcmp(p->v[i].value, v))
			return &p->v[i];
	fail_msg("no value %s", v);
	return NULL;
}

static void medians_and_errors(void **state)
{
	struct report r;
	struct prediction p;
	const struct prediction_value *v;
	char err[1024];
	(void)state;

	assert_int_equal(report_load(F, &r, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(r.trials), 9);       /* the replays are kept apart */
	assert_int_equal(json_array_size(r.companions), 9);
	assert_int_equal(r.skipped, 0);
	assert_int_equal(prediction_build(&r, 0, &p), 0);
	assert_int_equal(p.nvalues, 3);
	assert_int_equal(p.replays, 9);
	assert_string_equal(p.model, "13-17");
	assert_string_equal(p.v[p.zero].value, "0");
	v = value(&p, "4");
	assert_int_equal(v->query_runs, 3);
	assert_int_equal(v->replay_runs, 3);
	assert_float_equal(v->heap_ms, 200, 1e-9);
	assert_float_equal(v->replay_ms, 225, 1e-9);
	assert_float_equal(v->error, log(225.0 / 200), 1e-9);
	assert_true(v->error_lo <= v->error && v->error <= v->error_hi);
	assert_float_equal(v->error_lo, log(220.0 / 210), 1e-9);  /* 3 runs: min/max, max/min */
	assert_float_equal(v->error_hi, log(230.0 / 190), 1e-9);
	assert_float_equal(v->replay_wait_ms, 98, 1e-9);
	/* the requests: the same within 10% at 0 and 4, a third more at 16 */
	assert_true(v->checked && v->usable);
	assert_float_equal(v->req_diff, 0, 1e-9);
	v = value(&p, "16");
	assert_true(v->checked && !v->usable);
	assert_float_equal(v->req_diff, 12000.0 / 9000 - 1, 1e-9);
	assert_float_equal(v->error, log(100.0 / 150), 1e-9);
	report_free(&r);
}

static void split_adds_up(void **state)
{
	struct report r;
	struct prediction p;
	struct prediction_split d;
	char err[1024];
	(void)state;

	assert_int_equal(report_load(F, &r, err, sizeof(err)), 0);
	assert_int_equal(prediction_build(&r, 0, &p), 0);
	/* at 0 the median run (400 ms): 110 on the CPU, 5 waiting for a core, 285 for reads */
	assert_float_equal(p.v[p.zero].split.total_ms, 400, 1e-9);
	assert_float_equal(p.v[p.zero].split.cpu_ms, 110, 1e-6);
	assert_float_equal(p.v[p.zero].split.runqueue_ms, 5, 1e-6);
	assert_float_equal(p.v[p.zero].split.wait_ms, 285, 1e-6);
	assert_true(p.v[p.zero].split.from_schedstat);
	for (size_t i = 0; i < p.nvalues; i++) {
		prediction_change(&p, i, &d);
		assert_float_equal(d.total_ms, p.v[i].heap_ms - p.v[p.zero].heap_ms, 1e-9);
		assert_float_equal(d.wait_ms + d.cpu_ms + d.runqueue_ms, d.total_ms, 1e-6);
	}
	prediction_change(&p, 1, &d);            /* 4: -200 = -215 reads, +10 CPU, +5 core */
	assert_string_equal(p.v[1].value, "4");
	assert_float_equal(d.total_ms, -200, 1e-9);
	assert_float_equal(d.wait_ms, -215, 1e-6);
	assert_float_equal(d.cpu_ms, 10, 1e-6);
	assert_float_equal(d.runqueue_ms, 5, 1e-6);
	assert_float_equal(d.io_read_ms, -215, 1e-6);
	prediction_change(&p, 99, &d);
	assert_true(isnan(d.total_ms));
	report_free(&r);
}

static void without_replays(void **state)
{
	struct report r;
	struct prediction p;
	char err[1024];
	(void)state;

	assert_int_equal(report_load("tests/fixtures/sweep/sparse", &r, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(r.companions), 0);
	assert_int_equal(prediction_build(&r, 0, &p), -ENOENT);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(medians_and_errors),
		cmocka_unit_test(split_adds_up),
		cmocka_unit_test(without_replays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
