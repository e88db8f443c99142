/*
 * test_faultpoint: a child process stops itself at the point the
 * environment names, at the Nth time when asked, and only there; without
 * the variable it runs straight through.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/faultpoint.h"

/* Run a child that reaches "a", "b", "b", "c" in turn with EICBENCH_FAULT
 * set to ENV (NULL: unset); each stop is continued. Returns how many times
 * it stopped, and in *WHERE the 1-based step of the first stop. */
static int stops_of(const char *env, int *where)
{
	static const char *const steps[] = { "a", "b", "b", "c" };
	int pfd[2], status, stops = 0;
	pid_t pid;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		if (env)
			setenv(FAULTPOINT_ENV, env, 1);
		else
			unsetenv(FAULTPOINT_ENV);
		for (int i = 0; i < 4; i++) {
			char step = (char)('1' + i);

			if (write(pfd[1], &step, 1) != 1)
				_exit(2);
			faultpoint(steps[i]);
		}
		_exit(0);
	}
	close(pfd[1]);
	*where = 0;
	for (;;) {
		assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
		if (!WIFSTOPPED(status))
			break;
		if (stops++ == 0) {
			char buf[8];
			ssize_t n = read(pfd[0], buf, sizeof(buf));

			assert_true(n > 0);
			*where = buf[n - 1] - '0';
		}
		kill(pid, SIGCONT);
	}
	close(pfd[0]);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	return stops;
}

static void stops_where_named(void **state)
{
	int where;

	(void)state;
	assert_int_equal(stops_of("a", &where), 1);
	assert_int_equal(where, 1);
	assert_int_equal(stops_of("c", &where), 1);
	assert_int_equal(where, 4);
	assert_int_equal(stops_of("b", &where), 1);	/* once, at the first */
	assert_int_equal(where, 2);
}

static void stops_at_the_nth_time(void **state)
{
	int where;

	(void)state;
	assert_int_equal(stops_of("b@2", &where), 1);
	assert_int_equal(where, 3);
	assert_int_equal(stops_of("b@3", &where), 0);	/* reached twice only */
}

static void runs_through_otherwise(void **state)
{
	int where;

	(void)state;
	assert_int_equal(stops_of(NULL, &where), 0);
	assert_int_equal(stops_of("", &where), 0);
	assert_int_equal(stops_of("d", &where), 0);
	assert_int_equal(stops_of("ab", &where), 0);
	assert_int_equal(stops_of("a@", &where), 0);	/* no Nth: never */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stops_where_named),
		cmocka_unit_test(stops_at_the_nth_time),
		cmocka_unit_test(runs_through_otherwise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
