/*
 * pagesum: the verification work of a block; see pagesum.h.
 */
#include "io/engines/pagesum.h"

#include <string.h>

#define LANES 32
#define PRIME 16777619u

static uint32_t one_block(const unsigned char *p, size_t bytes)
{
	uint32_t lane[LANES], w, sum = 0;

	for (unsigned j = 0; j < LANES; j++)
		lane[j] = 0x9e3779b9u * (j + 1);
	for (size_t off = 0; off + LANES * 4 <= bytes; off += LANES * 4)
		for (unsigned j = 0; j < LANES; j++) {
			memcpy(&w, p + off + 4 * j, 4);
			lane[j] = ((lane[j] ^ w) * PRIME) ^ (((lane[j] ^ w) * PRIME) >> 17);
		}
	for (unsigned j = 0; j < LANES; j++)
		sum ^= lane[j];
	return sum;
}

uint32_t pagesum(const void *buf, size_t len, size_t block_bytes)
{
	const unsigned char *p = buf;
	uint32_t sum = 0;

	for (size_t off = 0; block_bytes && off + block_bytes <= len; off += block_bytes)
		sum += one_block(p + off, block_bytes);
	return sum;
}
