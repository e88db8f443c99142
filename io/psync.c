/*
 * psync engine: one pread(2) per block, in sequence order, like fio's psync.
 * Inherently depth 1: at depth N it still reads one block at a time in order
 * (the extra slots stay unused), which is what PostgreSQL does with
 * effective_io_concurrency = 0. No state: init and cleanup are not needed.
 */
#include "io/engine.h"

const struct engine_ops engine_psync = {
	.name = "psync",
	.summary = "pread(2) one block at a time, in order",
	.flags = ENGINE_SYNC,
	.queue = engine_pread,
};
