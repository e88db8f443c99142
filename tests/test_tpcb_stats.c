/*
 * test_tpcb_stats: counting finished transactions by outcome, merging the
 * threads' stats (histograms included) equal to counting in one place,
 * the -P interval figures from live counters, the aggregate-log sums and
 * the Poisson schedule's mean gap and spread.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "bench/tpcb/tpcb_stats.h"
#include "io/rng.h"

static struct tpcb_done done(enum tpcb_outcome o, uint64_t sched_us, uint64_t start_us,
			     uint64_t end_us, int tries)
{
	return (struct tpcb_done){ .client = 1, .tx_no = 1, .outcome = o,
		.sched_ns = sched_us * 1000, .start_ns = start_us * 1000,
		.end_ns = end_us * 1000, .tries = tries };
}

static void outcomes(void **state)
{
	static struct tpcb_stats s;
	struct tpcb_done f = done(TPCB_FAILED, 0, 0, 50, 3);

	(void)state;
	tpcb_stats_init(&s, 1, 1);
	tpcb_stats_add(&s, &(struct tpcb_done){ .outcome = TPCB_OK, .sched_ns = 3000,
			.start_ns = 5000, .end_ns = 11000, .tries = 1 }, 9000, true);
	tpcb_stats_add(&s, &(struct tpcb_done){ .outcome = TPCB_OK, .sched_ns = 0,
			.start_ns = 1000, .end_ns = 10000, .tries = 2 }, 9000, true);
	f.fail = TPCB_FAIL_SERIALIZATION;
	tpcb_stats_add(&s, &f, 9000, true);
	f.fail = TPCB_FAIL_DEADLOCK;
	tpcb_stats_add(&s, &f, 9000, true);
	tpcb_stats_add(&s, &(struct tpcb_done){ .outcome = TPCB_SKIPPED }, 9000, true);
	assert_int_equal(s.committed, 2);
	assert_int_equal(s.failed, 2);
	assert_int_equal(s.ser_failures, 1);
	assert_int_equal(s.dl_failures, 1);
	assert_int_equal(s.skipped, 1);
	assert_int_equal(s.retried, 3);		/* the tries = 2 and both tries = 3 */
	assert_int_equal(s.retries, 1 + 2 + 2);
	assert_int_equal(s.late, 1);		/* 10 µs > 9 µs; 8 µs is not */
	assert_int_equal(s.latency.count, 2);
	assert_int_equal(s.latency.min_ns, 8000);
	assert_int_equal(s.latency.max_ns, 10000);
	assert_int_equal(s.lag_count, 2);
	assert_int_equal(s.lag_max_ns, 2000);
	assert_float_equal(s.lag_sum_ns, 3000, 1e-9);
	/* the script's own counts: every done record names script 0 */
	assert_int_equal(s.script[0].committed, 2);
	assert_int_equal(s.script[0].failed, 2);
	assert_int_equal(s.script[0].skipped, 1);
	assert_float_equal(s.script[0].lat_sum_ns, 8000 + 10000, 1e-9);
	tpcb_stats_free(&s);
}

/* Latencies split over three "threads" merge to what one place counts. */
static void merge_equals_single(void **state)
{
	static struct tpcb_stats part[3], all, merged;
	struct rng r;

	(void)state;
	rng_seed(&r, 5);
	tpcb_stats_init(&all, 4, 2);
	tpcb_stats_init(&merged, 4, 2);
	for (int i = 0; i < 3; i++)
		tpcb_stats_init(&part[i], 4, 2);
	for (int i = 0; i < 30000; i++) {
		uint64_t lat = 50000 + rng_below(&r, 5000000) * (1 + i % 7);
		struct tpcb_done d = { .outcome = i % 97 ? TPCB_OK : TPCB_FAILED, .script = i % 2,
			.fail = TPCB_FAIL_DEADLOCK, .end_ns = lat, .tries = 1 + (i % 5 == 0) };

		part[i % 3].stmt[i % 4].count++;
		part[i % 3].stmt[i % 4].sum_ns += (double)lat;
		all.stmt[i % 4].count++;
		all.stmt[i % 4].sum_ns += (double)lat;
		tpcb_stats_add(&part[i % 3], &d, 1000000, false);
		tpcb_stats_add(&all, &d, 1000000, false);
	}
	for (int i = 0; i < 3; i++)
		tpcb_stats_merge(&merged, &part[i]);
	assert_int_equal(merged.committed, all.committed);
	assert_int_equal(merged.failed, all.failed);
	assert_int_equal(merged.retries, all.retries);
	assert_int_equal(merged.late, all.late);
	assert_memory_equal(merged.latency.buckets, all.latency.buckets, sizeof(all.latency.buckets));
	assert_int_equal(merged.latency.count, all.latency.count);
	assert_int_equal(merged.latency.max_ns, all.latency.max_ns);
	assert_float_equal(hist_mean(&merged.latency), hist_mean(&all.latency), 1e-6 * hist_mean(&all.latency));
	assert_float_equal(hist_stddev(&merged.latency), hist_stddev(&all.latency),
			   1e-6 * hist_stddev(&all.latency));
	assert_int_equal(hist_percentile(&merged.latency, 99), hist_percentile(&all.latency, 99));
	for (int k = 0; k < 4; k++) {
		assert_int_equal(merged.stmt[k].count, all.stmt[k].count);
		assert_float_equal(merged.stmt[k].sum_ns, all.stmt[k].sum_ns, 1);
	}
	for (int k = 0; k < 2; k++) {
		assert_int_equal(merged.script[k].committed, all.script[k].committed);
		assert_int_equal(merged.script[k].failed, all.script[k].failed);
		assert_float_equal(merged.script[k].lat_sum2_ns, all.script[k].lat_sum2_ns,
				   1e-9 * all.script[k].lat_sum2_ns);
	}
	tpcb_stats_free(&all);
	tpcb_stats_free(&merged);
	for (int i = 0; i < 3; i++)
		tpcb_stats_free(&part[i]);
}

