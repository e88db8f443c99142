/*
 * test_rng: the generators give the published reference outputs (splitmix64
 * from seed 1234567; xoshiro256** from the state {1, 2, 3, 4}), one seed
 * gives one stream, and rng_below and rng_double stay in range.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "io/rng.h"

static void splitmix_reference(void **state)
{
	static const uint64_t want[] = { UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
		UINT64_C(9817491932198370423), UINT64_C(4593380528125082431),
		UINT64_C(16408922859458223821) };
	uint64_t s = 1234567;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_true(rng_splitmix64(&s) == want[i]);
}

static void xoshiro_reference(void **state)
{
	static const uint64_t want[] = { 11520, 0, 1509978240, UINT64_C(1215971899390074240) };
	struct rng r = { { 1, 2, 3, 4 } };

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_true(rng_next(&r) == want[i]);
}

static void seeded_ranges(void **state)
{
	struct rng a, b, c;
	int same = 0, seen[10] = { 0 };

	(void)state;
	rng_seed(&a, 7);
	rng_seed(&b, 7);
	rng_seed(&c, 8);
	for (int i = 0; i < 10000; i++) {
		uint64_t x = rng_below(&a, 10);
		double d = rng_double(&c);

		assert_true(x == rng_below(&b, 10));
		assert_true(x < 10);
		assert_true(d >= 0.0 && d < 1.0);
		seen[x]++;
		same += rng_below(&c, 1000) == rng_below(&a, 1000);
		rng_next(&b);	/* keep b in step with a */
	}
	for (int k = 0; k < 10; k++)	/* 1000 expected each; 5 sigma is 150 */
		assert_true(seen[k] > 850 && seen[k] < 1150);
	assert_true(same < 50);	/* another seed, another stream: 10 expected */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(splitmix_reference),
		cmocka_unit_test(xoshiro_reference),
		cmocka_unit_test(seeded_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
