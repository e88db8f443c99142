/*
 * errmsg: format a failure into a caller's buffer; see errmsg.h.
 */
#include "io/errmsg.h"

#include <stdarg.h>
#include <stdio.h>

int errmsg_set(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}
