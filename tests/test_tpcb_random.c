/*
 * test_tpcb_random: the generator's first outputs for a seed (checked
 * against an independent implementation of splitmix64 and xoroshiro128**),
 * ranges that stay inside their bounds, uniformity by a chi-square test,
 * the non-uniform draws against their distributions' own figures (means,
 * the zipfian's ratio of 1 to 2), the hashes' known values and the
 * permutation a bijection for every size tried. The comparison with
 * pgbench's own draws is an integration test (tests/it/pgbench_random.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tpcb/tpcb_random.h"

static void known_outputs(void **state)
{
	struct tpcb_prng r, again;

	(void)state;
	tpcb_prng_seed(&r, 42);
	again = r;
	assert_int_equal(tpcb_prng_u64(&r), UINT64_C(0x69e85b3631381baa));
	assert_int_equal(tpcb_prng_u64(&r), UINT64_C(0x3bc32c541d626e1d));
	assert_int_equal(tpcb_prng_u64(&r), UINT64_C(0x3e35de64b3b378d8));
	assert_int_equal(tpcb_prng_u64(&again), UINT64_C(0x69e85b3631381baa));
}

static void ranges(void **state)
{
	struct tpcb_prng r;
	int counts[10] = { 0 }, n = 200000;
	double chi2 = 0;

	(void)state;
	tpcb_prng_seed(&r, 7);
	for (int i = 0; i < n; i++) {
		int64_t v = tpcb_rand_uniform(&r, 1, 10);

		assert_true(v >= 1 && v <= 10);
		counts[v - 1]++;
	}
	for (int i = 0; i < 10; i++)
		chi2 += pow(counts[i] - n / 10.0, 2) / (n / 10.0);
	assert_true(chi2 < 27.9);	/* 9 degrees of freedom, p = 0.001 */
	for (int i = 0; i < 1000; i++) {
		int64_t v = tpcb_rand_uniform(&r, INT64_MIN / 2, INT64_MAX / 2);
		double d = tpcb_prng_double(&r);

		assert_true(v >= INT64_MIN / 2 && v <= INT64_MAX / 2);
		assert_true(d >= 0 && d < 1);
		assert_int_equal(tpcb_rand_uniform(&r, 5, 5), 5);
	}
}

static void distributions(void **state)
{
	struct tpcb_prng r;
	double sum_g = 0, sum_e = 0, sum_p = 0;
	long ones = 0, twos = 0;
	int n = 200000;
	/* exponential on [0, 1) cut at exp(-p): mean 1/p - cut/(1 - cut) */
	double p = 2.0, cut = exp(-p), mean_e = 1 / p - cut / (1 - cut);

	(void)state;
	tpcb_prng_seed(&r, 11);
	for (int i = 0; i < n; i++) {
		int64_t g = tpcb_rand_gaussian(&r, 1, 1000, 2.5);
		int64_t e = tpcb_rand_exponential(&r, 0, 999999, p);
		int64_t z = tpcb_rand_zipfian(&r, 1, 100, 1.5);

		assert_true(g >= 1 && g <= 1000);
		assert_true(e >= 0 && e <= 999999);
		assert_true(z >= 1 && z <= 100);
		sum_g += (double)g;
		sum_e += (double)e / 1e6;
		ones += z == 1;
		twos += z == 2;
		sum_p += (double)tpcb_rand_poisson(&r, 1000);
	}
	assert_float_equal(sum_g / n, 500.5, 2.0);
	assert_float_equal(sum_e / n, mean_e, 0.005);
	assert_float_equal((double)ones / (double)twos, pow(2, 1.5), 0.1);	/* weight k^-s */
	assert_float_equal(sum_p / n, 1000, 10);
}

static void hashes(void **state)
{
	(void)state;
	assert_int_equal(tpcb_hash_murmur2(0, 0), INT64_C(8217090173679840641));
	assert_int_equal(tpcb_hash_murmur2(12345, 6789), INT64_C(-6709688396115198884));
	assert_int_equal(tpcb_hash_fnv1a(0, 0), INT64_C(-6284781860667377211));
	assert_true(tpcb_hash_fnv1a(1, 0) != tpcb_hash_fnv1a(1, 1));
}

static void permutations(void **state)
{
	static const int64_t sizes[] = { 2, 3, 4, 5, 7, 8, 100, 1000, 4097 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int64_t n = sizes[k];
		bool *seen = calloc((size_t)n, sizeof(*seen));

		for (int64_t v = 0; v < n; v++) {
			int64_t p = tpcb_permute(v, n, 12345);

			assert_true(p >= 0 && p < n);
			assert_false(seen[p]);
			seen[p] = true;
			assert_int_equal(tpcb_permute(v + n, n, 12345), p);	/* modulo the size */
		}
		free(seen);
	}
	assert_int_equal(tpcb_permute(17, 1, 3), 0);
	assert_true(tpcb_permute(5, 1000, 1) != tpcb_permute(5, 1000, 2) ||
		    tpcb_permute(6, 1000, 1) != tpcb_permute(6, 1000, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_outputs),
		cmocka_unit_test(ranges),
		cmocka_unit_test(distributions),
		cmocka_unit_test(hashes),
		cmocka_unit_test(permutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
