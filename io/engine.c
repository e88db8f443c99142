/*
 * engine: the explicit list of probe engines and lookup by name. Adding an
 * engine means adding its ops table here; nothing registers itself.
 */
#include "io/engine.h"

#include <stddef.h>
#include <string.h>

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
