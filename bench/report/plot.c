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
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cli/datadir.h"
#include "bench/cli/spawn.h"
#include "bench/record/record.h"
#include "io/file.h"
#include "io/testhook.h"

static int readable(char *path, size_t len, const char *dir, const char *sub, const char *name)
{
	size_t n = (size_t)snprintf(path, len, "%s%s/%s", dir, sub, name);

	return n < len && access(path, R_OK) == 0;
}

int plot_find_script(const char *name, char *path, size_t len)
{
	const char *env = testhook_getenv("EICBENCH_SCRIPTS");	/* the tests' own, in the build tree only */
	char exe[PATH_MAX], dir[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return readable(path, len, env, "", name) ? 0 : -ENOENT;
	if (datadir_find(dir, sizeof(dir)) == 0 && readable(path, len, dir, "/scripts", name))
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	if (readable(path, len, exe, "/scripts", name) || readable(path, len, exe, "/../scripts", name))
		return 0;
	return -ENOENT;
}

/* Run ARGV (on PATH) with its output into FD (the log), for PLOT_TIMEOUT_MS
 * at most. Its exit status, or -errno (-ETIMEDOUT when it was stopped). */
static int run_logged(char *const argv[], int fd)
{
	struct spawn_opts o = { .argv = argv, .path = true, .out_fd = fd,
				.timeout_s = PLOT_TIMEOUT_MS / 1e3 };

	return spawn_run(&o);
}

/* BASE.svg and BASE.png, which gnuplot writes following links, must be
 * regular files or missing. 0, or -ELOOP with MSG naming the one that is
 * not. */
static int outputs_safe(const char *base, char *msg, size_t msglen)
{
	static const char *const ext[] = { ".svg", ".png" };
	char path[PATH_MAX];
	struct stat st;

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s%s", base, ext[i]);
		if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return snprintf(msg, msglen, "%s is %s, never written through: remove it", path,
					S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file"), -ELOOP;
	}
	return 0;
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
	int st, n = 3, fd;

	if (plot_find_script(script, path, sizeof(path)) < 0)
		return snprintf(msg, msglen, "%s not found (set EICBENCH_SCRIPTS to the scripts folder)",
				script), 1;
	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (args[0] && args[1] && (st = outputs_safe(args[1], msg, msglen)) < 0)
		return st;
	if ((fd = file_create(log, O_TRUNC)) < 0)
		return snprintf(msg, msglen, "cannot write %s: %s", log, file_strerror(fd)), fd;
	st = run_logged(argv, fd);
	close(fd);
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
