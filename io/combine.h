/*
 * combine: adjacent blocks into one read, as PostgreSQL 18's read stream does
 * before it starts an I/O. Blocks are taken from a sequence in order; a block
 * that directly follows the pending read's last block, in the same file,
 * extends it up to a limit of blocks (io_combine_limit); any other block (a
 * gap, a step back, a repeat, the first block of the next segment file) ends
 * the read and starts the next one. Bookkeeping only: no I/O, no allocation.
 */
#ifndef IO_COMBINE_H
#define IO_COMBINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/blocks.h"

struct combine {
	struct blocks         *seq;         /* borrowed: the sequence drawn from */
	const struct blockmap *map;         /* where files begin and end */
	unsigned               max_blocks;  /* blocks per read at most, >= 1 */
	bool                   have_next;   /* a block drawn that no read holds yet */
	uint64_t               next;
};

void combine_init(struct combine *c, struct blocks *seq,
		  const struct blockmap *map, unsigned max_blocks);

/*
 * The next read: its first block, file and offset, and the number of blocks it
 * covers (returned), at most max_blocks and at most LIMIT (>= 1). A block
 * drawn that does not extend the read is kept for the next call.
 */
unsigned combine_next(struct combine *c, unsigned limit, uint64_t *first,
		      unsigned *file, off_t *offset);

#endif
