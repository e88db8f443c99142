/*
 * record_priv: what the record*.c files share and nothing else includes:
 * paths joined with a message, the message of a failed call, a directory's
 * fsync, and giving a file to the user who ran sudo. The public API is
 * bench/record/record.h.
 */
#ifndef BENCH_RECORD_RECORD_PRIV_H
#define BENCH_RECORD_RECORD_PRIV_H

#include <stddef.h>

#include "bench/record/record.h"

/* DIR/FILE into OUT; -ENAMETOOLONG with ERR when it does not fit. */
int record_join(char *out, size_t len, const char *dir, const char *file,
		char *err, size_t errlen);

/* ERR = "WHAT PATH: strerror(-RC)"; returns RC. */
int record_fail(int rc, char *err, size_t errlen, const char *what, const char *path);

/* fsync() of the directory DIR. 0 or -errno. */
int record_fsync_dir(const char *dir);

/* As root under sudo, give the file FD to the user who ran sudo. */
void record_give_fd(int fd);

#endif
