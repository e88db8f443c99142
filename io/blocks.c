/*
 * blocks: block sequences, block lists and the blockmap (files joined into
 * one address space). Sequences are header-inline for the hot loop; here are
 * seeding, list parsing and opening files. Nothing here writes to a file.
 */
#include "io/blocks.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/errmsg.h"
#include "io/file.h"

void blocks_random(struct blocks *b, uint64_t nblocks, uint64_t seed)
{
	*b = (struct blocks){ .kind = BLOCKS_RANDOM, .nblocks = nblocks };
	rng_seed(&b->rng, seed);
}

void blocks_seq(struct blocks *b, uint64_t nblocks)
{
	*b = (struct blocks){ .kind = BLOCKS_SEQ, .nblocks = nblocks };
}

void blocks_replay(struct blocks *b, const uint64_t *list, size_t len)
{
	*b = (struct blocks){ .kind = BLOCKS_REPLAY, .list = list, .list_len = len };
}

uint64_t blocks_pass_len(const struct blocks *b)
{
	switch (b->kind) {
	case BLOCKS_SEQ:
		return b->nblocks;
	case BLOCKS_REPLAY:
		return b->list_len;
	default:
		return 0;
	}
}

/* Grow *list to hold one more entry. */
static int push(uint64_t **list, size_t *len, size_t *cap, uint64_t v)
{
	if (*len == *cap) {
		size_t ncap = *cap ? *cap * 2 : 1024;
		uint64_t *n = realloc(*list, ncap * sizeof(**list));
		if (!n)
			return -ENOMEM;
		*list = n;
		*cap = ncap;
	}
	(*list)[(*len)++] = v;
	return 0;
}

/* One line, comments stripped: -1 blank, 0 number in *v, -EINVAL otherwise. */
static int parse_line(char *line, uint64_t *v)
{
	char *hash = strchr(line, '#'), *end, *p = line;

	if (hash)
		*hash = '\0';
	while (isspace((unsigned char)*p))
		p++;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (*p == '\0')
		return -1;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	*v = strtoull(p, &end, 10);
	if (errno || *end != '\0')
		return -EINVAL;
	return 0;
}

static int parse_lines(char *text, uint64_t nblocks, uint64_t **list,
		       size_t *len, char *err, size_t errlen)
{
	size_t cap = 0, lineno = 0;
	char *line, *next = text;
	uint64_t v;
	int rc;

	while ((line = strsep(&next, "\n")) != NULL) {
		lineno++;
		rc = parse_line(line, &v);
		if (rc == -1)
			continue;
		if (rc < 0)
			return errmsg_set(err, errlen, -EINVAL,
				    "line %zu: \"%.40s\" is not a block number (a whole number >= 0)",
				    lineno, line);
		if (nblocks && v >= nblocks)
			return errmsg_set(err, errlen, -EINVAL,
				    "line %zu: block %" PRIu64 " is past the end (blocks 0..%" PRIu64 ")",
				    lineno, v, nblocks - 1);
		if ((rc = push(list, len, &cap, v)) < 0)
			return errmsg_set(err, errlen, rc, "out of memory");
	}
	return 0;
}

int blocks_parse_list(const char *text, uint64_t nblocks, uint64_t **out,
		      size_t *len, char *err, size_t errlen)
{
	char *copy = strdup(text);
	int rc;

	*out = NULL;
	*len = 0;
	if (!copy)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	rc = parse_lines(copy, nblocks, out, len, err, errlen);
	free(copy);
	if (rc == 0 && *len == 0)
		rc = errmsg_set(err, errlen, -EINVAL, "the list holds no block numbers");
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*len = 0;
	}
	return rc;
}

/* A block list file whole. */
static int slurp(const char *path, char **text)
{
	return file_read_all(path, 0, text, NULL);
}

int blocks_load_list(const char *path, uint64_t nblocks, uint64_t **out,
		     size_t *len, char *err, size_t errlen)
{
	char *text, sub[256];
	int rc = slurp(path, &text);

	*out = NULL;
	*len = 0;
	if (rc < 0)
		return errmsg_set(err, errlen, rc, "%s: %s", path, strerror(-rc));
	rc = blocks_parse_list(text, nblocks, out, len, sub, sizeof(sub));
	free(text);
	if (rc < 0)
		errmsg_set(err, errlen, rc, "%s: %s", path, sub);
	return rc;
}

