/*
 * test_readstream: PostgreSQL 18's read stream against sequences worked out
 * by hand from read_stream.c: the distance starts at 1 and doubles at each
 * wait (up to the pin cap), neighbours combine up to io_combine_limit and a
 * gap starts a new read, at most max_ios reads are in flight, a page in
 * shared buffers is a hit that lowers the distance, io_method = sync gives
 * advice only from a jump until the reads catch up, and the backend's pin
 * budget caps what is pinned. Events: S<page>+<n> (a read starts, "a" when
 * advised), X<page> (the consumer waits for it), W<page> (work on a page).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engines/readstream.h"

struct trace {
	char text[2048];
	int  synchronous;
};

static void put(struct trace *t, const char *fmt, ...)
{
	size_t n = strlen(t->text);
	va_list ap;

	if (n)
		t->text[n++] = ' ';
	va_start(ap, fmt);
	vsnprintf(t->text + n, sizeof(t->text) - n, fmt, ap);
	va_end(ap);
}

static int on_start(void *arg, size_t idx, unsigned n, bool advice, bool synchronous)
{
	struct trace *t = arg;

	t->synchronous += synchronous;
	put(t, "S%zu+%u%s", idx, n, advice ? "a" : "");
	return 0;
}

static int on_wait(void *arg, size_t idx, unsigned n)
{
	(void)n;
	put(arg, "X%zu", idx);
	return 0;
}

static int on_work(void *arg, size_t idx)
{
	put(arg, "W%zu", idx);
	return 0;
}

static const struct readstream_ops ops = { .start = on_start, .wait = on_wait, .work = on_work };

static void pages_of(struct scan_block *p, const uint64_t *blocks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (struct scan_block){ .block = blocks[i], .ntuples = 1 };
}

static const char *stream(const struct scan_block *p, size_t n, struct readstream_cfg c,
			  struct trace *t, struct readstream_stats *st)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(readstream_run(p, n, &c, &ops, t, NULL, st), 0);
	return t->text;
}

/*
 * Runs and gaps, combine 4, 4 reads at most: reads of 1, 2, 1, 1, 2, 4, 4,
 * 2, 1 blocks, each started as far ahead as the distance (1, 2, 4, 8, 16,
 * then the cap of 20 pins) allows; the fifth read in flight waits.
 */
static void runs_and_gaps(void **state)
{
	static const uint64_t b[] = { 10, 11, 12, 13, 20, 30, 31, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 60 };
	struct scan_block p[18];
	struct readstream_stats st;
	struct trace t;
	(void)state;

	pages_of(p, b, 18);
	assert_string_equal(stream(p, 18, (struct readstream_cfg){ .max_ios = 4, .combine_limit = 4 }, &t, &st),
		"S0+1 X0 S1+2 W0 X1 S3+1 S4+1 W1 W2 X3 S5+2 S7+4 W3 X4 S11+4 S15+2 W4 "
		"X5 S17+1 W5 W6 X7 W7 W8 W9 W10 X11 W11 W12 W13 W14 X15 W15 W16 X17 W17");
	assert_int_equal(st.ios, 9);
	assert_int_equal(st.io_blocks, 18);
	assert_int_equal(st.max_ios_in_flight, 4);
	assert_int_equal(st.max_pinned, 20);
	assert_int_equal(st.max_distance, 20);
	assert_int_equal(st.hits, 0);
	assert_int_equal(t.synchronous, 0);
}

/* Scattered pages, 2 reads at most: after the ramp, one read starts per page consumed. */
static void scattered_two_in_flight(void **state)
{
	static const uint64_t b[] = { 0, 10, 20, 30, 40, 50, 60, 70 };
	struct scan_block p[8];
	struct readstream_stats st;
	struct trace t;
	(void)state;

	pages_of(p, b, 8);
	assert_string_equal(stream(p, 8, (struct readstream_cfg){ .max_ios = 2, .combine_limit = 16 }, &t, &st),
		"S0+1 X0 S1+1 W0 X1 S2+1 S3+1 W1 X2 S4+1 W2 X3 S5+1 W3 X4 S6+1 W4 X5 S7+1 W5 X6 W6 X7 W7");
	assert_int_equal(st.max_ios_in_flight, 2);
	/* 0: one read at a time, done synchronously; neighbours still combine. */
	static const uint64_t run[] = { 0, 1, 2, 3, 4, 5, 9 };
	pages_of(p, run, 7);
	assert_string_equal(stream(p, 7, (struct readstream_cfg){ .max_ios = 0, .combine_limit = 16 }, &t, &st),
		"S0+1 X0 S1+2 W0 X1 W1 S3+3 W2 X3 S6+1 W3 W4 W5 X6 W6");
	assert_int_equal(t.synchronous, 4);
	assert_int_equal(st.max_ios_in_flight, 1);
}

