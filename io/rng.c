/*
 * rng: the fresh seed (see rng.h); the generators are inline in the header.
 */
#include "io/rng.h"

#include <sys/random.h>
#include <time.h>
#include <unistd.h>

uint64_t rng_fresh_seed(uint64_t mask)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != sizeof(s))
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)clock();
	return s & mask;
}
