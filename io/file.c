/*
 * file: the whole-file reader; see file.h.
 */
#include "io/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Make room for at least one more byte and the NUL. */
static int grow(char **buf, size_t *cap, size_t len)
{
	char *n;

	if (len + 1 < *cap)
		return 0;
	n = realloc(*buf, *cap * 2);
	if (!n)
		return -ENOMEM;
	*buf = n;
	*cap *= 2;
	return 0;
}

static int read_fd(int fd, size_t max_bytes, char **text, size_t *len_out)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	int rc = buf ? 0 : -ENOMEM;

	while (rc == 0) {
		ssize_t n = read(fd, buf + len, cap - len - 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
		if (max_bytes && len > max_bytes)
			rc = -EFBIG;
		else
			rc = grow(&buf, &cap, len);
	}
	if (rc < 0) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*text = buf;
	if (len_out)
		*len_out = len;
	return 0;
}

int file_read_all(const char *path, size_t max_bytes, char **text, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc;

	*text = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (S_ISDIR(st.st_mode))
		rc = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;	/* a FIFO, device or socket: never waited on */
	else
		rc = read_fd(fd, max_bytes, text, len);
	close(fd);
	return rc;
}

ssize_t file_pread_full(int fd, void *buf, size_t size, off_t off)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = pread(fd, (char *)buf + done, size - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int file_create(const char *path, int flags)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags, 0644);

	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno;	/* ENXIO: a FIFO without a reader */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int rc = S_ISREG(st.st_mode) ? -errno : -EINVAL;

		close(fd);
		return rc;
	}
	return fd;
}

FILE *file_fopen_write(const char *path)
{
	int fd = file_create(path, O_TRUNC);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (!(f = fdopen(fd, "w")))
		close(fd);
	return f;
}

const char *file_strerror(int rc)
{
	if (rc == -ELOOP)
		return "a symbolic link, never written through: remove it";
	return rc == -EINVAL ? "not a regular file (a FIFO, device or socket is not read)" :
	       rc == -EFBIG ? "larger than allowed" : strerror(-rc);
}

long file_read_long(const char *path)
{
	char *text, *end;
	long v;

	if (file_read_all(path, 1 << 16, &text, NULL) < 0)
		return -1;
	v = strtol(text, &end, 10);
	if (end == text || v < 0)
		v = -1;
	free(text);
	return v;
}