/* Size in bytes of an open regular file or block device. */
static int fd_size(int fd, uint64_t *bytes)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, bytes) < 0 ? -errno : 0;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	*bytes = (uint64_t)st.st_size;
	return 0;
}

static int open_one(struct blockmap_file *f, const char *path, uint32_t bs,
		    int flags, char *err, size_t errlen)
{
	uint64_t bytes = 0;
	int rc;

	f->fd = -1;
	f->path = strdup(path);
	if (!f->path)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	/* without blocking: a FIFO is refused below, never waited on */
	f->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags);
	if (f->fd < 0) {
		rc = -errno;
		return errmsg_set(err, errlen, rc, "%s: %s", path, strerror(-rc));
	}
	rc = fd_size(f->fd, &bytes);
	if (rc == -EISDIR)
		return errmsg_set(err, errlen, rc, "%s is a directory, not a file or device", path);
	if (rc == -EINVAL)
		return errmsg_set(err, errlen, rc, "%s is not a regular file or block device", path);
	if (rc < 0)
		return errmsg_set(err, errlen, rc, "%s: %s", path, strerror(-rc));
	/* reads block again (io_uring would fail them with EAGAIN otherwise) */
	if (fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		rc = -errno;
		return errmsg_set(err, errlen, rc, "%s: %s", path, strerror(-rc));
	}
	f->nblocks = bytes / bs;
	return 0;
}

/* Number the files' blocks and decide whether locate may divide. */
static int number_blocks(struct blockmap *m, char *err, size_t errlen)
{
	uint64_t first = 0;

	m->uniform_blocks = m->files[0].nblocks;
	for (unsigned i = 0; i < m->nfiles; i++) {
		m->files[i].first_block = first;
		first += m->files[i].nblocks;
		if (i + 1 < m->nfiles && m->files[i].nblocks != m->uniform_blocks)
			m->uniform_blocks = 0;
	}
	m->nblocks = first;
	if (m->nblocks == 0)
		return errmsg_set(err, errlen, -ENODATA,
			    "%s is empty or shorter than one block of %u bytes",
			    m->files[0].path, m->block_bytes);
	return 0;
}

int blockmap_open(struct blockmap *m, const char *const *paths, unsigned n,
		  uint32_t block_bytes, int flags, char *err, size_t errlen)
{
	int rc = 0;

	*m = (struct blockmap){ .block_bytes = block_bytes, .open_flags = flags };
	if (n == 0 || block_bytes == 0)
		return errmsg_set(err, errlen, -EINVAL, "no files or zero block size");
	m->files = calloc(n, sizeof(*m->files));
	if (!m->files)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < n && rc == 0; i++) {
		m->nfiles = i + 1;
		rc = open_one(&m->files[i], paths[i], block_bytes, flags, err, errlen);
	}
	if (rc == 0)
		rc = number_blocks(m, err, errlen);
	if (rc < 0)
		blockmap_close(m);
	return rc;
}

int blocks_segment_paths(const char *base, char ***out, unsigned *n)
{
	char **paths = NULL, **grown, *p;
	unsigned k = 0;

	for (;; k++) {
		if (k == 0 ? asprintf(&p, "%s", base) < 0 : asprintf(&p, "%s.%u", base, k) < 0)
			break;
		if (k > 0 && access(p, F_OK) != 0) {
			free(p);
			*out = paths;
			*n = k;
			return 0;
		}
		if (!(grown = realloc(paths, (k + 1) * sizeof(*paths)))) {
			free(p);
			break;
		}
		paths = grown;
		paths[k] = p;
	}
	blocks_free_paths(paths, k);
	return -ENOMEM;
}

void blocks_free_paths(char **paths, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

int blockmap_open_segments(struct blockmap *m, const char *base,
			   uint32_t block_bytes, int flags, char *err, size_t errlen)
{
	char **paths;
	unsigned n;
	int rc = blocks_segment_paths(base, &paths, &n);

	if (rc < 0)
		return errmsg_set(err, errlen, rc, "out of memory");
	rc = blockmap_open(m, (const char *const *)paths, n, block_bytes, flags, err, errlen);
	blocks_free_paths(paths, n);
	return rc;
}

void blockmap_close(struct blockmap *m)
{
	for (unsigned i = 0; i < m->nfiles; i++) {
		if (m->files[i].fd >= 0)
			close(m->files[i].fd);
		free(m->files[i].path);
	}
	free(m->files);
	*m = (struct blockmap){ 0 };
}
