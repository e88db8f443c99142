/*
 * combine: runs of adjacent blocks from a sequence, cut at the combine limit,
 * at a caller's limit and at file ends; see combine.h.
 */
#include "io/combine.h"

void combine_init(struct combine *c, struct blocks *seq,
		  const struct blockmap *map, unsigned max_blocks)
{
	*c = (struct combine){
		.seq = seq, .map = map, .max_blocks = max_blocks ? max_blocks : 1,
	};
}

/* The next block: the one kept from the last call, or a new one. */
static uint64_t draw(struct combine *c)
{
	if (c->have_next) {
		c->have_next = false;
		return c->next;
	}
	return blocks_next(c->seq);
}

unsigned combine_next(struct combine *c, unsigned limit, uint64_t *first,
		      unsigned *file, off_t *offset)
{
	const struct blockmap_file *f;
	unsigned n = 1, max = limit < c->max_blocks ? limit : c->max_blocks;
	uint64_t end;

	*first = draw(c);
	blockmap_locate(c->map, *first, file, offset);
	f = &c->map->files[*file];
	end = f->first_block + f->nblocks;          /* first block of the next file */
	while (n < max) {
		uint64_t b = draw(c);
		if (b != *first + n || b >= end) {
			c->next = b;
			c->have_next = true;
			break;
		}
		n++;
	}
	return n;
}
