/*
 * psync engine: one pread(2) per block, in sequence order, like fio's psync.
 * Inherently depth 1: at depth N it still reads one block at a time in order
 * (the extra slots stay unused), which is what PostgreSQL does with
 * effective_io_concurrency = 0. No state: init and cleanup are not needed.
 * Its read, engine_pread, is also the fadvise engine's.
 */
#include "io/engine.h"

#include <errno.h>
#include <unistd.h>

int engine_pread(struct engine *e, struct engine_io *io)
{
	const struct engine_setup *s = &e->setup;
	ssize_t n;

	do
		n = pread(s->map->files[io->file].fd, io->buf,
			  (size_t)io->nblocks * s->block_bytes, io->offset);
	while (n < 0 && errno == EINTR);
	io->result = n < 0 ? -errno : n;
	return ENGINE_COMPLETED;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.summary = "pread(2) one block at a time, in order",
	.flags = ENGINE_SYNC,
	.queue = engine_pread,
};
