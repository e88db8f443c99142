/*
 * test_outdir: --out checked before anything is made: empty text, a file,
 * a path too long for a result folder's files are refused with the flag
 * and the value named; a new folder (missing parents too) and an existing
 * empty one are taken. Without sudo's variables no user's access is asked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/outdir.h"

static void checks(void **state)
{
	char dir[] = "/tmp/test_outdir.XXXXXX", file[64], err[512] = "", *long_path;

	(void)state;
	unsetenv("SUDO_UID");
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/f", dir);
	fclose(fopen(file, "w"));
	assert_int_equal(outdir_check("--out", "", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--out: '' is no folder"));
	assert_int_equal(outdir_check("--out", file, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is a file, not a folder"));
	long_path = malloc(PATH_MAX);
	memset(long_path, 'a', PATH_MAX - OUTDIR_ROOM + 1);
	long_path[PATH_MAX - OUTDIR_ROOM + 1] = '\0';
	assert_int_equal(outdir_check("--out", long_path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is too long; give one of at most"));
	long_path[PATH_MAX - OUTDIR_ROOM] = '\0';
	assert_int_equal(outdir_check("--out", long_path, err, sizeof(err)), 0);
	free(long_path);
	assert_int_equal(outdir_check("--out", dir, err, sizeof(err)), 0);
	snprintf(file, sizeof(file), "%s/new/deeper", dir);
	assert_int_equal(outdir_check("--out", file, err, sizeof(err)), 0);
	snprintf(file, sizeof(file), "%s/f", dir);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
