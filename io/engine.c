/*
 * engine: the explicit list of probe engines and lookup by name. Adding an
 * engine means adding its ops table here; nothing registers itself.
 */
#include "io/engine.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

const struct engine_ops *const engine_table[] = {
	&engine_psync,
	&engine_fadvise,
	&engine_uring,
	&engine_readstream,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	for (unsigned i = 0; engine_table[i]; i++)
		if (strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}

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
