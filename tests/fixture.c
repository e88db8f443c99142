/*
 * fixture: files whose blocks name themselves, for checking that a read
 * returned the block it asked for. Test support only.
 */
#include "tests/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fixture_dir(void)
{
	char *dir = strdup("/var/tmp/eicbench-test-XXXXXX");

	if (dir && !mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

char *fixture_path(const char *dir, const char *name)
{
	char *p = NULL;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static void fill(uint64_t *words, uint32_t block_bytes, uint64_t block)
{
	for (uint32_t i = 0; i < block_bytes / 8; i++)
		words[i] = block;
}

int fixture_write_blocks(const char *path, uint64_t first, uint64_t nblocks,
			 uint32_t block_bytes, uint32_t extra)
{
	uint64_t *buf = calloc(1, block_bytes + extra);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), rc = 0;

	if (!buf || fd < 0) {
		rc = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (uint64_t b = 0; b < nblocks && rc == 0; b++) {
		fill(buf, block_bytes, first + b);
		if (write(fd, buf, block_bytes) != (ssize_t)block_bytes)
			rc = -EIO;
	}
	if (rc == 0 && extra && write(fd, buf, extra) != (ssize_t)extra)
		rc = -EIO;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

int fixture_check_block(const void *buf, uint64_t block, uint32_t bytes, void *arg)
{
	const uint64_t *words = buf;

	(void)arg;
	for (uint32_t i = 0; i < bytes / 8; i++)
		if (words[i] != block)
			return 1;
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void fixture_remove(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int fixture_put(const char *root, const char *rel, const char *text)
{
	char path[8192];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		ret = -EIO;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	return ret;
}
