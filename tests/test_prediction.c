/*
 * test_prediction: a sweep's replay trials against its query trials on the
 * records of tests/fixtures/sweep/replay (values 0, 4 and 16, three runs of
 * each, worked out by hand): the medians, the error ln(replay / query) with
 * its interval, the request check (the replay at 16 issued a third more
 * requests: not used), the error in parts (requests, the device's pace,
 * its busy share, the rest), and the split of each change against 0 into
 * waiting for reads, CPU and waiting for a core, which adds up to the change.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/judge/prediction.h"
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
	struct sweep_result r;
	struct prediction p;
	const struct prediction_value *v;
	char err[1024];
	(void)state;

	assert_int_equal(result_load(F, &r, err, sizeof(err)), 0);
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
	result_free(&r);
}

static void split_adds_up(void **state)
{
	struct sweep_result r;
	struct prediction p;
	struct prediction_split d;
	char err[1024];
	(void)state;

	assert_int_equal(result_load(F, &r, err, sizeof(err)), 0);
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
	result_free(&r);
}

/* At 4 the records say how busy the device was (util_pct over elapsed_s):
 * the query's 8900, 8950 and 8850 reads at 80%, 84% and 76% of 200, 210 and
 * 190 ms read at 55625, 50737 and 61288 a second while busy; the replay's
 * 8900, 8800 and 9000 at 90%, 90% and 88% of 230, 225 and 220 ms at 42995,
 * 43457 and 46488. So the error ln(225/200) = +0.118 is the requests' 0,
 * the pace's -ln(43457/55625) = +0.247 (the device slower in the replay),
 * the busy share's -ln(0.90/0.80) = -0.118, and a rest of -0.011. At 0 the
 * records carry no busy figures: no parts. */
static void error_in_parts(void **state)
{
	struct sweep_result r;
	struct prediction p;
	const struct prediction_value *v;
	const struct prediction_error_parts *e;
	char err[1024];
	double qpace = 8900 / (0.80 * 0.20), rpace = 8800 / (0.90 * 0.225);
	(void)state;

	assert_int_equal(result_load(F, &r, err, sizeof(err)), 0);
	assert_int_equal(prediction_build(&r, 0, &p), 0);
	v = value(&p, "4");
	e = &v->parts;
	assert_float_equal(v->trial_pace, qpace, 1e-6);
	assert_float_equal(v->trial_pace_lo, 8950 / (0.84 * 0.21), 1e-6);
	assert_float_equal(v->trial_pace_hi, 8850 / (0.76 * 0.19), 1e-6);
	assert_float_equal(v->replay_pace, rpace, 1e-6);
	assert_float_equal(v->trial_busy, 0.80, 1e-9);
	assert_float_equal(v->replay_busy, 0.90, 1e-9);
	assert_float_equal(e->requests, 0, 1e-9);
	assert_true(fabs(e->pace + log(rpace / qpace)) < 1e-12);	/* cmocka compares floats */
	assert_float_equal(e->pace, 0.2469, 1e-4);
	assert_true(fabs(e->busy + log(0.90 / 0.80)) < 1e-12);
	assert_float_equal(e->rest, -0.01130, 1e-5);
	assert_true(fabs(e->requests + e->pace + e->busy + e->rest - log(225.0 / 200)) < 1e-12);
	/* on the CPU: the backend 118, 120, 125 ms (59, 60, 62.5 in the kernel),
	 * the replay 210, 190, 200 (110, 100, 120) */
	assert_float_equal(v->trial_cpu_ms, 120, 1e-6);
	assert_float_equal(v->trial_sys_ms, 60, 1e-6);
	assert_float_equal(v->replay_cpu_ms, 200, 1e-6);
	assert_float_equal(v->replay_sys_ms, 110, 1e-6);
	v = value(&p, "0");
	assert_true(isnan(v->parts.pace) && isnan(v->parts.rest) && isnan(v->trial_pace));
	assert_true(isnan(v->replay_cpu_ms));
	result_free(&r);
}

/* Steal time on the CPUs of TRIAL (value, round), as the sampler records it. */
static void steal(struct sweep_result *r, const char *value, int round, double pct)
{
	json_t *t;
	size_t i;

	json_array_foreach(r->trials, i, t)
		if (!strcmp(json_string_value(json_object_get(json_object_get(t, "settings"),
							      "effective_io_concurrency")), value) &&
		    json_integer_value(json_object_get(t, "round")) == round)
			json_object_set_new(t, "cpu", json_pack("{s:f}", "steal_pct", pct));
}

/* A run the disturbance rule flags (steal time over 10%) is out of the
 * medians, as out of the answer; when every run of a value is, all stay. */
static void flagged_left_out(void **state)
{
	char err[1024];
	struct sweep_result r;
	struct prediction p;
	const struct prediction_value *v;

	(void)state;

	assert_int_equal(result_load(F, &r, err, sizeof(err)), 0);
	steal(&r, "4", 2, 25.0);        /* the run of 210 ms */
	assert_int_equal(prediction_build(&r, 0, &p), 0);
	v = value(&p, "4");
	assert_int_equal(v->query_runs, 2);
	assert_int_equal(v->flagged_out, 1);
	assert_float_equal(v->heap_ms, 195, 1e-9);            /* 200 and 190 */
	assert_int_equal(v->replay_runs, 3);                  /* the replays are not judged */
	assert_float_equal(v->replay_ms, 225, 1e-9);
	v = value(&p, "16");
	assert_int_equal(v->flagged_out, 0);
	assert_int_equal(v->query_runs, 3);
	steal(&r, "4", 1, 25.0);
	steal(&r, "4", 3, 25.0);
	assert_int_equal(prediction_build(&r, 0, &p), 0);
	v = value(&p, "4");
	assert_int_equal(v->flagged_out, 0);
	assert_int_equal(v->query_runs, 3);
	assert_float_equal(v->heap_ms, 200, 1e-9);
	result_free(&r);
}

static void without_replays(void **state)
{
	struct sweep_result r;
	struct prediction p;
	char err[1024];
	(void)state;

	assert_int_equal(result_load("tests/fixtures/sweep/sparse", &r, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(r.companions), 0);
	assert_int_equal(prediction_build(&r, 0, &p), -ENOENT);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(medians_and_errors),
		cmocka_unit_test(split_adds_up),
		cmocka_unit_test(error_in_parts),
		cmocka_unit_test(flagged_left_out),
		cmocka_unit_test(without_replays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
