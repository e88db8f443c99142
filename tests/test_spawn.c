/*
 * test_spawn: real child processes (sh, sleep, id): exit statuses, output
 * captured (its end kept whole, however it was read) or written to a file,
 * a missing program, PATH lookup, the kill at the deadline (with output or
 * without), no inherited descriptor, LC_ALL=C, the process group, the
 * environment (only what any program needs, never a secret, unless the
 * whole is asked for), and the user switch (as root).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/spawn.h"

/* Run the shell script SCRIPT with its output in OUT (LEN bytes). */
static int sh(const char *script, char *out, size_t len, bool c_locale, bool pgroup)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct spawn_opts o = { .argv = argv, .out = out, .outlen = len, .out_fd = -1,
				.timeout_s = 30, .c_locale = c_locale, .new_pgroup = pgroup };

	return spawn_run(&o);
}

static void status_and_output(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(sh("echo out; echo err >&2", out, sizeof(out), false, false), 0);
	assert_string_equal(out, "out\nerr\n");
	assert_int_equal(sh("exit 3", out, sizeof(out), false, false), 3);
	assert_string_equal(out, "");
	assert_int_equal(sh("kill -9 $$", out, sizeof(out), false, false), 128 + 9);
	assert_int_equal(sh("read x; echo \"[$x]\"", out, sizeof(out), false, false), 0);
	assert_string_equal(out, "[]\n");	/* stdin is /dev/null */
}

/* Is OUT the end of "1\n2\n...N\n", and at least half of its buffer? */
static void assert_numbers_end(const char *out, size_t outlen, int last)
{
	static char all[200000];
	size_t len = 0, n = strlen(out);

	for (int i = 1; i <= last; i++)
		len += (size_t)snprintf(all + len, sizeof(all) - len, "%d\n", i);
	assert_true(n >= outlen / 2 && n < outlen);
	assert_string_equal(out, all + len - n);
}

static void tail_kept(void **state)
{
	char out[64];

	(void)state;
	/* many small writes, then a few large ones (awk's buffered output) */
	assert_int_equal(sh("i=0; while [ $i -lt 3000 ]; do i=$((i+1)); echo $i; done",
			    out, sizeof(out), false, false), 0);
	assert_numbers_end(out, sizeof(out), 3000);
	assert_int_equal(sh("awk 'BEGIN { for (i = 1; i <= 20000; i++) print i }'",
			    out, sizeof(out), false, false), 0);
	assert_numbers_end(out, sizeof(out), 20000);
}

static void missing_and_path(void **state)
{
	char out[256], *none[] = { "/nonexistent/prog", NULL };
	char *named[] = { "sh", "-c", "exit 5", NULL };
	struct spawn_opts o = { .argv = none, .out = out, .outlen = sizeof(out),
				.out_fd = -1, .timeout_s = 30 };

	(void)state;
	assert_int_equal(spawn_run(&o), 127);
	assert_non_null(strstr(out, "cannot run /nonexistent/prog"));
	o.argv = named;
	assert_int_equal(spawn_run(&o), 127);	/* a name, not a path */
	o.path = true;
	assert_int_equal(spawn_run(&o), 5);
}

static void killed_at_deadline(void **state)
{
	char out[64], *argv[] = { "/bin/sleep", "30", NULL };
	char path[] = "/tmp/test_spawn.XXXXXX";
	int fd = mkstemp(path);
	struct spawn_opts o = { .argv = argv, .out = out, .outlen = sizeof(out),
				.out_fd = -1, .timeout_s = 0.2 };

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(spawn_run(&o), -ETIMEDOUT);
	o.out = NULL;		/* no pipe to read: the wait alone is bounded */
	o.out_fd = fd;
	assert_int_equal(spawn_run(&o), -ETIMEDOUT);
	close(fd);
	unlink(path);
}

static void output_to_file(void **state)
{
	char path[] = "/tmp/test_spawn.XXXXXX", buf[64] = "";
	char *argv[] = { "/bin/sh", "-c", "echo one; echo two >&2", NULL };
	int fd = mkstemp(path);
	struct spawn_opts o = { .argv = argv, .out_fd = fd, .timeout_s = 30 };

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(spawn_run(&o), 0);
	assert_int_equal(pread(fd, buf, sizeof(buf) - 1, 0), 8);
	assert_string_equal(buf, "one\ntwo\n");
	close(fd);
	unlink(path);
}

