/*
 * statedir: where eicbench keeps state between commands; see statedir.h.
 */
#include "bench/pg/statedir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned long long statedir_hash(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

int statedir_path(char *out, size_t len)
{
	const char *own = getenv("EICBENCH_STATE"), *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char parent[PATH_MAX];

	if (own && *own) {
		if ((size_t)snprintf(out, len, "%s", own) >= len)
			return -ENAMETOOLONG;
		return mkdir(out, 0700) < 0 && errno != EEXIST ? -errno : 0;
	}
	if (geteuid() == 0)
		snprintf(parent, sizeof(parent), "/var/lib");
	else if (xdg && *xdg)
		snprintf(parent, sizeof(parent), "%s", xdg);
	else if (home && *home) {
		snprintf(parent, sizeof(parent), "%s/.local", home);
		mkdir(parent, 0700);
		strncat(parent, "/state", sizeof(parent) - strlen(parent) - 1);
	} else
		return -ENOENT;
	mkdir(parent, 0755);
	if ((size_t)snprintf(out, len, "%s/eicbench", parent) >= len)
		return -ENAMETOOLONG;
	if (mkdir(out, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int statedir_file(const char *prefix, const char *key, const char *suffix,
		  char *out, size_t len)
{
	char dir[PATH_MAX];
	int ret = statedir_path(dir, sizeof(dir));

	if (ret < 0)
		return ret;
	if ((size_t)snprintf(out, len, "%s/%s-%016llx%s", dir, prefix, statedir_hash(key), suffix) >= len)
		return -ENAMETOOLONG;
	return 0;
}
