/*
 * plot: find a gnuplot script and run it, bounded; see plot.h.
 */
#include "bench/plot.h"
#include "bench/record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int readable(char *path, size_t len, const char *dir, const char *sub, const char *name)
{
	size_t n = (size_t)snprintf(path, len, "%s%s/%s", dir, sub, name);

	return n < len && access(path, R_OK) == 0;
}

int plot_find_script(const char *name, char *path, size_t len)
{
	const char *env = getenv("EICBENCH_SCRIPTS");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return readable(path, len, env, "", name) ? 0 : -ENOENT;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	if (readable(path, len, exe, "/scripts", name) || readable(path, len, exe, "/../scripts", name))
		return 0;
	return -ENOENT;
}

static void child(char *const argv[], const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int in = open("/dev/null", O_RDONLY);

	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	if (in >= 0)
		dup2(in, STDIN_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

/* Wait for PID at most PLOT_TIMEOUT_MS, then kill it. Its exit status, or -ETIMEDOUT. */
static int bounded_wait(pid_t pid)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	int status;

	for (int waited = 0; waited < PLOT_TIMEOUT_MS; waited += 20) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (got < 0 && errno != EINTR)
			return -errno;
		nanosleep(&nap, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -ETIMEDOUT;
}

/* The plots and the log in the folder of LOG given to the folder's user. */
static void settle(const char *log)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", log);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		record_settle_owner(slash == dir ? "/" : dir);
	}
}

int plot_run(const char *script, char *const args[], const char *log,
	     char *msg, size_t msglen)
{
	char path[PATH_MAX];
	char *argv[16] = { "gnuplot", "-c", path };
	pid_t pid;
	int st, n = 3;

	if (plot_find_script(script, path, sizeof(path)) < 0)
		return snprintf(msg, msglen, "%s not found (set EICBENCH_SCRIPTS to the scripts folder)",
				script), 1;
	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		return snprintf(msg, msglen, "cannot start gnuplot: %s", strerror(errno)), -EAGAIN;
	if (pid == 0)
		child(argv, log);
	st = bounded_wait(pid);
	if (st == 0 || st == 127)
		unlink(log);
	settle(log);
	if (st == 0)
		return 0;
	if (st == 127)
		return snprintf(msg, msglen, "gnuplot not found on PATH (install gnuplot-nox, e.g. make deps)"), 1;
	snprintf(msg, msglen, "gnuplot %s; its messages are in %s",
		 st == -ETIMEDOUT ? "took longer than 60 s and was stopped" : "failed", log);
	return st < 0 ? st : -EIO;
}
