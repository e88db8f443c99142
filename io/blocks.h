/*
 * blocks: which blocks a probe reads and where they live. A sequence yields
 * block numbers (uniform random with a seeded xoshiro256**, sequential, or a
 * replayed list); every sequence is endless (sequential and replay wrap) and
 * copying a struct blocks gives a second iterator over the same numbers.
 * A blockmap joins files into one address space of blocks of block_bytes
 * (PostgreSQL's 1 GB segments base, base.1, ... or any list, or a device);
 * the tail of a file shorter than a block is not addressed. Files are always
 * opened O_RDONLY. Functions return 0 or -errno and fill err where given.
 */
#ifndef IO_BLOCKS_H
#define IO_BLOCKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/rng.h"

enum blocks_kind { BLOCKS_RANDOM, BLOCKS_SEQ, BLOCKS_REPLAY };

struct blocks {
	enum blocks_kind kind;
	uint64_t        nblocks;        /* random/seq: size of the address space */
	uint64_t        pos;            /* seq/replay: next index */
	struct rng      rng;            /* random: xoshiro256** state */
	const uint64_t *list;           /* replay: borrowed, not freed here */
	size_t          list_len;
};

void blocks_random(struct blocks *b, uint64_t nblocks, uint64_t seed);
void blocks_seq(struct blocks *b, uint64_t nblocks);
void blocks_replay(struct blocks *b, const uint64_t *list, size_t len);
/* Blocks in one pass: nblocks for seq, the list length for replay, 0 for random. */
uint64_t blocks_pass_len(const struct blocks *b);

static inline uint64_t blocks_next(struct blocks *b)
{
	uint64_t v;

	switch (b->kind) {
	case BLOCKS_RANDOM:
		return (uint64_t)rng_below(&b->rng, b->nblocks);
	case BLOCKS_SEQ:
		v = b->pos++;
		if (b->pos == b->nblocks)
			b->pos = 0;
		return v;
	default:
		v = b->list[b->pos++];
		if (b->pos == b->list_len)
			b->pos = 0;
		return v;
	}
}

/*
 * Parse a list of block numbers: one per line, blank lines and '#' comments
 * ignored, surrounding white space tolerated. Every number must be below
 * nblocks (when nblocks > 0). On error returns -EINVAL with err naming the line
 * and the value. *out is malloc'd; the caller frees it.
 */
int blocks_parse_list(const char *text, uint64_t nblocks, uint64_t **out,
		      size_t *len, char *err, size_t errlen);
int blocks_load_list(const char *path, uint64_t nblocks, uint64_t **out,
		     size_t *len, char *err, size_t errlen);

struct blockmap_file {
	char    *path;
	int      fd;
	uint64_t first_block;          /* first block number it holds */
	uint64_t nblocks;
};

struct blockmap {
	struct blockmap_file *files;
	unsigned  nfiles;
	uint32_t  block_bytes;
	int       open_flags;           /* extra flags the files were opened with (O_DIRECT) */
	uint64_t  nblocks;              /* all files together */
	uint64_t  uniform_blocks;       /* blocks per file if all but the last agree, else 0 */
};

/*
 * Open PATHS (regular files or block devices) as one address space, with
 * extra open flags (0 or O_DIRECT). -EISDIR for a directory, -ENODATA when
 * the files hold no whole block; other -errno from open/stat.
 */
int blockmap_open(struct blockmap *m, const char *const *paths, unsigned n,
		  uint32_t block_bytes, int flags, char *err, size_t errlen);
/*
 * The paths BASE, then BASE.1, BASE.2, ... while they exist (PostgreSQL's
 * segment files; BASE itself is listed whether or not it exists). *OUT and
 * each path are malloc'd: free with blocks_free_paths. 0 or -ENOMEM.
 */
int blocks_segment_paths(const char *base, char ***out, unsigned *n);
void blocks_free_paths(char **paths, unsigned n);
/* Open BASE's segment files (blocks_segment_paths) as one address space. */
int blockmap_open_segments(struct blockmap *m, const char *base,
			   uint32_t block_bytes, int flags, char *err, size_t errlen);
void blockmap_close(struct blockmap *m);

/* File index and byte offset of BLOCK (< m->nblocks). */
static inline void blockmap_locate(const struct blockmap *m, uint64_t block,
				   unsigned *file, off_t *offset)
{
	unsigned lo = 0, hi = m->nfiles - 1;

	if (m->uniform_blocks) {
		lo = (unsigned)(block / m->uniform_blocks);
		if (lo >= m->nfiles)
			lo = m->nfiles - 1;
	} else {
		while (lo < hi) {          /* last file whose first_block <= block */
			unsigned mid = (lo + hi + 1) / 2;
			if (m->files[mid].first_block <= block)
				lo = mid;
			else
				hi = mid - 1;
		}
	}
	*file = lo;
	*offset = (off_t)((block - m->files[lo].first_block) * m->block_bytes);
}

#endif
