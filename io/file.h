/*
 * file: read a whole (small) file into a NUL-terminated buffer: procfs and
 * sysfs files, query files, block lists, plot scripts. One read loop for
 * every caller; a file larger than the caller's bound is an error, never a
 * silently cut copy.
 */
#ifndef IO_FILE_H
#define IO_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Read PATH whole into a new buffer *TEXT (free it), NUL-terminated; its
 * length without the NUL in *LEN when LEN is given. MAX_BYTES bounds the
 * size (0: no bound). 0, -EFBIG past the bound, -EISDIR for a directory,
 * -EINVAL for anything else but a regular file (a FIFO, a device, a
 * socket: opened without blocking and never read, so that input named by
 * the user cannot hold a command up), -ENOMEM or the -errno of open/read.
 */
int file_read_all(const char *path, size_t max_bytes, char **text, size_t *len);

/*
 * Open PATH to write (FLAGS: O_TRUNC, O_APPEND, O_EXCL), made 0644 when
 * missing, never through a symbolic link (O_NOFOLLOW: -ELOOP) and never
 * anything but a regular file (a FIFO is not waited on: -EINVAL), so that a
 * link planted where root writes a file cannot send the write elsewhere.
 * The descriptor (blocking), or -errno.
 */
int file_create(const char *path, int flags);

/* The same truncated, as a stdio stream; NULL with errno set. */
FILE *file_fopen_write(const char *path);

/* What file_read_all()'s or file_create()'s RC means, for a message: "not
 * a regular file ..." for -EINVAL, "a symbolic link ..." for -ELOOP, else
 * strerror's words. */
const char *file_strerror(int rc);

/* The number a small file (a sysfs or procfs value) starts with, or -1
 * when it cannot be read, does not start with a number or holds a
 * negative one. */
long file_read_long(const char *path);

/*
 * pread(2) until SIZE bytes at OFF are in BUF, end of file or an error,
 * going on after EINTR and short reads. The bytes read (fewer than SIZE
 * only at end of file), or -errno.
 */
ssize_t file_pread_full(int fd, void *buf, size_t size, off_t off);

#endif
