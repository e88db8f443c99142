/*
 * test_statedir: the state folder is $EICBENCH_STATE when set, else
 * /var/lib/eicbench as root, else $XDG_STATE_HOME/eicbench, else
 * ~/.local/state/eicbench, made with mode 0700; without any of them (not
 * root) there is none. The user's forms run as an unprivileged user (as
 * root, in a child that became nobody). Files are named by FNV-1a, checked
 * against the published test values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/pg/statedir.h"
#include "tests/fixture.h"

#define NOBODY 65534

static char tmp[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/test_statedir.XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fixture_remove(tmp);
	unsetenv("EICBENCH_STATE");
	return 0;
}

/* Is PATH a directory of mode 0700? */
static bool private_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700;
}

static void hash_and_names(void **state)
{
	char path[PATH_MAX], want[PATH_MAX];

	(void)state;
	assert_true(statedir_hash("") == 0xcbf29ce484222325ULL);
	assert_true(statedir_hash("a") == 0xaf63dc4c8601ec8cULL);
	assert_true(statedir_hash("foobar") == 0x85944171f73967e8ULL);
	snprintf(want, sizeof(want), "%s/own", tmp);
	setenv("EICBENCH_STATE", want, 1);
	assert_int_equal(statedir_path(path, sizeof(path)), 0);
	assert_string_equal(path, want);
	assert_true(private_dir(path));
	assert_int_equal(statedir_file("server", "a", ".lock", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/own/server-af63dc4c8601ec8c.lock", tmp);
	assert_string_equal(path, want);
	assert_int_equal(statedir_file("server", "a", ".lock", path, 20), -ENAMETOOLONG);
}

static void root_folder(void **state)
{
	char path[PATH_MAX];

	(void)state;
	if (geteuid() != 0)
		skip();
	unsetenv("EICBENCH_STATE");
	assert_int_equal(statedir_path(path, sizeof(path)), 0);
	assert_string_equal(path, "/var/lib/eicbench");
	assert_true(private_dir(path));
}

/* The user's forms; 0 or the number of the check that failed. */
static int user_forms(void)
{
	char path[PATH_MAX], want[PATH_MAX];

	unsetenv("EICBENCH_STATE");
	snprintf(want, sizeof(want), "%s/xdg", tmp);
	if (mkdir(want, 0755) < 0)
		return 1;
	setenv("XDG_STATE_HOME", want, 1);
	strncat(want, "/eicbench", sizeof(want) - strlen(want) - 1);
	if (statedir_path(path, sizeof(path)) != 0 || strcmp(path, want) || !private_dir(path))
		return 2;
	unsetenv("XDG_STATE_HOME");
	snprintf(want, sizeof(want), "%s/home", tmp);
	if (mkdir(want, 0755) < 0)
		return 3;
	setenv("HOME", want, 1);
	strncat(want, "/.local/state/eicbench", sizeof(want) - strlen(want) - 1);
	if (statedir_path(path, sizeof(path)) != 0 || strcmp(path, want) || !private_dir(path))
		return 4;
	unsetenv("HOME");
	if (statedir_path(path, sizeof(path)) != -ENOENT)
		return 5;
	return 0;
}

static void user_folders(void **state)
{
	pid_t pid;
	int st = -1;

	(void)state;
	if (geteuid() != 0) {
		assert_int_equal(user_forms(), 0);
		return;
	}
	assert_int_equal(chown(tmp, NOBODY, NOBODY), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(setgid(NOBODY) || setuid(NOBODY) ? 100 : user_forms());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(hash_and_names),
		T(root_folder),
		T(user_folders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
