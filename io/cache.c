/*
 * cache: make reads cold, by dropping the whole page cache (root only) or by
 * evicting files one by one with POSIX_FADV_DONTNEED (any user who can open
 * them). Dirty pages cannot be evicted, so both write back first: sync() for
 * the whole cache, fdatasync() of each file otherwise.
 */
#include "io/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/testhook.h"

int cache_drop_all(void)
{
	const char *path = testhook_getenv("EICBENCH_DROP_CACHES");
	int fd, ret = 0;

	sync();
	fd = open(path && *path ? path : "/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

int cache_evict_file(const char *path, uint64_t *bytes)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* Write back dirty pages, which DONTNEED would otherwise leave. */
	(void)fdatasync(fd);
	ret = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (ret == 0 && bytes)
		*bytes += (uint64_t)st.st_size;
	return ret;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int evict_entry(const char *dir, const char *name,
		       struct cache_evict_stats *st)
{
	char path[4096];
	struct stat sb;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (lstat(path, &sb) < 0)
		return -errno;
	/* a tablespace: pg_tblspc holds a link to its folder, followed there only */
	if (S_ISLNK(sb.st_mode) && !strcmp(base_name(dir), "pg_tblspc") && stat(path, &sb) < 0)
		return -errno;
	if (S_ISDIR(sb.st_mode))
		return cache_evict_tree(path, st);
	if (!S_ISREG(sb.st_mode))
		return 0;
	if (cache_evict_file(path, &st->bytes) < 0)
		st->failed++;
	else
		st->files++;
	return 0;
}

int cache_evict_tree(const char *dir, struct cache_evict_stats *st)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = evict_entry(dir, de->d_name, st);
		if (ret < 0 && ret != -ENOENT)	/* files come and go */
			break;
		ret = 0;
	}
	closedir(d);
	return ret;
}
