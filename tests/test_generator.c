/*
 * test_gen: the data set's generator: reproducible per seed and row, other
 * seeds differ, minor is uniform over 0..1000 with half weight at the ends
 * (as random()*1000 rounded), and the binary COPY encoding is byte-exact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "bench/dataset/generator.h"

static void reproducible(void **state)
{
	int same = 0;

	(void)state;
	for (uint64_t i = 0; i < 1000; i++) {
		assert_int_equal(gen_minor(42, i), gen_minor(42, i));
		same += gen_minor(42, i) == gen_minor(43, i);
	}
	/* another seed is another sequence: about 1 in 1000 agree by chance */
	assert_true(same < 10);
	/* the values themselves are fixed forever: tables on two machines agree */
	assert_int_equal(gen_minor(1, 0), (int)rint(gen_uniform(1, 0) * 1000));
}

static void uniform(void **state)
{
	enum { N = 2000000 };
	static unsigned counts[1001];
	double sum = 0, chi = 0;

	(void)state;
	memset(counts, 0, sizeof(counts));
	for (uint64_t i = 0; i < N; i++) {
		int m = gen_minor(7, i);

		assert_true(m >= 0 && m <= 1000);
		counts[m]++;
		sum += m;
	}
	assert_float_equal(sum / N, 500.0, 1.0);
	/* interior values have weight 1/1000, the ends 1/2000 */
	for (int m = 0; m <= 1000; m++) {
		double expect = (m == 0 || m == 1000) ? N / 2000.0 : N / 1000.0;

		chi += (counts[m] - expect) * (counts[m] - expect) / expect;
	}
	/* 1000 degrees of freedom: the 99.9th percentile is about 1143 */
	assert_true(chi < 1143);
	assert_true(counts[0] > 700 && counts[0] < 1300);
	assert_true(counts[1000] > 700 && counts[1000] < 1300);
}

static void copy_encoding(void **state)
{
	static const unsigned char header[GEN_COPY_HEADER_BYTES] = {
		'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	unsigned char buf[64];
	int m = gen_minor(5, 258);

	(void)state;
	assert_int_equal(gen_copy_header((char *)buf), GEN_COPY_HEADER_BYTES);
	assert_memory_equal(buf, header, GEN_COPY_HEADER_BYTES);
	assert_int_equal(gen_copy_rows(5, 258, 1, (char *)buf), GEN_COPY_ROW_BYTES);
	const unsigned char row[GEN_COPY_ROW_BYTES] = { 0, 2, 0, 0, 0, 4, 0, 0, 1, 2,
		0, 0, 0, 4, 0, 0, (unsigned char)(m >> 8), (unsigned char)m };
	assert_memory_equal(buf, row, GEN_COPY_ROW_BYTES);
	assert_int_equal(gen_copy_rows(5, 0, 3, (char *)buf), 3 * GEN_COPY_ROW_BYTES);
	assert_int_equal(gen_copy_trailer((char *)buf), 2);
	assert_int_equal(buf[0], 0xff);
	assert_int_equal(buf[1], 0xff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reproducible),
		cmocka_unit_test(uniform),
		cmocka_unit_test(copy_encoding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
