/*
 * pagesum: the CPU a PostgreSQL 18 read spends verifying each block's data
 * checksum when it completes (in the process that completes it: the
 * backend, or an I/O worker), reproduced by doing the same kind of work on
 * the block just read: one pass over its 8 KiB in 32 interleaved lanes of
 * FNV-1a-style multiply and xor. Its value means nothing; its cost is the
 * point. Pure computation.
 */
#ifndef IO_ENGINES_PAGESUM_H
#define IO_ENGINES_PAGESUM_H

#include <stddef.h>
#include <stdint.h>

/* One pass over each BLOCK_BYTES block of BUF (LEN bytes); a value to keep. */
uint32_t pagesum(const void *buf, size_t len, size_t block_bytes);

#endif
