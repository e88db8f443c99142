/*
 * tpcb_random: the random numbers of TPC-B scripts, drawn as pgbench draws
 * them so that a script gives the same distributions here and there: the
 * generator is xoroshiro128** seeded through splitmix64 (both published by
 * Blackman and Vigna), uniform ranges by bitmask rejection, doubles from 52
 * bits, normals by Box-Muller, and pgbench's formulas for the exponential,
 * gaussian, zipfian (Devroye's rejection method) and Poisson draws, the
 * FNV-1a and MurmurHash2 hashes and the keyed permutation. Written here from
 * the algorithms; with the same seed and the same order of draws the values
 * are pgbench's own. Nothing here allocates; no state but the caller's.
 */
#ifndef BENCH_TPCB_TPCB_RANDOM_H
#define BENCH_TPCB_TPCB_RANDOM_H

#include <stdint.h>

#define TPCB_GAUSSIAN_MIN  2.0      /* smallest parameter of random_gaussian */
#define TPCB_ZIPFIAN_MIN   1.001    /* range of random_zipfian's parameter */
#define TPCB_ZIPFIAN_MAX   1000.0

struct tpcb_prng {
	uint64_t s0, s1;                /* never both zero */
};

/* Seed R from SEED (any value): two splitmix64 outputs. */
void tpcb_prng_seed(struct tpcb_prng *r, uint64_t seed);

static inline uint64_t tpcb_prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The next 64 bits. */
static inline uint64_t tpcb_prng_u64(struct tpcb_prng *r)
{
	uint64_t s0 = r->s0, sx = r->s1 ^ s0, v = tpcb_prng_rotl(s0 * 5, 7) * 9;

	r->s0 = tpcb_prng_rotl(s0, 24) ^ sx ^ (sx << 16);
	r->s1 = tpcb_prng_rotl(sx, 37);
	return v;
}

/* Uniform in [LO, HI] (LO <= HI), by rejecting draws above the range's mask. */
static inline uint64_t tpcb_prng_range(struct tpcb_prng *r, uint64_t lo, uint64_t hi)
{
	uint64_t range = hi - lo, v;
	int shift;

	if (hi <= lo)
		return lo;
	shift = __builtin_clzll(range);
	do
		v = tpcb_prng_u64(r) >> shift;
	while (v > range);
	return lo + v;
}

/* Uniform in [0, 1), 52 bits. */
static inline double tpcb_prng_double(struct tpcb_prng *r)
{
	return (double)(tpcb_prng_u64(r) >> 12) * 0x1p-52;
}

/* A standard normal value (Box-Muller, one of the pair). */
double tpcb_prng_normal(struct tpcb_prng *r);

/* random(MIN, MAX): uniform, inclusive; MAX - MIN must fit in int64. */
static inline int64_t tpcb_rand_uniform(struct tpcb_prng *r, int64_t min, int64_t max)
{
	return min + (int64_t)tpcb_prng_range(r, 0, (uint64_t)max - (uint64_t)min);
}

/* random_exponential(MIN, MAX, PARAM > 0): the density at MAX is exp(-PARAM) of MIN's. */
int64_t tpcb_rand_exponential(struct tpcb_prng *r, int64_t min, int64_t max, double param);
/* random_gaussian(MIN, MAX, PARAM >= 2): a normal cut at PARAM deviations each side. */
int64_t tpcb_rand_gaussian(struct tpcb_prng *r, int64_t min, int64_t max, double param);
/* random_zipfian(MIN, MAX, S in [1.001, 1000]): value k - MIN + 1 has weight k^-S. */
int64_t tpcb_rand_zipfian(struct tpcb_prng *r, int64_t min, int64_t max, double s);
/* A Poisson-process gap around CENTER (-R's schedule), rounded. */
int64_t tpcb_rand_poisson(struct tpcb_prng *r, double center);

int64_t tpcb_hash_fnv1a(int64_t v, uint64_t seed);
int64_t tpcb_hash_murmur2(int64_t v, uint64_t seed);
/* permute(V, SIZE > 0, SEED): V mod SIZE moved by a keyed bijection of [0, SIZE). */
int64_t tpcb_permute(int64_t v, int64_t size, int64_t seed);

#endif