static void live_progress(void **state)
{
	struct tpcb_live pub = { 0 }, own = { 0 }, prev = { 0 }, cur = { 0 };
	struct tpcb_progress p;

	(void)state;
	/* four transactions of 1, 2, 3 and 4 ms, one of them retried, one failed */
	for (int i = 1; i <= 4; i++) {
		struct tpcb_done d = done(TPCB_OK, 0, 500, (uint64_t)i * 1000, i == 2 ? 3 : 1);

		tpcb_live_add(&pub, &own, &d);
	}
	tpcb_live_add(&pub, &own, &(struct tpcb_done){ .outcome = TPCB_FAILED, .tries = 1 });
	tpcb_live_gather(&cur, &pub);
	tpcb_live_gather(&cur, &pub);	/* a second thread with the same counts */
	tpcb_live_progress(&prev, &cur, 2.0, 5.0, &p);
	assert_float_equal(p.elapsed_s, 5.0, 1e-12);
	assert_float_equal(p.tps, 8 / 2.0, 1e-9);
	assert_float_equal(p.lat_ms, 2.5, 1e-9);
	assert_float_equal(p.stddev_ms, sqrt(1.25), 1e-9);	/* population stddev of 1..4 */
	assert_float_equal(p.lag_ms, 0.5, 1e-9);
	assert_int_equal(p.failed, 2);
	assert_int_equal(p.retried, 2);
	assert_int_equal(p.retries, 4);
	tpcb_live_progress(&cur, &cur, 1.0, 6.0, &p);	/* an empty interval */
	assert_float_equal(p.tps, 0, 0);
	assert_float_equal(p.lat_ms, 0, 0);
}

static void aggregate(void **state)
{
	struct tpcb_agg a;
	struct tpcb_done s = done(TPCB_SKIPPED, 0, 0, 0, 0);
	struct tpcb_done f = done(TPCB_FAILED, 0, 0, 0, 2);

	(void)state;
	tpcb_agg_reset(&a, 1700000000);
	tpcb_agg_add(&a, &(struct tpcb_done){ .outcome = TPCB_OK, .sched_ns = 0,
		     .start_ns = 2000, .end_ns = 30000, .tries = 1 }, true);
	tpcb_agg_add(&a, &(struct tpcb_done){ .outcome = TPCB_OK, .sched_ns = 0,
		     .start_ns = 1000, .end_ns = 10000, .tries = 1 }, true);
	tpcb_agg_add(&a, &s, true);
	f.fail = TPCB_FAIL_SERIALIZATION;
	tpcb_agg_add(&a, &f, true);
	assert_int_equal(a.start_s, 1700000000);
	assert_int_equal(a.count, 2);
	assert_float_equal(a.lat_sum, 40, 1e-9);
	assert_float_equal(a.lat_sum2, 900 + 100, 1e-9);
	assert_float_equal(a.lat_min, 10, 1e-9);
	assert_float_equal(a.lat_max, 30, 1e-9);
	assert_float_equal(a.lag_min, 1, 1e-9);
	assert_float_equal(a.lag_max, 2, 1e-9);
	assert_float_equal(a.lag_sum2, 5, 1e-9);
	assert_int_equal(a.skipped, 1);
	assert_int_equal(a.ser_failures, 1);
	assert_int_equal(a.retried, 1);
	assert_int_equal(a.retries, 1);
}

static void poisson_schedule(void **state)
{
	struct tpcb_schedule s;
	struct tpcb_prng g;
	double prev = 1e9, sum = 0, sum2 = 0;
	int n = 200000;

	(void)state;
	tpcb_prng_seed(&g, 9);
	tpcb_schedule_init(&s, &g, 1000.0, 1000000000);	/* 1000 per second from t = 1 s */
	for (int i = 0; i < n; i++) {
		double t = (double)tpcb_schedule_next(&s), gap = t - prev;

		assert_true(gap >= 0);
		sum += gap;
		sum2 += gap * gap;
		prev = t;
	}
	/* exponential gaps rounded to whole µs: mean 1 ms, standard deviation
	 * equal to the mean; every gap a whole number of µs */
	assert_true(((uint64_t)prev - 1000000000) % 1000 == 0);
	assert_float_equal(sum / n, 1e6, 1e6 * 0.01);
	assert_float_equal(sqrt(sum2 / n - (sum / n) * (sum / n)), 1e6, 1e6 * 0.02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(outcomes),
		cmocka_unit_test(merge_equals_single),
		cmocka_unit_test(live_progress),
		cmocka_unit_test(aggregate),
		cmocka_unit_test(poisson_schedule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
