/*
 * engine: the probe engine interface, an ops table in the manner of fio's
 * struct ioengine_ops. An engine reads whole blocks located by a blockmap into
 * caller-owned, aligned buffers (one per slot, depth slots). A read covers
 * io->nblocks adjacent blocks of one file: always 1, except for engines with
 * ENGINE_COMBINE, whose reads cover up to setup.max_blocks (the slot buffers
 * hold that many). `direct` (files opened O_DIRECT) and `depth` are options of
 * every engine, not engines. Synchronous engines complete a read inside
 * queue(); asynchronous ones queue it, commit() submits and waits, reap()
 * hands back finished slots. Every op returns 0 / a count, or -errno.
 * Engines never print.
 */
#ifndef IO_ENGINE_H
#define IO_ENGINE_H

#include <stdint.h>
#include <sys/types.h>

#include "io/blocks.h"

/* One read in flight: a slot owned by the probe, handed to the engine. */
struct engine_io {
	uint64_t block;                /* the first block read */
	off_t    offset;               /* of that block in its file */
	unsigned nblocks;              /* adjacent blocks read, all in one file */
	unsigned file;                 /* index into the blockmap's files */
	unsigned slot;                 /* index of this io and its buffer */
	void    *buf;                  /* max_blocks * block_bytes, aligned for O_DIRECT */
	int64_t  result;               /* bytes read, or -errno */
	uint64_t start_ns;             /* set by the probe */
};

struct engine_setup {
	const struct blockmap *map;
	const struct blocks   *seq;    /* the sequence the probe will read */
	uint64_t               limit;  /* reads the probe will issue, 0 = no limit */
	unsigned               depth;
	unsigned               max_blocks;   /* blocks a read covers at most (1 unless ENGINE_COMBINE) */
	uint32_t               block_bytes;
	struct engine_io      *ios;    /* depth slots with buffers */
};

struct engine {
	const struct engine_ops *ops;
	struct engine_setup      setup;
	void                    *priv;
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,          /* queue() completes the read itself */
	ENGINE_COMBINE = 1 << 1,       /* reads cover runs of adjacent blocks */
};

/* queue() results besides -errno. */
enum { ENGINE_QUEUED = 0, ENGINE_COMPLETED = 1 };

struct engine_ops {
	const char *name;
	const char *summary;
	unsigned    flags;
	unsigned    max_depth;         /* 0 = no limit of its own */
	int  (*init)(struct engine *e);            /* optional */
	int  (*queue)(struct engine *e, struct engine_io *io);
	/* Submit what was queued and wait until at least wait_nr have finished. */
	int  (*commit)(struct engine *e, unsigned wait_nr);
	/* Up to max finished ios into done[]; does not block. */
	int  (*reap)(struct engine *e, struct engine_io **done, unsigned max);
	/* After a finished read, outside the timed region (hints, prefetch). */
	int  (*advise)(struct engine *e, const struct engine_io *io);
	void (*cleanup)(struct engine *e);         /* optional */
};

extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_fadvise;
extern const struct engine_ops engine_uring;
extern const struct engine_ops engine_readstream;

/* Every engine, in the order the probe command runs them; NULL-terminated. */
extern const struct engine_ops *const engine_table[];

/* The engine called NAME, or NULL. */
const struct engine_ops *engine_find(const char *name);

/* The queue op of synchronous engines: pread(2) the io's blocks, ENGINE_COMPLETED. */
int engine_pread(struct engine *e, struct engine_io *io);

#endif
