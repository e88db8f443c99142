/*
 * gen: splitmix64 as a counter-based generator for the data set's minor
 * column, and the binary COPY encoding of (major int4, minor int4) rows.
 */
#include "bench/dataset/generator.h"

#include <math.h>
#include <string.h>

#include "io/rng.h"

double gen_uniform(uint64_t seed, uint64_t i)
{
	uint64_t z = rng_mix64(seed ^ 0x5eed5eed5eed5eedULL) + (i + 1) * 0x9e3779b97f4a7c15ULL;

	return (double)(rng_mix64(z) >> 11) * 0x1p-53;
}

int gen_minor(uint64_t seed, uint64_t i)
{
	/* rint, as PostgreSQL rounds float8 to int4 */
	return (int)rint(gen_uniform(seed, i) * 1000.0);
}

static char *put16(char *p, uint16_t v)
{
	p[0] = (char)(v >> 8);
	p[1] = (char)v;
	return p + 2;
}

static char *put32(char *p, uint32_t v)
{
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
	return p + 4;
}

size_t gen_copy_header(char *buf)
{
	static const char sig[11] = "PGCOPY\n\377\r\n";	/* includes the \0 */
	char *p = buf;

	memcpy(p, sig, 11);
	p = put32(p + 11, 0);	/* flags */
	p = put32(p, 0);	/* header extension length */
	return (size_t)(p - buf);
}

size_t gen_copy_trailer(char *buf)
{
	put16(buf, 0xffff);
	return 2;
}

size_t gen_copy_rows(uint64_t seed, uint64_t first, size_t count, char *buf)
{
	char *p = buf;

	for (size_t k = 0; k < count; k++) {
		uint64_t i = first + k;

		p = put16(p, 2);
		p = put32(p, 4);
		p = put32(p, (uint32_t)i);
		p = put32(p, 4);
		p = put32(p, (uint32_t)gen_minor(seed, i));
	}
	return (size_t)(p - buf);
}
