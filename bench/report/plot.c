/*
 * plot: find a gnuplot script and run it, bounded; see plot.h.
 */
#include "bench/report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/spawn.h"
#include "bench/record/record.h"

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

/* Run ARGV (on PATH) with its output in LOG, for PLOT_TIMEOUT_MS at most.
 * Its exit status, or -errno (-ETIMEDOUT when it was stopped). */
static int run_logged(char *const argv[], const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), st;
	struct spawn_opts o = { .argv = argv, .path = true, .out_fd = fd,
				.timeout_s = PLOT_TIMEOUT_MS / 1e3 };

	st = spawn_run(&o);
	if (fd >= 0)
		close(fd);
	return st;
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
	int st, n = 3;

	if (plot_find_script(script, path, sizeof(path)) < 0)
		return snprintf(msg, msglen, "%s not found (set EICBENCH_SCRIPTS to the scripts folder)",
				script), 1;
	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	st = run_logged(argv, log);
	if (st < 0 && st != -ETIMEDOUT) {	/* it never ran: no log of its own */
		unlink(log);
		return snprintf(msg, msglen, "cannot start gnuplot: %s", strerror(-st)), -EAGAIN;
	}
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
