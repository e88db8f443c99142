/*
 * faultpoint: stop the process at a named place when the environment asks;
 * see faultpoint.h.
 */
#include "io/faultpoint.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "io/testhook.h"

void faultpoint(const char *name)
{
	/* How often the named point was reached: the one piece of state a
	 * test hook needs, and never read unless the variable is set. */
	static unsigned long reached;
	const char *want = testhook_getenv(FAULTPOINT_ENV), *at;
	size_t len;
	unsigned long nth = 1;

	if (!want || !*want)
		return;
	at = strchr(want, '@');
	len = at ? (size_t)(at - want) : strlen(want);
	if (strlen(name) != len || strncmp(want, name, len))
		return;
	if (at)
		nth = strtoul(at + 1, NULL, 10);
	if (++reached == nth)
		raise(SIGSTOP);
}
