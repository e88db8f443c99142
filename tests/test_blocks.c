/*
 * test_blocks: sequences (determinism, range, wrap, copies), block list
 * parsing (table-driven, errors name line and value) and the blockmap
 * (segments base, base.1, ...; uneven lists; empty files, directories).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/blocks.h"
#include "tests/fixture.h"

#define BS 8192

static void test_random_deterministic(void **state)
{
	struct blocks a, b, c;
	unsigned counts[10] = { 0 }, differ = 0;
	(void)state;

	blocks_random(&a, 1000, 5);
	blocks_random(&b, 1000, 5);
	blocks_random(&c, 1000, 6);
	for (int i = 0; i < 100000; i++) {
		uint64_t x = blocks_next(&a);
		assert_true(x < 1000);
		assert_int_equal(x, blocks_next(&b));
		differ += x != blocks_next(&c);
		counts[x / 100]++;
	}
	assert_true(differ > 90000);
	for (int i = 0; i < 10; i++)          /* expect 10000 each */
		assert_true(counts[i] > 9000 && counts[i] < 11000);
}

static void test_seq_and_replay_wrap(void **state)
{
	static const uint64_t list[] = { 7, 3, 9 };
	struct blocks s, r, copy;
	(void)state;

	blocks_seq(&s, 3);
	assert_int_equal(blocks_pass_len(&s), 3);
	for (int i = 0; i < 7; i++)
		assert_int_equal(blocks_next(&s), (uint64_t)(i % 3));
	blocks_replay(&r, list, 3);
	assert_int_equal(blocks_pass_len(&r), 3);
	(void)blocks_next(&r);
	copy = r;
	for (int i = 1; i < 8; i++) {
		assert_int_equal(blocks_next(&r), list[i % 3]);
		assert_int_equal(blocks_next(&copy), list[i % 3]);
	}
}

struct list_case {
	const char *text;
	uint64_t    nblocks;
	int         rc;
	size_t      len;
	uint64_t    last;
	const char *msg;               /* substring of the error */
};

static const struct list_case list_cases[] = {
	{ "1\n2\n3\n", 10, 0, 3, 3, NULL },
	{ "# header\n\n  5  \n\t6 # six\n7", 10, 0, 3, 7, NULL },
	{ "1\r\n2\r\n", 10, 0, 2, 2, NULL },
	{ "1\n2\nfoo\n", 10, -EINVAL, 0, 0, "line 3: \"foo\"" },
	{ "1\n12a\n", 100, -EINVAL, 0, 0, "line 2: \"12a\"" },
	{ "-1\n", 10, -EINVAL, 0, 0, "line 1: \"-1\"" },
	{ "1\n2\n10\n", 10, -EINVAL, 0, 0, "line 3: block 10 is past the end (blocks 0..9)" },
	{ "99999999999999999999999\n", 0, -EINVAL, 0, 0, "line 1" },
	{ "# nothing\n\n", 10, -EINVAL, 0, 0, "no block numbers" },
	{ "123456789\n", 0, 0, 1, 123456789, NULL },
};

static void test_parse_list(void **state)
{
	char err[256];
	uint64_t *list;
	size_t len;
	(void)state;

	for (size_t i = 0; i < sizeof(list_cases) / sizeof(list_cases[0]); i++) {
		const struct list_case *c = &list_cases[i];
		err[0] = '\0';
		int rc = blocks_parse_list(c->text, c->nblocks, &list, &len, err, sizeof(err));
		assert_int_equal(rc, c->rc);
		assert_int_equal(len, c->len);
		if (rc == 0)
			assert_int_equal(list[len - 1], c->last);
		else
			assert_non_null(strstr(err, c->msg));
		free(list);
	}
}

static void test_load_list_missing(void **state)
{
	char err[256];
	uint64_t *list;
	size_t len;
	(void)state;

	assert_int_equal(blocks_load_list("/nonexistent/list", 10, &list, &len, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/list"));
}

static void check_locate(const struct blockmap *m, uint64_t block, unsigned file, off_t off)
{
	unsigned f;
	off_t o;

	blockmap_locate(m, block, &f, &o);
	assert_int_equal(f, file);
	assert_int_equal(o, off);
}

static void test_segments(void **state)
{
	char *dir = fixture_dir(), *base = fixture_path(dir, "16384");
	char *s1 = fixture_path(dir, "16384.1"), *s2 = fixture_path(dir, "16384.2");
	struct blockmap m;
	char err[256];
	(void)state;

	assert_int_equal(fixture_write_blocks(base, 0, 4, BS, 0), 0);
	assert_int_equal(fixture_write_blocks(s1, 4, 4, BS, 0), 0);
	assert_int_equal(fixture_write_blocks(s2, 8, 2, BS, 100), 0);
	assert_int_equal(blockmap_open_segments(&m, base, BS, 0, err, sizeof(err)), 0);
	assert_int_equal(m.nfiles, 3);
	assert_int_equal(m.nblocks, 10);
	assert_int_equal(m.uniform_blocks, 4);
	check_locate(&m, 0, 0, 0);
	check_locate(&m, 3, 0, 3 * BS);
	check_locate(&m, 4, 1, 0);
	check_locate(&m, 9, 2, BS);
	blockmap_close(&m);
	fixture_remove(dir);
	free(base); free(s1); free(s2); free(dir);
}

static void test_uneven_list(void **state)
{
	char *dir = fixture_dir(), *a = fixture_path(dir, "a"), *b = fixture_path(dir, "b");
	char *c = fixture_path(dir, "c");
	const char *paths[] = { a, b, c };
	struct blockmap m;
	char err[256];
	(void)state;

	assert_int_equal(fixture_write_blocks(a, 0, 2, BS, 0), 0);
	assert_int_equal(fixture_write_blocks(b, 2, 5, BS, 0), 0);
	assert_int_equal(fixture_write_blocks(c, 7, 1, BS, 0), 0);
	assert_int_equal(blockmap_open(&m, paths, 3, BS, 0, err, sizeof(err)), 0);
	assert_int_equal(m.nblocks, 8);
	assert_int_equal(m.uniform_blocks, 0);
	check_locate(&m, 1, 0, BS);
	check_locate(&m, 2, 1, 0);
	check_locate(&m, 6, 1, 4 * BS);
	check_locate(&m, 7, 2, 0);
	blockmap_close(&m);
	fixture_remove(dir);
	free(a); free(b); free(c); free(dir);
}

static void test_bad_files(void **state)
{
	char *dir = fixture_dir(), *small = fixture_path(dir, "small");
	const char *paths[1];
	struct blockmap m;
	char err[256];
	(void)state;

	assert_int_equal(fixture_write_blocks(small, 0, 0, BS, 100), 0);
	paths[0] = small;
	assert_int_equal(blockmap_open(&m, paths, 1, BS, 0, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "shorter than one block"));
	paths[0] = dir;
	assert_int_equal(blockmap_open(&m, paths, 1, BS, 0, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "directory"));
	paths[0] = "/nonexistent/file";
	assert_int_equal(blockmap_open(&m, paths, 1, BS, 0, err, sizeof(err)), -ENOENT);
	fixture_remove(dir);
	free(small);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_deterministic),
		cmocka_unit_test(test_seq_and_replay_wrap),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_load_list_missing),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_uneven_list),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
