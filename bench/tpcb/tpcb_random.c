/*
 * tpcb_random: seeding, the non-uniform draws, hashes and the permutation;
 * see tpcb_random.h. Integer arithmetic that may wrap is done unsigned.
 */
#include "bench/tpcb/tpcb_random.h"

#include <math.h>

#define FNV_PRIME        UINT64_C(0x100000001b3)
#define FNV_OFFSET       UINT64_C(0xcbf29ce484222325)
#define MM2_MUL          UINT64_C(0xc6a4a7935bd1e995)
#define MM2_SEED_MIX     UINT64_C(0x35253c9ade8f4ca8)   /* MM2_MUL * 8: an 8-byte key */
#define MM2_ROT          47
#define PERMUTE_ROUNDS   6

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void tpcb_prng_seed(struct tpcb_prng *r, uint64_t seed)
{
	r->s0 = splitmix64(&seed);
	r->s1 = splitmix64(&seed);
	if (r->s0 == 0 && r->s1 == 0) {	/* any nonzero state will do */
		r->s0 = UINT64_C(0x5851f42d4c957f2d);
		r->s1 = UINT64_C(0x14057b7ef767814f);
	}
}

double tpcb_prng_normal(struct tpcb_prng *r)
{
	/* both uniforms in (0, 1]: log(0) never happens */
	double u1 = 1.0 - tpcb_prng_double(r), u2 = 1.0 - tpcb_prng_double(r);

	return sqrt(-2.0 * log(u1)) * sin(2.0 * M_PI * u2);
}

int64_t tpcb_rand_exponential(struct tpcb_prng *r, int64_t min, int64_t max, double param)
{
	double cut = exp(-param), u = 1.0 - tpcb_prng_double(r);
	double x = -log(cut + (1.0 - cut) * u) / param;	/* in [0, 1) */

	return min + (int64_t)((double)(max - min + 1) * x);
}

int64_t tpcb_rand_gaussian(struct tpcb_prng *r, int64_t min, int64_t max, double param)
{
	double z;

	do
		z = tpcb_prng_normal(r);
	while (z < -param || z >= param);
	return min + (int64_t)((double)(max - min + 1) * ((z + param) / (param * 2.0)));
}

/* 1..N with weight k^-S (S > 1), by rejection (Devroye 1986, pp. 550-551). */
static int64_t zipf(struct tpcb_prng *r, int64_t n, double s)
{
	double b = pow(2.0, s - 1.0), x, t, u, v;

	if (n <= 1)
		return 1;
	for (;;) {
		u = tpcb_prng_double(r);
		v = tpcb_prng_double(r);
		x = floor(pow(u, -1.0 / (s - 1.0)));
		t = pow(1.0 + 1.0 / x, s - 1.0);
		if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= (double)n)
			return (int64_t)x;
	}
}

int64_t tpcb_rand_zipfian(struct tpcb_prng *r, int64_t min, int64_t max, double s)
{
	return min - 1 + zipf(r, max - min + 1, s);
}

int64_t tpcb_rand_poisson(struct tpcb_prng *r, double center)
{
	double u = 1.0 - tpcb_prng_double(r);

	return (int64_t)(-log(u) * center + 0.5);
}

int64_t tpcb_hash_fnv1a(int64_t v, uint64_t seed)
{
	uint64_t h = FNV_OFFSET ^ seed, x = (uint64_t)v;

	for (int i = 0; i < 8; i++) {
		h ^= x & 0xff;
		h *= FNV_PRIME;
		x >>= 8;
	}
	return (int64_t)h;
}

int64_t tpcb_hash_murmur2(int64_t v, uint64_t seed)
{
	uint64_t h = seed ^ MM2_SEED_MIX, k = (uint64_t)v;

	k *= MM2_MUL;
	k ^= k >> MM2_ROT;
	k *= MM2_MUL;
	h ^= k;
	h *= MM2_MUL;
	h ^= h >> MM2_ROT;
	h *= MM2_MUL;
	h ^= h >> MM2_ROT;
	return (int64_t)h;
}

/* One multiply-xor-rotate step on the low MASK bits of V (odd M: a bijection). */
static uint64_t mix_low(uint64_t v, uint64_t m, uint64_t x, uint64_t mask, int bits)
{
	v = ((v * m) ^ x) & mask;
	return ((v << 1) & mask) | (v >> (bits - 1));
}

int64_t tpcb_permute(int64_t val, int64_t isize, int64_t seed)
{
	struct tpcb_prng r;
	uint64_t size = (uint64_t)isize, v, mask;
	int bits;

	if (isize < 2)
		return 0;
	tpcb_prng_seed(&r, (uint64_t)seed);
	v = (uint64_t)val % size;
	bits = 63 - __builtin_clzll(size);	/* the largest power of 2 <= size: 2^bits */
	mask = (UINT64_C(1) << bits) - 1;
	for (int i = 0; i < PERMUTE_ROUNDS; i++) {
		uint64_t m = (tpcb_prng_u64(&r) & mask) | 1, x = tpcb_prng_u64(&r) & mask, t;

		if (v <= mask)	/* the lower part of the range */
			v = mix_low(v, m, x, mask, bits);
		m = (tpcb_prng_u64(&r) & mask) | 1;
		x = tpcb_prng_u64(&r) & mask;
		t = size - 1 - v;
		if (t <= mask)	/* the upper part, overlapping it */
			v = size - 1 - mix_low(t, m, x, mask, bits);
		v = (v + tpcb_prng_range(&r, 0, size - 1)) % size;	/* a random offset */
	}
	return (int64_t)v;
}
