/*
 * spawn: a child process with a deadline; see spawn.h. The parent reads a
 * capturing pipe until end of file or the deadline, then waits for the
 * child on a pidfd (poll with the time left), so a child that neither exits
 * nor writes is still killed on time. Times are milliseconds of the
 * monotonic clock.
 */
#include "bench/cli/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/clock.h"

int spawn_become(const char *user, uid_t uid, gid_t gid)
{
	if (initgroups(user, gid) < 0 || setgid(gid) < 0 || setuid(uid) < 0)
		return -errno;
	return 0;
}

bool spawn_env_kept(const char *entry)
{
	static const char *const names[] = { "PATH", "HOME", "TMPDIR", "TZ", "LANG", "LANGUAGE",
		"GDFONTPATH", "GNUPLOT_LIB", "GNUPLOT_DEFAULT_GDFONT", "GNUPLOT_FONTPATH",
		"FONTCONFIG_FILE", "FONTCONFIG_PATH" };
	size_t n = strcspn(entry, "=");

	if (entry[n] != '=')
		return false;
	if (n > 3 && !strncmp(entry, "LC_", 3))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !strncmp(entry, names[i], n))
			return true;
	return false;
}

/* The child's environment into ENV (room for MAX, NULL-terminated): what
 * spawn_env_kept() keeps, or all of it; LC_ALL=C on top when C_LOCALE.
 * Pointers into environ only: nothing is allocated after the fork. */
static void child_env(char **env, size_t max, bool whole, bool c_locale)
{
	extern char **environ;
	size_t n = 0;

	for (char **e = environ; e && *e && n + 2 < max; e++) {
		if (c_locale && !strncmp(*e, "LC_ALL=", 7))
			continue;
		if (whole || spawn_env_kept(*e))
			env[n++] = *e;
	}
	if (c_locale)
		env[n++] = "LC_ALL=C";
	env[n] = NULL;
}

void spawn_exec(const struct spawn_opts *o, int out_fd)
{
	int devnull = open("/dev/null", O_RDONLY), ret;
	char *env[512];

	if (o->new_pgroup)
		setpgid(0, 0);
	if (devnull >= 0)
		dup2(devnull, 0);
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
	}
	close_range(3, ~0U, 0);
	child_env(env, sizeof(env) / sizeof(env[0]), o->whole_env, o->c_locale);
	if (o->user && (ret = spawn_become(o->user, o->uid, o->gid)) < 0) {
		dprintf(2, "cannot switch to user %s: %s\n", o->user, strerror(-ret));
		_exit(126);
	}
	if (o->path)
		execvpe(o->argv[0], o->argv, env);
	else
		execve(o->argv[0], o->argv, env);
	dprintf(2, "cannot run %s: %s\n", o->argv[0], strerror(errno));
	_exit(127);
}

/* Milliseconds left until DEADLINE_MS, for poll(): 0 when past. */
static int ms_left(double deadline_ms)
{
	double left = deadline_ms - clock_now_ms();

	if (left <= 0)
		return 0;
	return left < INT_MAX - 1 ? (int)left + 1 : INT_MAX;
}

/*
 * Append the N bytes of BUF to OUT (USED so far). When they do not fit,
 * the last half of OUT's room is kept: the end of what was there and of
 * BUF, or of BUF alone when it fills that half by itself.
 */
static void keep_tail(char *out, size_t outlen, size_t *used, const char *buf, size_t n)
{
	size_t half = outlen / 2;

	if (*used + n >= outlen && n >= half) {
		buf += n - half;
		n = half;
		*used = 0;
	} else if (*used + n >= outlen) {
		memmove(out, out + *used - (half - n), half - n);
		*used = half - n;
	}
	memcpy(out + *used, buf, n);
	*used += n;
	out[*used] = '\0';
}

/* Read what the child prints into OUT (keeping the last part) until end of
 * file, bounded by DEADLINE_MS. 0 or -errno (-ETIMEDOUT). */
static int drain(int fd, char *out, size_t outlen, double deadline_ms)
{
	size_t used = 0;
	char buf[4096];

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms = ms_left(deadline_ms);
		ssize_t n;

		if (ms == 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, ms > 1000 ? 1000 : ms) < 0 && errno != EINTR)
			return -errno;
		n = read(fd, buf, sizeof(buf));
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0 && outlen >= 2)
			keep_tail(out, outlen, &used, buf, (size_t)n);
	}
}

/* Until PID has exited or DEADLINE_MS: 0, -ETIMEDOUT or -errno. */
static int wait_exit(pid_t pid, double deadline_ms)
{
	int pfd = pidfd_open(pid, 0), ret = 0;

	if (pfd < 0)
		return -errno;
	for (;;) {
		struct pollfd p = { .fd = pfd, .events = POLLIN };
		int ms = ms_left(deadline_ms), n = poll(&p, 1, ms);

		if (n > 0)
			break;
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (n == 0 && ms == 0) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	close(pfd);
	return ret;
}

/* Wait for PID, killing it at DEADLINE_MS or when KILL_NOW. Its status or -errno. */
static int reap(pid_t pid, double deadline_ms, bool kill_now)
{
	int ret = kill_now ? -ETIMEDOUT : wait_exit(pid, deadline_ms), status;

	if (ret < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret < 0)
		return ret;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int spawn_run(const struct spawn_opts *o)
{
	double deadline = clock_now_ms() + o->timeout_s * 1e3;
	int pfd[2] = { -1, -1 }, ret, st;
	pid_t pid;

	if (o->out && o->outlen)
		o->out[0] = '\0';
	if (o->out && pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0)
		spawn_exec(o, o->out ? pfd[1] : o->out_fd);
	ret = pid < 0 ? -errno : 0;
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (ret == 0 && o->out) {
		fcntl(pfd[0], F_SETFL, O_NONBLOCK);
		ret = drain(pfd[0], o->out, o->outlen, deadline);
	}
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pid < 0)
		return ret;
	st = reap(pid, deadline, ret == -ETIMEDOUT);
	return st < 0 || ret == 0 ? st : ret;
}
