/*
 * ticker: the ticking thread; see ticker.h. It sleeps on a condition
 * variable that waits on CLOCK_MONOTONIC (the clock of io/clock.h), so a
 * stop, which signals it under the mutex, ends the sleep at once.
 */
#include "io/ticker.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "io/clock.h"

/* The first grid point after NOW. */
static uint64_t next_point(const struct ticker *t, uint64_t now)
{
	return t->start_ns + ((now - t->start_ns) / t->interval_ns + 1) * t->interval_ns;
}

/* Sleep until DEADLINE_NS or until ticker_stop(); true when stopping. */
static bool sleep_until(struct ticker *t, uint64_t deadline_ns)
{
	struct timespec ts = { (time_t)(deadline_ns / 1000000000u),
			       (long)(deadline_ns % 1000000000u) };
	bool stop;

	pthread_mutex_lock(&t->lock);
	while (!atomic_load(&t->stop) &&
	       pthread_cond_timedwait(&t->wake, &t->lock, &ts) != ETIMEDOUT)
		;
	stop = atomic_load(&t->stop);
	pthread_mutex_unlock(&t->lock);
	return stop;
}

static void *loop(void *arg)
{
	struct ticker *t = arg;

	for (;;) {
		/* after a sleep or a tick, now is past the last grid point */
		if (sleep_until(t, next_point(t, clock_now_ns())))
			break;
		if ((t->ended_by = t->fn(t->arg)) != 0)
			break;
	}
	return NULL;
}

static int init_sync(struct ticker *t)
{
	pthread_condattr_t a;
	int rc = pthread_condattr_init(&a);

	if (rc == 0)
		rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(&t->wake, &a);
	pthread_condattr_destroy(&a);
	if (rc == 0 && (rc = pthread_mutex_init(&t->lock, NULL)) != 0)
		pthread_cond_destroy(&t->wake);
	return -rc;
}

int ticker_start(struct ticker *t, uint64_t interval_ns, int (*fn)(void *arg), void *arg)
{
	int rc;

	memset(t, 0, sizeof(*t));
	if (interval_ns == 0 || !fn)
		return -EINVAL;
	t->fn = fn;
	t->arg = arg;
	t->interval_ns = interval_ns;
	atomic_init(&t->stop, false);
	if ((rc = init_sync(t)) < 0)
		return rc;
	t->start_ns = clock_now_ns();
	t->running = true;
	rc = -pthread_create(&t->thread, NULL, loop, t);
	if (rc < 0) {
		t->running = false;
		pthread_cond_destroy(&t->wake);
		pthread_mutex_destroy(&t->lock);
	}
	return rc;
}

bool ticker_stopping(const struct ticker *t)
{
	return t->running && atomic_load(&t->stop);
}

void ticker_stop(struct ticker *t)
{
	if (!t->running)
		return;
	pthread_mutex_lock(&t->lock);
	atomic_store(&t->stop, true);
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	t->running = false;
}
