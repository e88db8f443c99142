/*
 * test_pgbin: version strings of postgres --version, PG_VERSION files and
 * development builds; the build cache's location; looking a major version
 * up in a real build cache laid out on disk (finished and unfinished builds).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/pg/pgbin.h"

static const struct version_case {
	const char *in;
	int num;
	int major;
	const char *str;
} versions[] = {
	{ "postgres (PostgreSQL) 18.6\n", 180006, 18, "18.6" },
	{ "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n", 150018, 15, "15.18" },
	{ "initdb (PostgreSQL) 9.6.24\n", 90624, 906, "9.6.24" },
	{ "18\n", 180000, 18, "18.0" },           /* a PG_VERSION file */
	{ "9.6\n", 90600, 906, "9.6.0" },
	{ "postgres (PostgreSQL) 19devel", 190000, 19, "19.0" },
	{ "postgres (PostgreSQL) 18beta1", 180000, 18, "18.0" },
	{ "10.23", 100023, 10, "10.23" },
};

static const char *const bad_versions[] = {
	"", "postgres (PostgreSQL) ", "cannot run postgres", "9", "5.1", "18.6.1", "9.6.100", "1000.1",
};

static void parse_version(void **state)
{
	char s[32];

	(void)state;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		int v = pgbin_parse_version(versions[i].in);

		assert_int_equal(v, versions[i].num);
		assert_int_equal(pgbin_major(v), versions[i].major);
		pgbin_version_str(v, s, sizeof(s));
		assert_string_equal(s, versions[i].str);
	}
	for (size_t i = 0; i < sizeof(bad_versions) / sizeof(bad_versions[0]); i++)
		assert_int_equal(pgbin_parse_version(bad_versions[i]), -EINVAL);
}

static void cache_dir(void **state)
{
	char out[PATH_MAX];

	(void)state;
	setenv("EICBENCH_CACHE", "/some/where", 1);
	assert_int_equal(pgbin_cache_dir(out, sizeof(out)), 0);
	assert_string_equal(out, "/some/where");
	assert_int_equal(pgbin_cache_dir(out, 5), -ENAMETOOLONG);
	unsetenv("EICBENCH_CACHE");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	assert_int_equal(pgbin_cache_dir(out, sizeof(out)), 0);
	/* root's home is private: the server's user could not reach a build there */
	assert_string_equal(out, geteuid() == 0 ? "/var/cache/eicbench" : "/xdg/eicbench");
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(pgbin_cache_dir(out, sizeof(out)), 0);
	assert_string_equal(out, geteuid() == 0 ? "/var/cache/eicbench" : "/home/u/.cache/eicbench");
}

static void touch(const char *dir, const char *name, mode_t mode)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}

/* CACHE/pg/NAME with bin/postgres and bin/initdb, and the stamp if FINISHED. */
static void fake_build(const char *cache, const char *name, int finished)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/pg", cache);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/pg/%s", cache, name);
	assert_int_equal(mkdir(p, 0755), 0);
	if (finished)
		touch(p, PGBIN_BUILD_STAMP, 0644);
	snprintf(p, sizeof(p), "%s/pg/%s/bin", cache, name);
	assert_int_equal(mkdir(p, 0755), 0);
	touch(p, "postgres", 0755);
	touch(p, "initdb", 0755);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void find_major(void **state)
{
	char cache[] = "/var/tmp/eicbench-pgbin.XXXXXX", out[PATH_MAX], want[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(cache));
	setenv("EICBENCH_CACHE", cache, 1);
	assert_int_equal(pgbin_find_major(97, out, sizeof(out)), -ENOENT);

	fake_build(cache, "97.3", 1);
	fake_build(cache, "97.10", 1);      /* newer: 10 > 3 as numbers */
	fake_build(cache, "97.11", 0);      /* unfinished: no stamp */
	fake_build(cache, "970.1", 1);      /* another major */
	fake_build(cache, "97.x", 1);       /* not a version */
	assert_int_equal(pgbin_find_major(97, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/pg/97.10/bin", cache);
	assert_string_equal(out, want);
	assert_int_equal(pgbin_has_tools(want), 1);
	snprintf(want, sizeof(want), "%s/pg/970.1/bin", cache);
	assert_int_equal(pgbin_find_major(970, out, sizeof(out)), 0);
	assert_string_equal(out, want);
	assert_int_equal(pgbin_find_major(9, out, sizeof(out)), -ENOENT);

	/* a version the cache lacks comes from Debian's directory when there */
	if (pgbin_has_tools("/usr/lib/postgresql/15/bin")) {
		assert_int_equal(pgbin_find_major(15, out, sizeof(out)), 0);
		assert_string_equal(out, "/usr/lib/postgresql/15/bin");
	}
	assert_int_equal(nftw(cache, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	unsetenv("EICBENCH_CACHE");
}

static void has_tools(void **state)
{
	char dir[] = "/var/tmp/eicbench-pgbin.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_false(pgbin_has_tools(dir));
	touch(dir, "postgres", 0755);
	assert_false(pgbin_has_tools(dir));     /* no initdb */
	touch(dir, "initdb", 0644);
	assert_false(pgbin_has_tools(dir));     /* not executable */
	touch(dir, "initdb", 0755);
	assert_true(pgbin_has_tools(dir));
	assert_int_equal(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_version),
		cmocka_unit_test(cache_dir),
		cmocka_unit_test(find_major),
		cmocka_unit_test(has_tools),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
