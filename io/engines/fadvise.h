/*
 * fadvise: PostgreSQL's bitmap heap scan prefetch (up to 17) as a state
 * machine, kept apart from I/O so it can be tested. A second iterator runs
 * ahead of the reader; the target distance starts at -1 and ramps 0, 1, 2, 4,
 * ... doubling until past half of the maximum, then jumps to the maximum;
 * it also grows by one for each tuple the scan takes from the page it has
 * read (BitmapHeapNext's "continuing in previously obtained page"). After
 * the block is read, and again after each of its tuples, blocks are taken
 * from the iterator until `pages` (advised but not yet read) reaches the
 * target: one advice each. The probe's fadvise engine reads blocks with one
 * tuple each; the heap-scan replay (io/engines/bitmapscan.h) gives each
 * page its own count.
 */
#ifndef IO_ENGINES_FADVISE_H
#define IO_ENGINES_FADVISE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/blocks.h"

struct fadvise_ramp {
	int           target;          /* current distance, -1 at start */
	int           max;             /* effective_io_concurrency, >= 0 */
	int           pages;           /* advised blocks the reader has not reached */
	struct blocks it;              /* the prefetch iterator */
	uint64_t      taken;           /* blocks taken from it */
	uint64_t      limit;           /* stop taking after this many, 0 = never */
};

void fadvise_ramp_init(struct fadvise_ramp *r, const struct blocks *seq,
		       int max, uint64_t limit);
/* The target after one more block is read (PostgreSQL's AdjustPrefetchTarget). */
int fadvise_ramp_next_target(int target, int max);
/* The reader is about to read its next block: keep the iterator level. */
void fadvise_ramp_before_read(struct fadvise_ramp *r);
/* The reader has read its block: raise the target. */
void fadvise_ramp_after_read(struct fadvise_ramp *r);
/* The reader took one more tuple from its page (or looked for one and found
 * none): the target grows by one, up to the maximum. */
void fadvise_ramp_tuple(struct fadvise_ramp *r);
/* The next block to advise, while pages < target; false when none is due. */
bool fadvise_ramp_take(struct fadvise_ramp *r, uint64_t *block);

#endif
