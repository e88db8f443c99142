/*
 * test_heappage: a heap page read as the scan reads it, on pages built by
 * hand in PostgreSQL's layout: an exact page walks its first tuples, a lossy
 * one all of them, items that are not normal or run past the block are
 * skipped, and a block in no page format yields its header alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "io/engines/heappage.h"

#define BS 8192

/* A page of N tuples of LEN bytes each, filled with BYTE, item flags FLAGS[i]. */
static void make_page(unsigned char *p, unsigned n, unsigned len, const unsigned *flags)
{
	uint16_t lower = (uint16_t)(24 + 4 * n), upper = (uint16_t)(BS - n * len);

	memset(p, 0, BS);
	memcpy(p + 12, &lower, 2);
	memcpy(p + 14, &upper, 2);
	for (unsigned i = 0; i < n; i++) {
		uint32_t off = BS - (i + 1) * len, item = off | (uint32_t)(flags ? flags[i] : 1) << 15 | (uint32_t)len << 17;

		memcpy(p + 24 + 4 * i, &item, 4);
		memset(p + off, (int)(i + 1), len);
	}
}

static void exact_and_lossy(void **state)
{
	static unsigned char p[BS];
	struct heappage_walk w = { 0 };

	(void)state;
	make_page(p, 10, 36, NULL);
	heappage_walk(p, BS, 3, false, &w);
	assert_int_equal(w.tuples, 3);
	assert_int_equal(w.bytes, 24 + 3 * (4 + 36));
	memset(&w, 0, sizeof(w));
	heappage_walk(p, BS, 3, true, &w);	/* lossy: every tuple is rechecked */
	assert_int_equal(w.tuples, 10);
	assert_int_equal(w.bytes, 24 + 10 * (4 + 36));
	memset(&w, 0, sizeof(w));
	heappage_walk(p, BS, 50, false, &w);	/* more asked than the page holds */
	assert_int_equal(w.tuples, 10);
}

static void the_value_depends_on_the_bytes(void **state)
{
	static unsigned char p[BS];
	struct heappage_walk a = { 0 }, b = { 0 };

	(void)state;
	make_page(p, 4, 40, NULL);
	heappage_walk(p, BS, 4, false, &a);
	p[BS - 40 + 3] ^= 0x5a;	/* a byte of the first tuple */
	heappage_walk(p, BS, 4, false, &b);
	assert_int_not_equal(a.value, b.value);
}

static void skipped_items(void **state)
{
	static unsigned char p[BS];
	unsigned flags[4] = { 1, 3, 0, 1 };	/* normal, dead, unused, normal */
	struct heappage_walk w = { 0 };
	uint32_t past = (BS - 10) | 1u << 15 | 36u << 17;

	(void)state;
	make_page(p, 4, 36, flags);
	heappage_walk(p, BS, 4, true, &w);
	assert_int_equal(w.tuples, 2);
	assert_int_equal(w.bytes, 24 + 4 * 4 + 2 * 36);
	memcpy(p + 24, &past, 4);	/* the first item now runs past the block */
	memset(&w, 0, sizeof(w));
	heappage_walk(p, BS, 4, true, &w);
	assert_int_equal(w.tuples, 1);
}

static void not_a_page(void **state)
{
	static unsigned char p[BS];
	struct heappage_walk w = { 0 };
	uint16_t lower = 9000;

	(void)state;
	memset(p, 0xab, BS);
	memcpy(p + 12, &lower, 2);	/* pd_lower past the block */
	heappage_walk(p, BS, 5, true, &w);
	assert_int_equal(w.tuples, 0);
	assert_int_equal(w.bytes, 24);
	lower = 10;	/* inside the header */
	memcpy(p + 12, &lower, 2);
	heappage_walk(p, BS, 5, true, &w);
	assert_int_equal(w.bytes, 48);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_and_lossy),
		cmocka_unit_test(the_value_depends_on_the_bytes),
		cmocka_unit_test(skipped_items),
		cmocka_unit_test(not_a_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
