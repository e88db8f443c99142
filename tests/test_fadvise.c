/*
 * test_fadvise: PostgreSQL's bitmap heap scan prefetch ramp (up to 17):
 * target -1, 0, 1, 2, 4, ... then the maximum; advice given after each read,
 * one block at a time, never more than the maximum ahead, never past the limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/engines/fadvise.h"

struct ramp_case {
	int max;
	int steps[8];                  /* targets after 1, 2, ... reads */
};

static const struct ramp_case ramp_cases[] = {
	{ 0, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 1, { 0, 1, 1, 1, 1, 1, 1, 1 } },
	{ 4, { 0, 1, 2, 4, 4, 4, 4, 4 } },
	{ 10, { 0, 1, 2, 4, 8, 10, 10, 10 } },
	{ 16, { 0, 1, 2, 4, 8, 16, 16, 16 } },
	{ 20, { 0, 1, 2, 4, 8, 16, 20, 20 } },
	{ 1000, { 0, 1, 2, 4, 8, 16, 32, 64 } },
};

static void test_target_ramp(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ramp_cases) / sizeof(ramp_cases[0]); i++) {
		int t = -1;
		for (int s = 0; s < 8; s++) {
			t = fadvise_ramp_next_target(t, ramp_cases[i].max);
			assert_int_equal(t, ramp_cases[i].steps[s]);
		}
	}
}

/* Read N blocks of SEQ; record what was advised after each read. */
static void simulate(const struct blocks *seq, int max, uint64_t limit, int n,
		    uint64_t advised[][16], int nadv[])
{
	struct fadvise_ramp r;
	uint64_t b;

	fadvise_ramp_init(&r, seq, max, limit);
	for (int i = 0; i < n; i++) {
		fadvise_ramp_before_read(&r);
		/* the reader reads its block here */
		fadvise_ramp_after_read(&r);
		nadv[i] = 0;
		while (fadvise_ramp_take(&r, &b))
			advised[i][nadv[i]++] = b;
	}
}

static void test_advice_order(void **state)
{
	static const int want_n[] = { 0, 1, 2, 3, 1, 1, 1, 1 };
	static const uint64_t want_first[] = { 0, 2, 3, 5, 8, 9, 10, 11 };
	uint64_t advised[8][16];
	int nadv[8];
	struct blocks seq;
	(void)state;

	blocks_seq(&seq, 100);
	simulate(&seq, 4, 0, 8, advised, nadv);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(nadv[i], want_n[i]);
		for (int k = 0; k < nadv[i]; k++) {
			assert_int_equal(advised[i][k], want_first[i] + (uint64_t)k);
			assert_true(advised[i][k] > (uint64_t)i);       /* only ahead */
			assert_true(advised[i][k] <= (uint64_t)i + 4);  /* at most max ahead */
		}
	}
}

static void test_follows_sequence_and_limit(void **state)
{
	static const uint64_t list[] = { 40, 7, 93, 12, 55, 3, 71, 28, 66, 19 };
	uint64_t advised[10][16];
	int nadv[10], total = 0;
	struct blocks seq;
	(void)state;

	blocks_replay(&seq, list, 10);
	simulate(&seq, 8, 10, 10, advised, nadv);
	/* Advice walks the list in order from its third entry and stops at 10. */
	for (int i = 0, next = 2; i < 10; i++)
		for (int k = 0; k < nadv[i]; k++, next++, total++)
			assert_int_equal(advised[i][k], list[next]);
	assert_int_equal(total, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_ramp),
		cmocka_unit_test(test_advice_order),
		cmocka_unit_test(test_follows_sequence_and_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
