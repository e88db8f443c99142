/*
 * cache: making reads cold. Either the whole page cache is dropped (sync, then
 * /proc/sys/vm/drop_caches = 3; needs root), or each file under a directory
 * (or one file) is written back and evicted with POSIX_FADV_DONTNEED, which
 * any user who can open the files may do. Returns 0 or -errno.
 */
#ifndef IO_CACHE_H
#define IO_CACHE_H

#include <stdint.h>

struct cache_evict_stats {
	long     files;
	uint64_t bytes;
	long     failed;              /* files that could not be opened */
};

/* sync(), then write "3" to /proc/sys/vm/drop_caches ($EICBENCH_DROP_CACHES
 * names another file: the tests make it one that cannot be written). */
int cache_drop_all(void);

/* fdatasync-free eviction of one file: POSIX_FADV_DONTNEED over its length. */
int cache_evict_file(const char *path, uint64_t *bytes);

/* Evict every regular file under DIR, recursively; links are not followed,
 * but for those in a folder named pg_tblspc (PostgreSQL's tablespaces). */
int cache_evict_tree(const char *dir, struct cache_evict_stats *st);

#endif
