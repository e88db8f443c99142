/*
 * test_bitmapscan: PostgreSQL 13-17's bitmap heap scan loop against
 * sequences worked out by hand from BitmapHeapNext: the page step after each
 * read, one more target step per tuple (so a page of 23 tuples or a lossy
 * page of 226 takes the target to the maximum at once, where a page of one
 * tuple moves it by one), advice right after each step, never for a page in
 * shared buffers, nothing after a page with no tuples, nothing at all at 0.
 * Events are written as R<page> (read), A<page> (advice), W<page> (work).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engines/bitmapscan.h"

struct trace {
	char text[1024];
};

static void put(struct trace *t, char what, size_t idx)
{
	size_t n = strlen(t->text);

	snprintf(t->text + n, sizeof(t->text) - n, "%s%c%zu", n ? " " : "", what, idx);
}

static int on_read(void *arg, size_t idx) { put(arg, 'R', idx); return 0; }
static int on_advise(void *arg, size_t idx) { put(arg, 'A', idx); return 0; }
static int on_work(void *arg, size_t idx) { put(arg, 'W', idx); return 0; }

static const struct scan17_ops ops = { .read = on_read, .advise = on_advise, .work = on_work };

static const char *scan(const struct scan_block *p, size_t n, int max, struct trace *t)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(bitmapscan17_run(p, n, max, &ops, t, NULL), 0);
	return t->text;
}

/* Pages of 1 tuple, 23 tuples, a lossy page (every tuple: 226), then 1 each. */
static struct scan_block mixed[12];

static void fill_mixed(void)
{
	static const uint64_t blocks[12] = { 100, 101, 105, 200, 201, 202, 300, 301, 302, 400, 401, 402 };

	for (int i = 0; i < 12; i++)
		mixed[i] = (struct scan_block){ .block = blocks[i], .ntuples = 1 };
	mixed[1].ntuples = 23;
	mixed[2] = (struct scan_block){ .block = 105, .ntuples = 226, .lossy = true };
}

/*
 * max 4: page 0 reads, the page step takes the target from -1 to 0, its one
 * tuple to 1 (advice for page 1); page 1's step doubles it to 2 (pages 2, 3),
 * its tuples raise it to 3 and 4 (pages 4, 5); from then on each page keeps
 * the distance with one advice, until the iterator has given every page.
 */
static void ramp_max4(void **state)
{
	struct trace t;
	(void)state;

	fill_mixed();
	assert_string_equal(scan(mixed, 12, 4, &t),
		"R0 A1 W0 R1 A2 A3 A4 A5 W1 R2 A6 W2 R3 A7 W3 R4 A8 W4 R5 A9 W5 "
		"R6 A10 W6 R7 A11 W7 R8 W8 R9 W9 R10 W10 R11 W11");
}

/*
 * max 1000 with one tuple per page: the page step doubles, the tuple adds
 * one: targets 1, 3, 7, 15 after pages 0..3, each refilled at once.
 */
static void ramp_one_tuple_pages(void **state)
{
	struct scan_block p[20];
	struct trace t;
	(void)state;

	for (int i = 0; i < 20; i++)
		p[i] = (struct scan_block){ .block = (uint64_t)(10 * i), .ntuples = 1 };
	assert_string_equal(scan(p, 5, 1000, &t),
		"R0 A1 W0 R1 A2 A3 A4 W1 R2 W2 R3 W3 R4 W4");
	/* With more pages: page 1 ends with 3 advised, page 2 with 7, page 3 with 15. */
	scan(p, 20, 1000, &t);
	assert_non_null(strstr(t.text, "R1 A2 A3 A4 W1 R2 A5 A6 A7 A8 A9 W2 R3 A10 A11 A12 A13 A14 A15 A16 A17 A18 W3"));
}

/* A page of 23 tuples first: the target is 23 before the second read. */
static void ramp_many_tuples_first(void **state)
{
	struct scan_block p[40];
	struct trace t;
	char want[512] = "R0";
	(void)state;

	for (int i = 0; i < 40; i++)
		p[i] = (struct scan_block){ .block = (uint64_t)i, .ntuples = i ? 1 : 23 };
	scan(p, 40, 16, &t);
	for (int i = 1; i <= 16; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), " A%d", i);
	strcat(want, " W0 R1 A17 W1 R2 A18 W2");
	assert_memory_equal(t.text, want, strlen(want));
}

/* 0: plain reads. Cached pages: no read, no advice. No tuples: no step, no advice, no work. */
static void no_prefetch_cached_and_empty(void **state)
{
	struct scan_block p[6];
	struct trace t;
	(void)state;

	for (int i = 0; i < 6; i++)
		p[i] = (struct scan_block){ .block = (uint64_t)(3 * i), .ntuples = 2 };
	assert_string_equal(scan(p, 6, 0, &t), "R0 W0 R1 W1 R2 W2 R3 W3 R4 W4 R5 W5");
	p[2].cached = true;
	assert_string_equal(scan(p, 6, 2, &t),
		"R0 A1 W0 R1 A3 W1 A4 W2 R3 A5 W3 R4 W4 R5 W5");
	p[2].cached = false;
	p[0].ntuples = 0;
	assert_string_equal(scan(p, 6, 2, &t), "R0 R1 A2 A3 W1 R2 A4 W2 R3 A5 W3 R4 W4 R5 W5");
}

static int stop_after(void *arg, size_t idx)
{
	(void)arg;
	return idx == 2 ? -EIO : 0;
}

static void errors_end_the_scan(void **state)
{
	static const struct scan17_ops failing = { .read = stop_after, .advise = stop_after, .work = stop_after };
	volatile sig_atomic_t stop = 1;
	struct scan_block p[4] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 } };
	(void)state;

	assert_int_equal(bitmapscan17_run(p, 4, 0, &failing, NULL, NULL), -EIO);
	assert_int_equal(bitmapscan17_run(p, 4, 0, &ops, &(struct trace){ 0 }, &stop), -EINTR);
	assert_int_equal(bitmapscan17_run(p, 4, -1, &ops, &(struct trace){ 0 }, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ramp_max4),
		cmocka_unit_test(ramp_one_tuple_pages),
		cmocka_unit_test(ramp_many_tuples_first),
		cmocka_unit_test(no_prefetch_cached_and_empty),
		cmocka_unit_test(errors_end_the_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
