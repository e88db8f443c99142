/*
 * serve: reads through the model. A read arrives, takes its place in the
 * model (and the counters) at once, is read from the backing file, and its
 * answer waits in a min-heap of events until the model says it is done
 * (or the backing read ended, whichever is later); one completion thread
 * sleeps until the earliest event and answers. Members' done events keep
 * their in-flight counts exact. Writes are only counted here.
 */
#include "io/emulate/emu_priv.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/file.h"

#define BATCH 64
#define MAX_LATE_NS 200000ULL    /* a wake-up later than 200 µs is the machine's, not the timer's */

static int heap_push(struct emu *e, struct event ev)
{
	size_t i;

	if (e->nheap == e->capheap) {
		size_t cap = e->capheap ? 2 * e->capheap : 1024;
		struct event *h = realloc(e->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		e->heap = h, e->capheap = cap;
	}
	i = e->nheap++;
	while (i > 0 && e->heap[(i - 1) / 2].due_ns > ev.due_ns) {
		e->heap[i] = e->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e->heap[i] = ev;
	return 0;
}

static struct event heap_pop(struct emu *e)
{
	struct event top = e->heap[0], last = e->heap[--e->nheap];
	size_t i = 0, n = e->nheap;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		uint64_t sv = last.due_ns;

		if (l < n && e->heap[l].due_ns < sv)
			s = l, sv = e->heap[l].due_ns;
		if (r < n && e->heap[r].due_ns < sv)
			s = r;
		if (s == i)
			break;
		e->heap[i] = e->heap[s];
		i = s;
	}
	if (n)
		e->heap[i] = last;
	return top;
}

static void answer(struct pending *p)
{
	if (p->err)
		fuse_reply_err(p->req, p->err);
	else
		fuse_reply_buf(p->req, p->buf, p->len);
	free(p->buf);
	free(p);
}

/* Take what is due at NOW off the heap: members counted, replies into OUT. */
static size_t take_due(struct emu *e, uint64_t now, bool all, struct pending **out)
{
	size_t n = 0;

	while (e->nheap && (all || e->heap[0].due_ns <= now) && n < BATCH) {
		struct event ev = heap_pop(e);

		if (ev.member >= 0) {
			counters_done(&e->counters.member[ev.member], ev.arrived_ns,
				      ev.due_ns < now ? ev.due_ns : now);
			model_done(&e->model, (unsigned)ev.member);
			continue;
		}
		counters_done(&e->counters.dev, ev.arrived_ns, now);
		counters_answered(&e->counters.timing, ev.due_ns, clock_now_ns());
		out[n++] = ev.p;
	}
	return n;
}

/* Sleep until DUE (or a signal); the time woken after it, when it timed out. */
static uint64_t wait_until(struct emu *e, uint64_t due_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(due_ns / 1000000000ULL),
			       .tv_nsec = (long)(due_ns % 1000000000ULL) };
	uint64_t now;

	if (pthread_cond_timedwait(&e->wake, &e->lock, &ts) != ETIMEDOUT)
		return 0;
	now = clock_now_ns();
	return now > due_ns ? now - due_ns : 1;
}

/* The thread's wake-up delay, a running mean of the last few (ns): it
 * sleeps that much less, so answers leave on time on average. */
static void learn_lateness(uint64_t *late_ns, uint64_t sample_ns)
{
	if (sample_ns > MAX_LATE_NS)
		sample_ns = MAX_LATE_NS;
	*late_ns = (*late_ns * 7 + sample_ns) / 8;
}

static void *completer(void *arg)
{
	struct emu *e = arg;
	struct pending *due[BATCH];
	uint64_t late_ns = 0;

	/* wake-ups on time: the default slack is 50 µs */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	pthread_mutex_lock(&e->lock);
	while (!e->stopping || e->nheap) {
		uint64_t now;
		size_t n;

		if (!e->nheap) {
			pthread_cond_wait(&e->wake, &e->lock);
			continue;
		}
		now = clock_now_ns();
		if (e->heap[0].due_ns > now + late_ns && !e->stopping) {
			uint64_t target = e->heap[0].due_ns - late_ns, woke = wait_until(e, target);

			if (woke)
				learn_lateness(&late_ns, woke);
			continue;
		}
		n = take_due(e, now + late_ns, e->stopping, due);
		pthread_mutex_unlock(&e->lock);
		for (size_t i = 0; i < n; i++)
			answer(due[i]);
		pthread_mutex_lock(&e->lock);
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

int serve_start(struct emu *e)
{
	pthread_condattr_t ca;
	int rc;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&e->wake, &ca);
	pthread_condattr_destroy(&ca);
	rc = -pthread_create(&e->completer, NULL, completer, e);
	if (rc == 0 && e->cfg->realtime) {
		struct sched_param sp = { .sched_priority = 1 };

		if (pthread_setschedparam(e->completer, SCHED_FIFO, &sp) != 0 && e->cfg->log)
			fprintf(e->cfg->log, "emulate: cannot answer reads from a real-time thread (%s); answers may come late on a busy machine\n",
				strerror(errno));
	}
	e->completer_started = rc == 0;
	return rc;
}

void serve_stop(struct emu *e)
{
	if (!e->completer_started)
		return;
	pthread_mutex_lock(&e->lock);
	e->stopping = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->completer, NULL);
	e->completer_started = false;
}

/* Queue P's events: each member done at its end, the reply at DUE. */
static int queue_events(struct emu *e, const struct model_placement *pl, uint64_t arrived,
			uint64_t due, struct pending *p)
{
	int rc = 0;
	bool earlier;

	pthread_mutex_lock(&e->lock);
	earlier = !e->nheap || due < e->heap[0].due_ns;
	for (unsigned i = 0; rc == 0 && i < pl->n; i++)
		rc = heap_push(e, (struct event){ .due_ns = pl->end_ns[i], .arrived_ns = arrived,
						  .member = (int)pl->member[i] });
	if (rc == 0)
		rc = heap_push(e, (struct event){ .due_ns = due, .arrived_ns = arrived, .member = -1, .p = p });
	if (rc == 0 && earlier)
		pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
	return rc;
}

void serve_read(struct emu *e, fuse_req_t req, int fd, uint64_t key, size_t size, off_t off)
{
	struct model_placement pl;
	struct pending *p = calloc(1, sizeof(*p));
	uint64_t now = clock_now_ns(), due;
	ssize_t n;

	if (!p || !(p->buf = malloc(size ? size : 1))) {
		free(p);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	p->req = req;
	pthread_mutex_lock(&e->lock);
	model_read(&e->model, key, (uint64_t)off, size, now, &pl);
	counters_arrive(&e->counters.dev, size, now);
	for (unsigned i = 0; i < pl.n; i++)
		counters_arrive(&e->counters.member[pl.member[i]], pl.bytes[i], now);
	pthread_mutex_unlock(&e->lock);
	n = file_pread_full(fd, p->buf, size, off);
	if (n < 0)
		p->err = (int)-n;
	else
		p->len = (size_t)n;
	due = clock_now_ns();
	pthread_mutex_lock(&e->lock);
	counters_backing(&e->counters.timing, due - now, due > pl.done_ns);
	pthread_mutex_unlock(&e->lock);
	if (pl.done_ns > due)
		due = pl.done_ns;
	if (queue_events(e, &pl, now, due, p) < 0)
		answer(p);	/* out of memory: answer now rather than never */
}

void serve_write(struct emu *e, uint64_t bytes)
{
	pthread_mutex_lock(&e->lock);
	counters_write(&e->counters.dev, bytes);
	pthread_mutex_unlock(&e->lock);
}
