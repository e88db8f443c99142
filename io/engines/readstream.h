/*
 * readstream: PostgreSQL 18's read stream (storage/aio/read_stream.c) as it
 * feeds a bitmap heap scan, as a state machine without I/O. The stream asks
 * for pages in order and merges neighbours (consecutive block numbers in one
 * segment) into one read of up to combine_limit blocks; it looks ahead
 * `distance` pinned blocks, which starts at 1, doubles each time the
 * consumer waits for a read and drops by one for each block found in
 * shared buffers; at most max_ios reads are in flight (effective_io_
 * concurrency; 0 means one read at a time, executed synchronously) and at
 * most max_pinned blocks pinned ((max_ios + 1) x combine_limit, within the
 * backend's share of shared buffers). With io_method = sync and max_ios > 0
 * a read gives advice when it starts, for non-sequential access only: from
 * a jump until the reads catch up with the first advice given after it.
 *
 * The caller's ops carry the reads out: start() when a read is issued
 * (advice, a queued read, or the read itself when synchronous), wait()
 * when the consumer reaches its first block, work() for each page consumed.
 */
#ifndef IO_ENGINES_READSTREAM_H
#define IO_ENGINES_READSTREAM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/engines/bitmapscan.h"

#define READSTREAM_REFCOUNT_ENTRIES 8   /* pins a backend holds before it counts them */

struct readstream_cfg {
	unsigned max_ios;              /* effective_io_concurrency (0: synchronous, one at a time) */
	unsigned combine_limit;        /* io_combine_limit in blocks, 1..128 */
	unsigned pin_limit;            /* the backend's share of shared buffers; 0 = none */
	unsigned seg_blocks;           /* blocks per segment file (a read never crosses one); 0 = none */
	bool     advice;               /* io_method = sync: advice for non-sequential reads */
};

struct readstream_ops {
	/* A read of N pages from page IDX starts; ADVICE: give it first;
	 * SYNCHRONOUS: the read is done now, in the caller (max_ios 0). */
	int (*start)(void *arg, size_t idx, unsigned n, bool advice, bool synchronous);
	/* The consumer waits for the read that starts at page IDX. */
	int (*wait)(void *arg, size_t idx, unsigned n);
	/* Submit the reads started since the last call (batch mode ends). */
	int (*submit)(void *arg);                 /* optional */
	int (*work)(void *arg, size_t idx);
};

/* What the stream did, for tests and for the record. */
struct readstream_stats {
	uint64_t ios, io_blocks, hits, advices;
	unsigned max_distance, max_ios_in_flight, max_pinned_seen;
	unsigned max_pinned;           /* the cap the stream computed */
};

/* The most blocks the stream pins at once, and so the most reads in flight
 * with max(1, max_ios) (each read pins at least one). */
unsigned readstream_max_pinned(const struct readstream_cfg *cfg);

/*
 * Stream the N pages of PAGES to the consumer, in order. STATS may be NULL.
 * STOP (may be NULL) ends it between pages with -EINTR. 0 or -errno.
 */
int readstream_run(const struct scan_block *pages, size_t n, const struct readstream_cfg *cfg,
		   const struct readstream_ops *ops, void *arg,
		   const volatile sig_atomic_t *stop, struct readstream_stats *stats);

#endif
