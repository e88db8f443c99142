/*
 * fixture: test files for io/ tests. Files live in a fresh directory under
 * /var/tmp (not tmpfs, which may refuse O_DIRECT); every block of a fixture
 * file holds its own global block number as repeated 8-byte words.
 */
#ifndef TESTS_FIXTURE_H
#define TESTS_FIXTURE_H

#include <stdint.h>

/* A new empty directory; the caller frees the string. NULL on failure. */
char *fixture_dir(void);
/* DIR/NAME, malloc'd. */
char *fixture_path(const char *dir, const char *name);
/* Write NBLOCKS blocks numbered from FIRST, then EXTRA bytes of tail. 0 or -errno. */
int fixture_write_blocks(const char *path, uint64_t first, uint64_t nblocks,
			 uint32_t block_bytes, uint32_t extra);
/* probe_verify_fn: 0 when BUF holds block BLOCK's pattern. */
int fixture_check_block(const void *buf, uint64_t block, uint32_t bytes, void *arg);
/* ROOT/REL (its folders made under ROOT) holding TEXT: a /sys or /proc
 * laid out as the kernel's. 0 or -errno. */
int fixture_put(const char *root, const char *rel, const char *text);
/* Remove DIR and everything under it (links removed, never followed). */
void fixture_remove(const char *dir);

#endif
