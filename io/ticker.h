/*
 * ticker: a thread that calls a function every interval_ns on
 * CLOCK_MONOTONIC (io/clock.h), from ticker_start() until ticker_stop() or
 * until the function asks to end. Ticks fall on a fixed grid from the start
 * (start + k * interval); a tick that overruns skips the grid points it
 * missed rather than running them in a burst. The first tick is one
 * interval after the start: a caller that wants a reading at the start takes
 * it itself. ticker_stop() wakes a sleeping thread at once and joins it; a
 * long tick can look at ticker_stopping() to give up early.
 */
#ifndef IO_TICKER_H
#define IO_TICKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct ticker {
	int           (*fn)(void *arg);   /* 0: go on; anything else ends the ticks */
	void           *arg;
	uint64_t        interval_ns;
	uint64_t        start_ns;         /* the grid's origin */
	pthread_t       thread;
	pthread_mutex_t lock;             /* with wake: a stop wakes the thread */
	pthread_cond_t  wake;
	atomic_bool     stop;
	bool            running;          /* started and not yet joined */
	int             ended_by;         /* FN's return that ended the ticks, 0 */
};

/*
 * Start the thread: FN(ARG) every INTERVAL_NS (> 0) until stopped or until
 * FN returns nonzero. 0, or -errno with nothing running (ticker_stop() is
 * still safe then).
 */
int ticker_start(struct ticker *t, uint64_t interval_ns, int (*fn)(void *arg), void *arg);

/* True once ticker_stop() was called; false on a ticker never started. */
bool ticker_stopping(const struct ticker *t);

/* Wake the thread at once and join it (never from FN: it would wait for
 * itself). Safe to repeat, and on a zeroed ticker or one whose start
 * failed. */
void ticker_stop(struct ticker *t);

#endif
