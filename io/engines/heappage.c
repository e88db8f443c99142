/*
 * heappage: a heap page read as the scan reads it; see heappage.h.
 */
#include "io/engines/heappage.h"

#include <string.h>

#define HEADER_BYTES 24
#define LOWER_AT     12
#define ITEM_BYTES   4
#define ITEM_NORMAL  1

static uint16_t u16_at(const unsigned char *p, size_t off)
{
	uint16_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

void heappage_walk(const void *page, size_t block_bytes, uint32_t ntuples, bool lossy,
		   struct heappage_walk *w)
{
	const unsigned char *p = page;
	uint64_t v = 0;
	size_t lower, nitems, want;

	for (size_t i = 0; i < HEADER_BYTES; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		v = v * 31 + x;
	}
	w->bytes += HEADER_BYTES;
	lower = u16_at(p, LOWER_AT);
	nitems = lower >= HEADER_BYTES && lower <= block_bytes ? (lower - HEADER_BYTES) / ITEM_BYTES : 0;
	want = lossy || ntuples > nitems ? nitems : ntuples;
	for (size_t i = 0; i < want; i++) {
		uint32_t item, off, len;

		memcpy(&item, p + HEADER_BYTES + i * ITEM_BYTES, ITEM_BYTES);
		off = item & 0x7fff;
		len = item >> 17;
		w->bytes += ITEM_BYTES;
		if (((item >> 15) & 3) != ITEM_NORMAL || off + len > block_bytes)
			continue;
		for (uint32_t k = 0; k < len; k += 8) {	/* word by word, the last one partly */
			uint64_t x = 0;

			memcpy(&x, p + off + k, len - k < 8 ? len - k : 8);
			v += x;
		}
		w->bytes += len;
		w->tuples++;
	}
	w->value += v;
}
