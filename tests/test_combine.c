/*
 * test_combine: PostgreSQL 18's read-stream combining on real segment files
 * (three files of 100, 100 and 50 blocks): runs of adjacent blocks become one
 * read, cut at the combine limit, at the caller's limit, at every segment
 * boundary and wherever the list steps back, repeats or jumps. Table-driven:
 * each case lists the reads (first block, blocks) one pass must give.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "io/blocks.h"
#include "io/combine.h"
#include "tests/fixture.h"

#define BS  8192
#define SEG 100

struct fx {
	char *dir, *base;
	struct blockmap map;
};

struct run { uint64_t first; unsigned n; };

struct combine_case {
	const char     *name;
	uint64_t        list[48];
	size_t          len;
	unsigned        max;
	struct run      runs[24];      /* ends at n == 0 */
};

static const struct combine_case cases[] = {
	{ "ascending, cut at the limit",
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 }, 21, 16,
	  { { 0, 16 }, { 16, 5 } } },
	{ "gaps end a read", { 1, 2, 3, 7, 8, 20 }, 6, 16, { { 1, 3 }, { 7, 2 }, { 20, 1 } } },
	{ "never across a segment file", { 96, 97, 98, 99, 100, 101, 102 }, 7, 16,
	  { { 96, 4 }, { 100, 3 } } },
	{ "the second boundary too", { 198, 199, 200, 201 }, 4, 16, { { 198, 2 }, { 200, 2 } } },
	{ "non-ascending: steps back and repeats", { 5, 4, 3, 3, 4, 6, 7 }, 7, 16,
	  { { 5, 1 }, { 4, 1 }, { 3, 1 }, { 3, 2 }, { 6, 2 } } },
	{ "a limit of 1 combines nothing", { 10, 11, 12 }, 3, 1, { { 10, 1 }, { 11, 1 }, { 12, 1 } } },
	{ "limit 4 on a long run", { 40, 41, 42, 43, 44, 45, 46, 47, 48, 49 }, 10, 4,
	  { { 40, 4 }, { 44, 4 }, { 48, 2 } } },
	{ "the last block of the last file", { 247, 248, 249 }, 3, 16, { { 247, 3 } } },
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char name[64], err[256];

	if (!f || !(f->dir = fixture_dir()))
		return -1;
	f->base = fixture_path(f->dir, "16384");
	for (int s = 0; s < 3; s++) {
		snprintf(name, sizeof(name), s ? "16384.%d" : "16384", s);
		char *p = fixture_path(f->dir, name);
		int rc = fixture_write_blocks(p, (uint64_t)s * SEG, s < 2 ? SEG : 50, BS, 0);
		free(p);
		if (rc < 0)
			return -1;
	}
	if (blockmap_open_segments(&f->map, f->base, BS, 0, err, sizeof(err)) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	blockmap_close(&f->map);
	fixture_remove(f->dir);
	free(f->dir);
	free(f->base);
	free(f);
	return 0;
}

/* One pass over the case's list, as the probe draws it: limit = blocks left. */
static void check_case(const struct fx *f, const struct combine_case *c)
{
	struct blocks seq;
	struct combine comb;
	size_t taken = 0, i = 0;

	blocks_replay(&seq, c->list, c->len);
	combine_init(&comb, &seq, &f->map, c->max);
	while (taken < c->len) {
		uint64_t first, block_off;
		unsigned file, n;
		off_t off;
		n = combine_next(&comb, (unsigned)(c->len - taken), &first, &file, &off);
		if (c->runs[i].n == 0)
			fail_msg("%s: more reads than expected, block %lu", c->name, (unsigned long)first);
		if (first != c->runs[i].first || n != c->runs[i].n)
			fail_msg("%s: read %zu is %lu+%u, expected %lu+%u", c->name, i,
				 (unsigned long)first, n, (unsigned long)c->runs[i].first, c->runs[i].n);
		block_off = first - f->map.files[file].first_block;
		assert_int_equal(off, (off_t)(block_off * BS));
		assert_true(block_off + n <= f->map.files[file].nblocks);
		taken += n;
		i++;
	}
	if (c->runs[i].n != 0)
		fail_msg("%s: %zu reads, expected more", c->name, i);
}

static void test_cases(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(*state, &cases[i]);
}

/* The caller's limit cuts a read; the block after it is the next read's first. */
static void test_caller_limit(void **state)
{
	const struct fx *f = *state;
	struct blocks seq;
	struct combine comb;
	uint64_t first;
	unsigned file;
	off_t off;

	blocks_seq(&seq, f->map.nblocks);
	combine_init(&comb, &seq, &f->map, 16);
	assert_int_equal(combine_next(&comb, 3, &first, &file, &off), 3);
	assert_int_equal(first, 0);
	assert_int_equal(combine_next(&comb, 16, &first, &file, &off), 16);
	assert_int_equal(first, 3);
}

/* A sequential pass over all 250 blocks: 7 + 7 + 4 reads, and the wrap to 0 starts a new one. */
static void test_seq_pass_and_wrap(void **state)
{
	const struct fx *f = *state;
	struct blocks seq;
	struct combine comb;
	uint64_t first, total = 0;
	unsigned file, reads = 0, n;
	off_t off;

	blocks_seq(&seq, f->map.nblocks);
	combine_init(&comb, &seq, &f->map, 16);
	while (total < f->map.nblocks) {
		n = combine_next(&comb, 16, &first, &file, &off);
		assert_int_equal(first, total);
		total += n;
		reads++;
	}
	assert_int_equal(total, 250);
	assert_int_equal(reads, 18);
	assert_int_equal(combine_next(&comb, 16, &first, &file, &off), 16);
	assert_int_equal(first, 0);
	assert_int_equal(file, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_caller_limit),
		cmocka_unit_test(test_seq_pass_and_wrap),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
