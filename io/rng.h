/*
 * rng: the project's one family of seeded pseudo-random generators, the
 * same numbers on every machine for the same seed. splitmix64 (Steele, Lea
 * and Flood) seeds and serves counter-based draws (rng_mix64 of a counter);
 * xoshiro256** (Blackman and Vigna) is the stream generator for hot loops.
 * Both are written from the published algorithms. Not for secrets.
 * rng_fresh_seed is the one source of a seed nobody gave (the kernel's
 * random bytes), to be recorded so that the run can be repeated.
 */
#ifndef IO_RNG_H
#define IO_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];          /* xoshiro256** state; never all zero */
};

/* The splitmix64 finalizer: a bijective mix of Z. */
static inline uint64_t rng_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* splitmix64: advance *STATE by the golden gamma and mix it. */
static inline uint64_t rng_splitmix64(uint64_t *state)
{
	return rng_mix64(*state += UINT64_C(0x9e3779b97f4a7c15));
}

/* Seed R from SEED (any value, 0 included) through splitmix64. */
static inline void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The next 64 random bits. */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, result = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, N) by Lemire's multiply-shift (bias below N / 2^64). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* A new seed from getrandom(2) (the clock and pid if that fails), masked
 * to MASK so that it fits the option that can give it back. */
uint64_t rng_fresh_seed(uint64_t mask);

#endif