static void nothing_inherited(void **state)
{
	char out[64];
	int fd = open("/dev/null", O_RDONLY);	/* not close-on-exec */

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 57), 57);
	assert_int_equal(sh("test -e /proc/self/fd/57", out, sizeof(out), false, false), 1);
	close(57);
	close(fd);
}

static void locale_and_group(void **state)
{
	char out[64], want[32];

	(void)state;
	unsetenv("LC_ALL");
	assert_int_equal(sh("echo \"[$LC_ALL]\"", out, sizeof(out), true, false), 0);
	assert_string_equal(out, "[C]\n");
	assert_int_equal(sh("echo \"[$LC_ALL]\"", out, sizeof(out), false, false), 0);
	assert_string_equal(out, "[]\n");
	snprintf(want, sizeof(want), "%d\n", (int)getpgrp());
	assert_int_equal(sh("ps -o pgid= -p $$ | tr -d ' '", out, sizeof(out), false, false), 0);
	assert_string_equal(out, want);
	assert_int_equal(sh("ps -o pgid= -p $$ | tr -d ' '", out, sizeof(out), false, true), 0);
	assert_string_not_equal(out, want);
}

/* The environment /usr/bin/env prints, WHOLE or not, into OUT. */
static void env_of_child(bool whole, char *out, size_t len)
{
	char *argv[] = { "/usr/bin/env", NULL };
	struct spawn_opts o = { .argv = argv, .out = out, .outlen = len, .out_fd = -1,
				.timeout_s = 30, .whole_env = whole };

	assert_int_equal(spawn_run(&o), 0);
}

static void environment(void **state)
{
	static const char *const secret[] = { "EICBENCH_SECRET_MARKER", "SSH_AUTH_SOCK", "PGPASSWORD",
		"PGHOST", "AWS_SECRET_ACCESS_KEY" };
	static const char *const kept[] = { "PATH=", "LANG=C.UTF-8", "LC_TIME=C", "TZ=UTC" };
	char out[65536];

	(void)state;
	for (size_t i = 0; i < sizeof(secret) / sizeof(secret[0]); i++)
		setenv(secret[i], "marker-x1", 1);
	setenv("LANG", "C.UTF-8", 1);
	setenv("LC_TIME", "C", 1);
	setenv("TZ", "UTC", 1);
	env_of_child(false, out, sizeof(out));
	assert_null(strstr(out, "marker-x1"));
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		assert_non_null(strstr(out, kept[i]));
	env_of_child(true, out, sizeof(out));
	assert_non_null(strstr(out, "EICBENCH_SECRET_MARKER=marker-x1"));
	assert_non_null(strstr(out, "SSH_AUTH_SOCK=marker-x1"));
	assert_true(spawn_env_kept("LC_ALL=C") && spawn_env_kept("PATH=/bin"));
	assert_false(spawn_env_kept("LC_=x") || spawn_env_kept("PATHX=1") || spawn_env_kept("PATH"));
	for (size_t i = 0; i < sizeof(secret) / sizeof(secret[0]); i++)
		unsetenv(secret[i]);
}

static void as_user(void **state)
{
	char out[64], want[32], *argv[] = { "/usr/bin/id", "-u", NULL };
	struct passwd *pw = getpwnam("nobody");
	struct spawn_opts o = { .argv = argv, .out = out, .outlen = sizeof(out),
				.out_fd = -1, .timeout_s = 30 };

	(void)state;
	if (geteuid() != 0 || !pw)
		skip();	/* switching users needs root and a user "nobody" */
	o.user = pw->pw_name;
	o.uid = pw->pw_uid;
	o.gid = pw->pw_gid;
	snprintf(want, sizeof(want), "%d\n", (int)pw->pw_uid);
	assert_int_equal(spawn_run(&o), 0);
	assert_string_equal(out, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(status_and_output),
		cmocka_unit_test(tail_kept),
		cmocka_unit_test(missing_and_path),
		cmocka_unit_test(killed_at_deadline),
		cmocka_unit_test(output_to_file),
		cmocka_unit_test(nothing_inherited),
		cmocka_unit_test(locale_and_group),
		cmocka_unit_test(environment),
		cmocka_unit_test(as_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
