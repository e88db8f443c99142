/*
 * test_replay_pages: the TID bitmap's lossy pages, simulated, on hand-worked
 * page lists whose answer does not depend on the hash order (a page a chunk,
 * where a round cannot get under the limit; a chunk whose first page turns
 * lossy with it), the pages added after the last round left exact, the
 * choice between the simulation and the model by EXPLAIN's count, and the
 * split of the work per page.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/workloads/replay_pages.h"

#define TBM_16 (16 * REPLAY_TBM_ENTRY_BYTES)   /* a work_mem of 16 entries, tidbitmap's least */

static struct relblocks pages_at(uint64_t *blocks, uint32_t *rows, size_t n)
{
	return (struct relblocks){ .blocks = blocks, .ntuples = rows, .nblocks = n, .block_bytes = 8192 };
}

static size_t count_lossy(const struct scan_block *p, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += p[i].lossy;
	return k;
}

/* 20 pages, each in a chunk of its own (block 1 + 300 i, never a chunk's
 * first page): at the 17th the entries pass 16, and making a page lossy
 * trades its entry for its chunk's, so the round cannot get under 8: all 17
 * go lossy and the limit is raised to 34. The last three stay exact. */
static void round_cannot_get_under(void **state)
{
	uint64_t blocks[20];
	uint32_t rows[20];
	struct scan_block *p;
	int64_t lossy;

	(void)state;
	for (size_t i = 0; i < 20; i++)
		blocks[i] = 1 + 300 * i, rows[i] = 2;
	struct relblocks rb = pages_at(blocks, rows, 20);

	assert_int_equal(replay_pages_tbm(&rb, TBM_16, 226, &p, &lossy), 0);
	assert_int_equal(lossy, 17);
	for (size_t i = 0; i < 20; i++) {
		assert_int_equal(p[i].block, blocks[i]);
		assert_int_equal(p[i].lossy, i < 17);
		assert_int_equal(p[i].ntuples, i < 17 ? 226 : 2);
	}
	free(p);
}

/* Chunk 1 (blocks 256-511): its first page and the next 16. At the 17th
 * the round makes non-first pages lossy in hash order: the first turns its
 * chunk into an entry and takes the first page with it (16 entries still),
 * eight more bring them to 8. Ten lossy, the first page among them; block
 * 273 and chunk 2's first page, added after, exact. */
static void first_page_goes_with_its_chunk(void **state)
{
	uint64_t blocks[19];
	uint32_t rows[19];
	struct scan_block *p;
	int64_t lossy;

	(void)state;
	for (size_t i = 0; i < 18; i++)
		blocks[i] = 256 + i, rows[i] = 1;
	blocks[18] = 512, rows[18] = 1;
	struct relblocks rb = pages_at(blocks, rows, 19);

	assert_int_equal(replay_pages_tbm(&rb, TBM_16, 100, &p, &lossy), 0);
	assert_int_equal(lossy, 10);
	assert_int_equal(count_lossy(p, 17), 10);
	assert_true(p[0].lossy);
	assert_false(p[17].lossy);
	assert_false(p[18].lossy);
	free(p);
}

/* Nothing passes the limit: every page exact, whatever work_mem's share. */
static void all_exact_under_the_limit(void **state)
{
	uint64_t blocks[16];
	uint32_t rows[16];
	struct scan_block *p;
	int64_t lossy;

	(void)state;
	for (size_t i = 0; i < 16; i++)
		blocks[i] = 7 * i + 1, rows[i] = 3;
	struct relblocks rb = pages_at(blocks, rows, 16);

	assert_int_equal(replay_pages_tbm(&rb, TBM_16, 226, &p, &lossy), 0);
	assert_int_equal(lossy, 0);
	assert_int_equal(count_lossy(p, 16), 0);
	free(p);
}

static void refused_out_of_order(void **state)
{
	uint64_t blocks[3] = { 5, 9, 9 };
	uint32_t rows[3] = { 1, 1, 1 };
	struct relblocks rb = pages_at(blocks, rows, 3);
	struct scan_block *p = NULL;
	int64_t lossy;

	(void)state;
	assert_int_equal(replay_pages_tbm(&rb, TBM_16, 226, &p, &lossy), -EINVAL);
	assert_null(p);
}

/* EXPLAIN's count decides: the simulation's pages when it agrees (17),
 * the model's, with EXPLAIN's count, when it does not (5), and the model's
 * when work_mem is not known. */
static void choose_by_explain(void **state)
{
	uint64_t blocks[20];
	uint32_t rows[20];
	struct scan_block *p;
	const char *how;
	int64_t sim;
	bool used;

	(void)state;
	for (size_t i = 0; i < 20; i++)
		blocks[i] = 1 + 300 * i, rows[i] = 2;
	struct relblocks rb = pages_at(blocks, rows, 20);

	assert_int_equal(replay_pages_choose(&rb, 17, TBM_16, 226, &p, &used, &how, &sim), 0);
	assert_true(used);
	assert_int_equal(sim, 17);
	assert_int_equal(count_lossy(p, 20), 17);
	assert_false(p[19].lossy);
	assert_non_null(strstr(how, "simulated"));
	free(p);

	assert_int_equal(replay_pages_choose(&rb, 5, TBM_16, 226, &p, &used, &how, &sim), 0);
	assert_false(used);
	assert_int_equal(sim, 17);
	assert_int_equal(count_lossy(p, 20), 5);
	assert_non_null(strstr(how, "was not EXPLAIN's"));
	free(p);

	assert_int_equal(replay_pages_choose(&rb, 5, 0, 226, &p, &used, &how, &sim), 0);
	assert_false(used);
	assert_int_equal(sim, -1);
	assert_int_equal(count_lossy(p, 20), 5);
	free(p);
}

/* 100 pages: 10 us each at the session's work_mem, examining 10050 tuples
 * (50 lossy pages of 200, one row on each page); 4 us each exact, 100
 * tuples. Per tuple (1e6 - 4e5) / 9950 ns, per page the rest of the exact
 * run's; together they give the first run's 1e6 ns back. */
static void work_split(void **state)
{
	double a, b;

	(void)state;
	assert_true(replay_work_fit(10000, 4000, 100, 10050, 100, &a, &b));
	assert_float_equal(b, 6e5 / 9950, 1e-9);
	assert_float_equal(a, (4e5 - 100 * b) / 100, 1e-9);
	assert_float_equal(100 * a + 10050 * b, 1e6, 1e-6);

	/* no exact run, no lossy pages, or the exact run slower: all on the page */
	assert_false(replay_work_fit(10000, -1, 100, 10050, 100, &a, &b));
	assert_float_equal(a, 10000, 1e-9);
	assert_float_equal(b, 0, 1e-9);
	assert_false(replay_work_fit(10000, 4000, 100, 100, 100, &a, &b));
	assert_false(replay_work_fit(10000, 11000, 100, 10050, 100, &a, &b));
	assert_float_equal(a, 10000, 1e-9);
	/* the tuples would take more than the whole exact run: not split */
	assert_false(replay_work_fit(10000, 100, 100, 10050, 5000, &a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_cannot_get_under),
		cmocka_unit_test(first_page_goes_with_its_chunk),
		cmocka_unit_test(all_exact_under_the_limit),
		cmocka_unit_test(refused_out_of_order),
		cmocka_unit_test(choose_by_explain),
		cmocka_unit_test(work_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
