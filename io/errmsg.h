/*
 * errmsg: the one way io/ modules fill a caller-owned message buffer on
 * failure: format into ERR (when given) and hand the code back, so a failing
 * path is one statement: return errmsg_set(err, errlen, -EINVAL, "...", ...).
 */
#ifndef IO_ERRMSG_H
#define IO_ERRMSG_H

#include <stddef.h>

/* Format the message into ERR (when ERR and ERRLEN are non-zero); returns RC. */
int errmsg_set(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
