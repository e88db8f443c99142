/*
 * fadvise engine: PostgreSQL's prefetch pattern. Blocks are read with pread(2)
 * in sequence order; after each read, POSIX_FADV_WILLNEED is given for the
 * upcoming blocks the ramp asks for, one call per block, keeping up to depth
 * blocks advised ahead of the reader (depth = effective_io_concurrency).
 * Each block counts as a page with one tuple: after the read, the ramp's
 * page step and its tuple step, each followed by advice, as PostgreSQL does
 * for a page of one matching row.
 */
#include "io/engines/fadvise.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "io/engine.h"

void fadvise_ramp_init(struct fadvise_ramp *r, const struct blocks *seq,
		       int max, uint64_t limit)
{
	*r = (struct fadvise_ramp){
		.target = -1, .max = max, .it = *seq, .limit = limit,
	};
}

int fadvise_ramp_next_target(int target, int max)
{
	if (target >= max)
		return target;
	if (target >= max / 2)
		return max;
	if (target > 0)
		return target * 2;
	return target + 1;
}

static bool iterator_done(const struct fadvise_ramp *r)
{
	return r->limit && r->taken >= r->limit;
}

void fadvise_ramp_before_read(struct fadvise_ramp *r)
{
	if (r->pages > 0) {
		r->pages--;
	} else if (!iterator_done(r)) {
		(void)blocks_next(&r->it);   /* the block the reader takes now */
		r->taken++;
	}
}

void fadvise_ramp_after_read(struct fadvise_ramp *r)
{
	r->target = fadvise_ramp_next_target(r->target, r->max);
}

void fadvise_ramp_tuple(struct fadvise_ramp *r)
{
	if (r->target < r->max)
		r->target++;
}

bool fadvise_ramp_take(struct fadvise_ramp *r, uint64_t *block)
{
	if (r->pages >= r->target || iterator_done(r))
		return false;
	*block = blocks_next(&r->it);
	r->taken++;
	r->pages++;
	return true;
}

static int fadvise_init(struct engine *e)
{
	struct fadvise_ramp *r = malloc(sizeof(*r));

	if (!r)
		return -ENOMEM;
	fadvise_ramp_init(r, e->setup.seq, (int)e->setup.depth, e->setup.limit);
	e->priv = r;
	return 0;
}

static int fadvise_queue(struct engine *e, struct engine_io *io)
{
	fadvise_ramp_before_read(e->priv);
	return engine_pread(e, io);
}

/* Advice for every block the ramp asks for now. */
static int advise_due(const struct blockmap *map, struct fadvise_ramp *r)
{
	uint64_t block;
	unsigned file;
	off_t off;
	int rc;

	while (fadvise_ramp_take(r, &block)) {
		blockmap_locate(map, block, &file, &off);
		rc = posix_fadvise(map->files[file].fd, off, map->block_bytes,
				   POSIX_FADV_WILLNEED);
		if (rc)
			return -rc;
	}
	return 0;
}

static int fadvise_advise(struct engine *e, const struct engine_io *io)
{
	struct fadvise_ramp *r = e->priv;
	int rc;

	(void)io;
	fadvise_ramp_after_read(r);
	if ((rc = advise_due(e->setup.map, r)) < 0)
		return rc;
	fadvise_ramp_tuple(r);
	return advise_due(e->setup.map, r);
}

static void fadvise_cleanup(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_fadvise = {
	.name = "fadvise",
	.summary = "pread(2) in order, POSIX_FADV_WILLNEED up to depth blocks ahead (PostgreSQL <= 17)",
	.flags = ENGINE_SYNC,
	.init = fadvise_init,
	.queue = fadvise_queue,
	.advise = fadvise_advise,
	.cleanup = fadvise_cleanup,
};
