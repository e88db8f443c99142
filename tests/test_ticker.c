/*
 * test_ticker: ticks happen and stop after ticker_stop(); a stop wakes a
 * thread asleep for an hour at once; a tick's nonzero return ends the
 * ticks; a long tick sees ticker_stopping(); a tick that overruns skips
 * the grid points it missed (no burst); a zeroed or failed ticker is safe
 * to stop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "io/clock.h"
#include "io/ticker.h"

#define MAX_CALLS 16

struct probe {
	struct ticker *t;
	atomic_int     calls;
	int            end_at;           /* return 7 on this call; 0: never */
	int            slow_call;        /* this call sleeps slow_ms */
	int            slow_ms;
	atomic_bool    in_long_tick;     /* for the long-tick test */
	bool           saw_stopping;
	uint64_t       at_ns[MAX_CALLS]; /* when each call began */
};

static int count(void *arg)
{
	struct probe *p = arg;
	int k = atomic_load(&p->calls);

	if (k < MAX_CALLS)
		p->at_ns[k] = clock_now_ns();
	atomic_store(&p->calls, k + 1);
	if (p->slow_call && k + 1 == p->slow_call)
		clock_sleep_ms(p->slow_ms);
	return p->end_at && k + 1 == p->end_at ? 7 : 0;
}

/* Wait (bounded) until P has been called N times. */
static void await_calls(struct probe *p, int n)
{
	uint64_t give_up = clock_now_ns() + 30ull * 1000000000u;

	while (atomic_load(&p->calls) < n && clock_now_ns() < give_up)
		clock_sleep_ms(1);
}

static void ticks_happen_until_stopped(void **state)
{
	struct ticker t;
	struct probe p = { .t = &t };
	int after;

	(void)state;
	assert_int_equal(ticker_start(&t, 1000000u, count, &p), 0);
	await_calls(&p, 5);
	assert_true(atomic_load(&p.calls) >= 5);
	assert_false(ticker_stopping(&t));
	ticker_stop(&t);
	after = atomic_load(&p.calls);
	clock_sleep_ms(20);
	assert_int_equal(atomic_load(&p.calls), after);
	assert_int_equal(t.ended_by, 0);
	assert_false(t.running);
	/* the grid: each call at or after its own point, one interval apart at least */
	for (int k = 0; k < after && k < MAX_CALLS; k++)
		assert_true(p.at_ns[k] >= t.start_ns + (uint64_t)(k + 1) * 1000000u);
	ticker_stop(&t);		/* a second stop is harmless */
}

/* An hour's interval: the stop must not wait for it. */
static void stop_wakes_at_once(void **state)
{
	struct ticker t;
	struct probe p = { .t = &t };
	uint64_t t0;

	(void)state;
	assert_int_equal(ticker_start(&t, 3600ull * 1000000000u, count, &p), 0);
	clock_sleep_ms(10);
	t0 = clock_now_ns();
	ticker_stop(&t);
	assert_true(clock_now_ns() - t0 < 60ull * 1000000000u);
	assert_int_equal(atomic_load(&p.calls), 0);
}

static void nonzero_return_ends(void **state)
{
	struct ticker t;
	struct probe p = { .t = &t, .end_at = 3 };

	(void)state;
	assert_int_equal(ticker_start(&t, 1000000u, count, &p), 0);
	await_calls(&p, 3);
	clock_sleep_ms(20);		/* room for a call that must not come */
	ticker_stop(&t);
	assert_int_equal(atomic_load(&p.calls), 3);
	assert_int_equal(t.ended_by, 7);
}

static int long_tick(void *arg)
{
	struct probe *p = arg;

	atomic_store(&p->in_long_tick, true);
	while (!ticker_stopping(p->t))
		clock_sleep_ms(1);
	p->saw_stopping = true;
	return 0;
}

static void long_tick_sees_the_stop(void **state)
{
	struct ticker t;
	struct probe p = { .t = &t };
	uint64_t give_up = clock_now_ns() + 30ull * 1000000000u;

	(void)state;
	assert_int_equal(ticker_start(&t, 1000000u, long_tick, &p), 0);
	while (!atomic_load(&p.in_long_tick) && clock_now_ns() < give_up)
		clock_sleep_ms(1);
	assert_true(atomic_load(&p.in_long_tick));
	ticker_stop(&t);
	assert_true(p.saw_stopping);
}

/*
 * The second call sleeps five intervals: the calls after it keep to the
 * grid, one per grid interval at most, and the first of them is at least
 * five grid points later (the missed ones are skipped, not run in a burst).
 */
static void overrun_skips(void **state)
{
	const uint64_t step = 20000000u;
	struct ticker t;
	struct probe p = { .t = &t, .end_at = 6, .slow_call = 2, .slow_ms = 100 };
	uint64_t bucket[6];

	(void)state;
	assert_int_equal(ticker_start(&t, step, count, &p), 0);
	await_calls(&p, 6);
	ticker_stop(&t);
	assert_int_equal(atomic_load(&p.calls), 6);
	for (int k = 0; k < 6; k++) {
		assert_true(p.at_ns[k] >= t.start_ns + step);
		bucket[k] = (p.at_ns[k] - t.start_ns) / step;
		if (k > 0)
			assert_true(bucket[k] > bucket[k - 1]);
	}
	assert_true(bucket[2] >= bucket[1] + 5);
}

static void zeroed_and_bad(void **state)
{
	struct ticker t;
	struct probe p = { .t = &t };

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_false(ticker_stopping(&t));
	ticker_stop(&t);
	assert_int_equal(ticker_start(&t, 0, count, &p), -EINVAL);
	assert_false(t.running);
	ticker_stop(&t);
	assert_int_equal(ticker_start(&t, 1000000u, NULL, &p), -EINVAL);
	ticker_stop(&t);
	assert_int_equal(atomic_load(&p.calls), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ticks_happen_until_stopped),
		cmocka_unit_test(stop_wakes_at_once),
		cmocka_unit_test(nonzero_return_ends),
		cmocka_unit_test(long_tick_sees_the_stop),
		cmocka_unit_test(overrun_skips),
		cmocka_unit_test(zeroed_and_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
