/*
 * test_datadir: the data folder of a program in tests/ of a checkout is the
 * checkout (its parent folder holds scripts/plot-sweep.gp), where the
 * plots find their scripts (EICBENCH_SCRIPTS, in the build tree, names
 * another folder); a sweep file is read as
 * given when it exists, else from the data folder as NAME or sweeps/NAME,
 * from any working directory.
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

#include "bench/cli/datadir.h"
#include "bench/report/plot.h"
#include "tests/fixture.h"

static char top[PATH_MAX];	/* the checkout: the tests run from there */

static void finds_the_checkout(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	assert_int_equal(datadir_find(dir, sizeof(dir)), 0);
	assert_string_equal(dir, top);
	assert_int_equal(datadir_find(dir, 4), -ENOENT);	/* no room: not found, never cut */
}

/* The plots' scripts come from the data folder; EICBENCH_SCRIPTS names
 * another folder, taken in the build tree (a test hook: io/testhook.h). */
static void finds_the_scripts(void **state)
{
	char path[PATH_MAX], want[PATH_MAX + 32];

	(void)state;
	unsetenv("EICBENCH_SCRIPTS");
	assert_int_equal(plot_find_script("plot-sweep.gp", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/scripts/plot-sweep.gp", top);
	assert_string_equal(path, want);
	setenv("EICBENCH_SCRIPTS", "/nosuch", 1);
	assert_int_equal(plot_find_script("plot-sweep.gp", path, sizeof(path)), -ENOENT);
	unsetenv("EICBENCH_SCRIPTS");
}

static void sweep_files(void **state)
{
	char *dir = fixture_dir(), path[PATH_MAX], want[PATH_MAX + 32];
	FILE *f;

	(void)state;
	assert_non_null(dir);
	assert_int_equal(chdir(dir), 0);
	snprintf(want, sizeof(want), "%s/sweeps/seed-2013.ini", top);
	datadir_sweep_file("seed-2013.ini", path, sizeof(path));
	assert_string_equal(path, want);
	datadir_sweep_file("sweeps/seed-2013.ini", path, sizeof(path));
	assert_string_equal(path, want);
	/* one of the working directory wins */
	f = fopen("seed-2013.ini", "w");
	assert_non_null(f);
	fclose(f);
	datadir_sweep_file("seed-2013.ini", path, sizeof(path));
	assert_string_equal(path, "seed-2013.ini");
	/* none found: as given, for the reader to say why */
	datadir_sweep_file("nosuch.ini", path, sizeof(path));
	assert_string_equal(path, "nosuch.ini");
	datadir_sweep_file("/nosuch/seed-2013.ini", path, sizeof(path));
	assert_string_equal(path, "/nosuch/seed-2013.ini");
	assert_int_equal(chdir(top), 0);
	fixture_remove(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_the_checkout),
		cmocka_unit_test(finds_the_scripts),
		cmocka_unit_test(sweep_files),
	};

	if (!realpath(".", top))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
