/*
 * replay: a bitmap heap scan's reads issued on the relation's own files, as
 * PostgreSQL issues them, with the backend's work between them, timed. Up
 * to 17 the scan of io/engines/bitmapscan.h: one pread(2) of one block per
 * page not in shared buffers, one POSIX_FADV_WILLNEED of one block per page
 * the prefetch ramp advises. On 18 the read stream of
 * io/engines/readstream.h, carried out per io_method: sync (advice when the
 * read starts, one pread of the combined blocks when the consumer reaches
 * it), io_uring (reads queued in a ring of io_max_concurrency entries,
 * submitted when a look-ahead ends; as PostgreSQL 18 does, a read submitted
 * while more than REPLAY_URING_INLINE are in flight is marked IOSQE_ASYNC,
 * so the kernel's io-wq threads perform it, blocking, where the others are
 * started in the submitting thread; when the consumer waits, every
 * completion then in the ring is reaped) or worker (io_workers threads taking
 * reads from a queue, each waking up to two idle peers, as PostgreSQL's I/O
 * workers do); with effective_io_concurrency 0 every method reads
 * synchronously in the scanning thread. On 18 with data checksums the thread
 * that completes a read (the scanning thread, or a worker) also does the
 * verification's work on its blocks. Reads land in a fresh shared mapping
 * the size of shared_buffers, one buffer after the other as a restarted
 * server hands them out, so the first touch of each costs what it costs the
 * backend. After each page the scanning thread reads the page's tuples
 * where the block was read to, as the backend's scan reads them
 * (heappage.h), and spins on the CPU for the rest of the page's share of the
 * backend's work (like fio's thinktime_spin): reading the page, not only
 * spinning, is what makes the kernel's next copy cost what it costs the
 * backend (docs/measured.md). Files are read buffered, never written; this module
 * never prints. Times in ms, CPU from getrusage(RUSAGE_THREAD) and
 * /proc/thread-self/schedstat.
 */
#ifndef IO_ENGINES_REPLAY_H
#define IO_ENGINES_REPLAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/blocks.h"
#include "io/engines/bitmapscan.h"
#include "io/engines/heappage.h"
#include "io/engines/readstream.h"
#include "io/sysstat.h"

#define REPLAY_MAX_WORKERS 32          /* io_workers' maximum */
#define REPLAY_SUBMIT_BATCH 32         /* reads staged before a submit is forced */
#define REPLAY_URING_INLINE 4          /* io_uring: reads in flight (submitted, not reaped)
					  up to which a buffered read is started in the
					  submitting thread; past it, IOSQE_ASYNC */

enum replay_model { REPLAY_PG13_17, REPLAY_PG18 };
enum replay_method { REPLAY_SYNC, REPLAY_IO_URING, REPLAY_WORKER };

struct replay_config {
	const struct blockmap   *map;          /* the relation's segments, opened buffered */
	const struct scan_block *pages;        /* the scan's pages in order; blocks < map->nblocks */
	size_t                   npages;
	enum replay_model        model;
	unsigned                 eic;          /* effective_io_concurrency in force */
	enum replay_method       method;       /* 18: io_method */
	unsigned                 combine_limit;   /* 18: io_combine_limit in blocks */
	unsigned                 pin_limit;    /* 18: the backend's share of shared buffers, 0 = none */
	unsigned                 io_workers;   /* 18, worker: threads (1..REPLAY_MAX_WORKERS) */
	unsigned                 ring_entries; /* 18, io_uring: the ring's size (io_max_concurrency),
						    which also bounds the kernel's io-wq threads;
						    0 = as many as reads in flight */
	uint64_t                 work_ns_per_page;   /* the backend's CPU per page, spent after it, */
	double                   work_ns_per_tuple;  /* and per tuple the page has in the scan */
	bool                     verify_blocks;  /* 18 with data checksums: whoever completes a
						    read verifies its blocks (io/engines/pagesum.h) */
	unsigned                 pool_blocks;  /* shared_buffers in blocks: reads go into fresh
						  shared memory of that size, block after block, as
						  into a restarted server's buffers; 0 = one buffer */
	unsigned                 pool_touched; /* of those, the first blocks in use before the
						  clock starts, as the query's index phase used the
						  server's buffers (those the reads will reach are
						  written, by the kernel as reads write them); the
						  reads start after them */
	const char              *disk_name;    /* /proc/diskstats name; NULL = none */
	const char              *disk_file;    /* a published device's diskstats (an emulated
						  device's), NULL or "" = /proc/diskstats */
	const volatile sig_atomic_t *stop;     /* may be NULL */
};

struct replay_result {
	double   elapsed_ms;                   /* the whole scan: the predicted heap phase */
	double   wait_ms;                      /* the scanning thread in reads and waits for them */
	double   advise_ms;                    /* ... in posix_fadvise */
	double   work_ms;                      /* ... spinning for the backend's work */
	uint64_t reads, read_blocks;           /* reads issued (a read covers read_blocks / reads) */
	uint64_t advices;
	uint64_t async_reads;                  /* 18, io_uring: reads marked IOSQE_ASYNC */
	unsigned ring_max_unreaped;            /* 18, io_uring: the most reads queued or in
						  flight whose completions were not reaped */
	struct readstream_stats stream;        /* 18 */
	double   user_ms, system_ms;           /* the scanning thread's CPU */
	uint64_t minor_faults;                 /* and its page faults (fresh pool memory among them) */
	double   oncpu_ms, runqueue_ms;        /* its schedstat: on a CPU, waiting for one */
	bool     have_schedstat;
	double   workers_cpu_ms;               /* the worker threads' CPU (worker) */
	bool     have_disk;
	struct disk_delta disk;
	bool     stopped;
	uint32_t sums;                         /* the verification's values, kept so it is done */
	struct heappage_walk walk;             /* the pages' tuples read, part of the work */
};

/* The names of the models and methods in records ("13-17", "18"; "sync", ...). */
const char *replay_model_name(enum replay_model m);
const char *replay_method_name(enum replay_method m);
/* The method called NAME; -EINVAL if none. */
int replay_method_find(const char *name, enum replay_method *out);

/*
 * Run the replay. 0, or -errno with ERR saying what failed (a read, the
 * ring, a thread); -EINTR when STOP was raised (RES then holds the part
 * done, res->stopped set).
 */
int replay_run(const struct replay_config *cfg, struct replay_result *res,
	       char *err, size_t errlen);

#endif
