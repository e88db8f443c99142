/*
 * pgbin: finding PostgreSQL's server binaries by major version (the build
 * cache of scripts/build-pg.sh, then Debian's directories) and reading
 * version strings. Only the file system is looked at; nothing is run.
 */
#include "bench/pg/pgbin.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int put(char *out, size_t len, const char *s)
{
	if (snprintf(out, len, "%s", s) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int pgbin_cache_dir(char *out, size_t len)
{
	const char *env = getenv("EICBENCH_CACHE"), *xdg, *home;
	int n;

	if (env && *env)
		return put(out, len, env);
	if (geteuid() == 0)
		return put(out, len, "/var/cache/eicbench");
	xdg = getenv("XDG_CACHE_HOME");
	home = getenv("HOME");
	if (xdg && *xdg)
		n = snprintf(out, len, "%s/eicbench", xdg);
	else if (home && *home)
		n = snprintf(out, len, "%s/.cache/eicbench", home);
	else
		return -ENOENT;
	return n < (int)len ? 0 : -ENAMETOOLONG;
}

bool pgbin_has_tools(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/postgres", dir);
	if (access(p, X_OK) < 0)
		return false;
	snprintf(p, sizeof(p), "%s/initdb", dir);
	return access(p, X_OK) == 0;
}

/* Is NAME "MAJOR.MINOR" (digits only after the dot)? The minor, or -1. */
static long minor_of(const char *name, int major)
{
	char want[16], *end;
	size_t n = (size_t)snprintf(want, sizeof(want), "%d.", major);
	long minor;

	if (strncmp(name, want, n) || !isdigit((unsigned char)name[n]))
		return -1;
	minor = strtol(name + n, &end, 10);
	return *end ? -1 : minor;
}

/* The newest finished build of MAJOR under CACHE/pg. */
static int find_in_cache(int major, char *out, size_t len)
{
	char cache[PATH_MAX], dir[PATH_MAX], p[PATH_MAX + 64];
	long best = -1;
	struct dirent *de;
	DIR *d;

	if (pgbin_cache_dir(cache, sizeof(cache)) < 0)
		return -ENOENT;
	if (snprintf(dir, sizeof(dir), "%s/pg", cache) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d)) != NULL) {
		long minor = minor_of(de->d_name, major);

		if (minor <= best)
			continue;
		if (snprintf(p, sizeof(p), "%s/%s/" PGBIN_BUILD_STAMP, dir, de->d_name) >= (int)sizeof(p) ||
		    access(p, R_OK) < 0)
			continue;	/* unfinished or failed build */
		if (snprintf(p, sizeof(p), "%s/%s/bin", dir, de->d_name) < (int)sizeof(p) &&
		    pgbin_has_tools(p) && put(out, len, p) == 0)
			best = minor;
	}
	closedir(d);
	return best < 0 ? -ENOENT : 0;
}

int pgbin_find_major(int major, char *out, size_t len)
{
	char p[64];

	if (find_in_cache(major, out, len) == 0)
		return 0;
	snprintf(p, sizeof(p), "/usr/lib/postgresql/%d/bin", major);
	if (pgbin_has_tools(p))
		return put(out, len, p);
	return -ENOENT;
}

int pgbin_newest_debian(char *out, size_t len)
{
	DIR *d = opendir("/usr/lib/postgresql");
	struct dirent *de;
	long best = -1;

	if (!d)
		return -ENOENT;
	while ((de = readdir(d)) != NULL) {
		char p[PATH_MAX];
		long v = strtol(de->d_name, NULL, 10);

		snprintf(p, sizeof(p), "/usr/lib/postgresql/%s/bin", de->d_name);
		if (v > best && pgbin_has_tools(p) && put(out, len, p) == 0)
			best = v;
	}
	closedir(d);
	return best < 0 ? -ENOENT : 0;
}

int pgbin_newest_major(char *why, size_t len)
{
	char inst[128] = "", built[128] = "", p[PATH_MAX];
	int best = -ENOENT;

	for (int major = 10; major <= 99; major++) {
		int in_cache = find_in_cache(major, p, sizeof(p)) == 0, in_debian;

		snprintf(p, sizeof(p), "/usr/lib/postgresql/%d/bin", major);
		in_debian = pgbin_has_tools(p);
		if (in_debian)
			snprintf(inst + strlen(inst), sizeof(inst) - strlen(inst), "%s%d", inst[0] ? ", " : "", major);
		if (in_cache)
			snprintf(built + strlen(built), sizeof(built) - strlen(built), "%s%d", built[0] ? ", " : "", major);
		if (in_cache || in_debian)
			best = major;
	}
	snprintf(why, len, "installed: %s; in the build cache: %s", inst[0] ? inst : "none", built[0] ? built : "none");
	return best;
}

/* Up to three dot-separated numbers at S; how many were read. */
static int read_numbers(const char *s, long v[3])
{
	int n = 0;

	while (n < 3 && isdigit((unsigned char)*s)) {
		char *end;

		v[n++] = strtol(s, &end, 10);
		s = end;
		if (*s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	return n;
}

int pgbin_parse_version(const char *text)
{
	const char *p = strstr(text, "(PostgreSQL) ");
	long v[3] = { 0, 0, 0 };
	int n;

	p = p ? p + strlen("(PostgreSQL) ") : text;
	while (*p == ' ' || *p == '\t')
		p++;
	n = read_numbers(p, v);
	if (n == 0 || v[0] < 6 || v[0] > 999)
		return -EINVAL;
	if (v[0] >= 10)		/* 10 and later: MAJOR.MINOR */
		return n > 2 || v[1] > 99 ? -EINVAL : (int)(v[0] * 10000 + v[1]);
	if (n < 2 || v[1] > 99 || v[2] > 99)	/* 9.6.24: two parts make the major */
		return -EINVAL;
	return (int)(v[0] * 10000 + v[1] * 100 + v[2]);
}

int pgbin_major(int version_num)
{
	return version_num >= 100000 ? version_num / 10000 : version_num / 100;
}

void pgbin_version_str(int version_num, char *out, size_t len)
{
	if (version_num >= 100000)
		snprintf(out, len, "%d.%d", version_num / 10000, version_num % 10000);
	else
		snprintf(out, len, "%d.%d.%d", version_num / 10000,
			 version_num / 100 % 100, version_num % 100);
}
