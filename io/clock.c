/*
 * clock: CLOCK_MONOTONIC in ns, ms and s; a sleep in ms. See clock.h.
 */
#include "io/clock.h"

#include <errno.h>
#include <time.h>

uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double clock_now_ms(void)
{
	return (double)clock_now_ns() / 1e6;
}

double clock_now_s(void)
{
	return (double)clock_now_ns() / 1e9;
}

void clock_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}