/* Pages in shared buffers are hits: no read, and the distance drops by one. */
static void hits_lower_the_distance(void **state)
{
	static const uint64_t b[] = { 0, 10, 20, 30, 40, 50 };
	struct scan_block p[6];
	struct readstream_stats st;
	struct trace t;
	(void)state;

	pages_of(p, b, 6);
	p[1].cached = p[2].cached = true;
	assert_string_equal(stream(p, 6, (struct readstream_cfg){ .max_ios = 4, .combine_limit = 4 }, &t, &st),
		"S0+1 X0 W0 W1 S3+1 W2 X3 S4+1 W3 X4 S5+1 W4 X5 W5");
	assert_int_equal(st.hits, 2);
	assert_int_equal(st.ios, 4);
}

/*
 * io_method = sync: advice for a read after a jump, and for the sequential
 * reads after it until the consumer reaches the jump's first read; none for
 * the first read of the stream (read at once) nor in the first run.
 */
static void sync_advice_after_jumps(void **state)
{
	static const uint64_t b[] = { 10, 11, 12, 13, 14, 15, 50, 51, 52, 53, 54, 55 };
	struct scan_block p[12];
	struct readstream_stats st;
	struct trace t;
	(void)state;

	pages_of(p, b, 12);
	assert_string_equal(stream(p, 12, (struct readstream_cfg){ .max_ios = 4, .combine_limit = 2, .advice = true },
				   &t, &st),
		"S0+1 X0 S1+2 W0 X1 S3+2 W1 S5+1 W2 X3 S6+2a S8+2a S10+2a W3 W4 X5 W5 X6 W6 W7 X8 W8 W9 X10 W10 W11");
	assert_int_equal(st.advices, 3);
}

/*
 * The backend's pin budget: bufmgr counts at least 8 pins as held, so a
 * share of 10 grants 2 more at a time: reads of 4 neighbours are cut to 2,
 * and single blocks stop at 9 pinned (with the consumer's own, 10).
 */
static void pin_budget_caps_pins(void **state)
{
	struct scan_block p[20];
	struct readstream_stats st;
	struct trace t;
	(void)state;

	for (int i = 0; i < 20; i++)
		p[i] = (struct scan_block){ .block = (uint64_t)(5 * i), .ntuples = 1 };
	stream(p, 20, (struct readstream_cfg){ .max_ios = 16, .combine_limit = 1, .pin_limit = 10 }, &t, &st);
	assert_int_equal(st.max_pinned, 10);
	assert_int_equal(st.max_pinned_seen, 9);
	assert_int_equal(st.ios, 20);
	for (int i = 0; i < 16; i++)
		p[i] = (struct scan_block){ .block = (uint64_t)(100 + i), .ntuples = 1 };
	stream(p, 16, (struct readstream_cfg){ .max_ios = 4, .combine_limit = 4, .pin_limit = 10 }, &t, &st);
	assert_int_equal(st.io_blocks, 16);
	assert_null(strstr(t.text, "+3"));
	assert_null(strstr(t.text, "+4"));
	/* A read never crosses a segment: blocks 6..9 in segments of 8 are two reads. */
	static const uint64_t seg[] = { 6, 7, 8, 9 };
	pages_of(p, seg, 4);
	stream(p, 4, (struct readstream_cfg){ .max_ios = 4, .combine_limit = 4, .seg_blocks = 8 }, &t, &st);
	assert_non_null(strstr(t.text, "S1+1"));
	assert_non_null(strstr(t.text, "S2+2"));
}

static void bad_config(void **state)
{
	struct scan_block p[1] = { { 1, 1 } };
	struct readstream_cfg c = { .max_ios = 1, .combine_limit = 0 };
	struct trace t = { 0 };
	volatile sig_atomic_t stop = 1;
	(void)state;

	assert_int_equal(readstream_run(p, 1, &c, &ops, &t, NULL, NULL), -EINVAL);
	c.combine_limit = 129;
	assert_int_equal(readstream_run(p, 1, &c, &ops, &t, NULL, NULL), -EINVAL);
	c.combine_limit = 1;
	assert_int_equal(readstream_run(p, 1, &c, &ops, &t, &stop, NULL), -EINTR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_and_gaps),
		cmocka_unit_test(scattered_two_in_flight),
		cmocka_unit_test(hits_lower_the_distance),
		cmocka_unit_test(sync_advice_after_jumps),
		cmocka_unit_test(pin_budget_caps_pins),
		cmocka_unit_test(bad_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
