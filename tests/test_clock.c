/*
 * test_clock: the monotonic clock never goes back, its units agree, and a
 * sleep of N ms is not shorter than N ms by that clock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "io/clock.h"

static void monotonic_units(void **state)
{
	uint64_t a = clock_now_ns(), b;
	double ms = clock_now_ms(), s = clock_now_s();

	(void)state;
	clock_sleep_ms(20);
	b = clock_now_ns();
	assert_true(b >= a + 20 * 1000000u);
	assert_true(clock_now_ms() >= ms + 20.0);
	assert_true(clock_now_s() >= s + 0.02);
	/* one clock: ms and s are ns scaled (taken moments apart) */
	assert_true(clock_now_ms() * 1e6 >= (double)b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotonic_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
