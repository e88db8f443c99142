/*
 * heappage: the backend's reading of a heap page it scans, reproduced on
 * the block just read: the page header, then for each tuple the scan walks
 * its line pointer and the tuple's bytes (every tuple of a lossy page, whose
 * rows are all rechecked; the first NTUPLES of an exact one, where the test
 * table's matching rows lie next to one another). The layout read is
 * PostgreSQL's page format: pd_lower at byte 12 ends the line pointers,
 * which start at byte 24, 4 bytes each (offset: 15 bits, flags: 2, length:
 * 15); only normal items (flags 1) that lie inside the block are read. A
 * block not in that format yields its header alone. Pure computation.
 */
#ifndef IO_ENGINES_HEAPPAGE_H
#define IO_ENGINES_HEAPPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heappage_walk {
	uint64_t bytes;                /* the header, line pointers and tuple bytes read */
	uint64_t tuples;               /* tuples read */
	uint64_t value;                /* what the reading computed; kept so it is done */
};

/* Read page P (BLOCK_BYTES) as a scan walking NTUPLES tuples (all if LOSSY); adds to W. */
void heappage_walk(const void *p, size_t block_bytes, uint32_t ntuples, bool lossy,
		   struct heappage_walk *w);

#endif
