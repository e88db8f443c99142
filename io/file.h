/*
 * file: read a whole (small) file into a NUL-terminated buffer: procfs and
 * sysfs files, query files, block lists, plot scripts. One read loop for
 * every caller; a file larger than the caller's bound is an error, never a
 * silently cut copy.
 */
#ifndef IO_FILE_H
#define IO_FILE_H

#include <stddef.h>

/*
 * Read PATH whole into a new buffer *TEXT (free it), NUL-terminated; its
 * length without the NUL in *LEN when LEN is given. MAX_BYTES bounds the
 * size (0: no bound). 0, -EFBIG past the bound, -EISDIR for a directory,
 * -ENOMEM or the -errno of open/read.
 */
int file_read_all(const char *path, size_t max_bytes, char **text, size_t *len);

#endif
