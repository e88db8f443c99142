/*
 * bitmapscan: the reads of a PostgreSQL bitmap heap scan as a sequence of
 * actions, without I/O, so that a test can check them and the replay
 * (io/engines/replay.h) can carry them out. The scan's pages come in the
 * bitmap's order, each with the tuples the scan walks on it (the matching
 * ones of an exact page, every tuple of a lossy page) and whether it is
 * already in shared buffers (never, in a cold run).
 *
 * Up to 17 (bitmapscan17_run): per page, the prefetch iterator keeps level
 * (io/engines/fadvise.h), the page is read with one read of one block, the
 * target grows by the page step, advice is given; then per tuple the
 * target grows by one and advice is given again; then the page's work.
 * A page with no tuples is read and left at once, without a target step or
 * advice (heapam's bitmap_next_block says there is nothing on it).
 * PostgreSQL 18 goes through the read stream instead (io/engines/readstream.h).
 */
#ifndef IO_ENGINES_BITMAPSCAN_H
#define IO_ENGINES_BITMAPSCAN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scan_block {
	uint64_t block;                /* block number in the relation */
	uint32_t ntuples;              /* tuples the scan walks on the page */
	bool     lossy;                /* the bitmap holds the page, not its tuples */
	bool     cached;               /* in shared buffers: no read, no advice */
};

/* What the scan does; each returns 0 or -errno (which ends the scan). */
struct scan17_ops {
	int (*read)(void *arg, size_t idx);        /* read page IDX: one block */
	int (*advise)(void *arg, size_t idx);      /* POSIX_FADV_WILLNEED for page IDX */
	int (*work)(void *arg, size_t idx);        /* the page's tuples, after its reads and advice */
};

/*
 * Scan the N pages of PAGES with a prefetch maximum of MAX
 * (effective_io_concurrency or the tablespace's; 0: no prefetching). STOP
 * (may be NULL) ends the scan between pages with -EINTR. 0 or -errno.
 */
int bitmapscan17_run(const struct scan_block *pages, size_t n, int max,
		     const struct scan17_ops *ops, void *arg,
		     const volatile sig_atomic_t *stop);

#endif
