/*
 * workload_replay: the replay trial of a bitmap-scan sweep, the companion of
 * workload_bitmap (bench/sweep/runner.h runs one after the query trial of
 * the same value and round, each after its own cold cycle). Before the
 * first trial it asks the server which heap pages the query visits and how
 * many of its rows each holds (bench/observe/relblocks.h), runs the query
 * warm at effective_io_concurrency 0, once to fill the caches and three
 * times more, to learn the backend's work per page outside reads (the
 * median run's heap phase less its I/O read time, over its heap blocks),
 * the bitmap's exact and lossy page counts and the index phase's blocks,
 * and with lossy pages three times more with the bitmap exact, to split
 * that work between the page and the tuples it examines; it works out
 * which pages are lossy (bench/workloads/replay_pages.h), and opens the
 * relation's files. A trial opens the files
 * anew (the kernel keeps a file's readahead state with the open file, and
 * a backend opens them afresh after the cold start), reads the settings
 * in force (effective_io_concurrency, and on 18 io_method, io_combine_limit,
 * io_workers and the backend's pin share of shared_buffers), has the server
 * do the query's index phase (its first row: the bitmap built from the
 * index, as long after the cold start and with as much of the page cache
 * filled as in the query's trial) and advises the heap's files out of the
 * page cache, then replays the scan on the files (io/engines/replay.h) and
 * records what the replay and the device did.
 */
#ifndef BENCH_WORKLOADS_WORKLOAD_REPLAY_H
#define BENCH_WORKLOADS_WORKLOAD_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/observe/relblocks.h"
#include "bench/workloads/workloads.h"
#include "io/blocks.h"
#include "io/engines/bitmapscan.h"

struct replay_wcfg {
	/* found by the check (or taken from the plan on --resume) */
	struct relblocks   rb;
	struct scan_block *pages;
	size_t             npages;
	struct blockmap    map;
	bool               have_map;
	int64_t            exact_pages, lossy_pages;   /* the calibration's EXPLAIN */
	int64_t            index_blocks;               /* its index phase's blocks, hit or read */
	double             work_ns_per_page;           /* the warm runs' median, outside reads */
	long long          work_mem_bytes;             /* the session's, which the bitmap had; -1 */
	double             exact_work_ns;              /* per page with the bitmap exact; -1: not run */
	bool               lossy_used;                 /* the lossy pages simulated (replay_pages.h) */
	const char        *lossy_how;                  /* how they were found, for the records */
	int64_t            lossy_simulated;            /* the simulation's count; -1: not run */
	bool               work_split;                 /* the work per page split (replay_work_fit) */
	double             work_ns_fixed, work_ns_per_tuple;
	json_t            *calibration;
	const json_t      *resumed;    /* the plan's "replay" on --resume (borrowed) */
};

/* The backend's share of shared buffers in pins (18's GetPinLimit) from
 * the settings that size it. */
unsigned replay_pin_limit(long long shared_buffers_blocks, int max_connections,
			  int autovacuum_slots, int max_worker_processes, int max_wal_senders);

void replay_wcfg_free(struct replay_wcfg *w);

#endif
