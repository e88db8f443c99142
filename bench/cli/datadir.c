/*
 * datadir: the data folder, looked for in order: the program's own folder
 * (a checkout), its parent (the unit tests, in tests/ of a checkout), its
 * ../share/eicbench (an installed or staged tree), the folder it was built
 * for. A folder counts when it holds scripts/plot-sweep.gp.
 */
#include "bench/cli/datadir.h"
#include "io/testhook.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EICBENCH_SHAREDIR
#define EICBENCH_SHAREDIR "/usr/local/share/eicbench"
#endif

#ifndef EICBENCH_DOCDIR
#define EICBENCH_DOCDIR "/usr/local/share/doc/eicbench"
#endif

#define DATADIR_MARK "scripts/plot-sweep.gp"

const char *datadir_installed(void)
{
	return EICBENCH_SHAREDIR;
}

const char *datadir_docs(void)
{
	return EICBENCH_DOCDIR;
}

/* Does DIR hold the mark? Then DIR, without its ".." and links, into OUT. */
static int holds(const char *dir, char *out, size_t len)
{
	char mark[PATH_MAX + sizeof(DATADIR_MARK) + 1], real[PATH_MAX];

	snprintf(mark, sizeof(mark), "%s/%s", dir, DATADIR_MARK);
	if (access(mark, R_OK) != 0 || !realpath(dir, real))
		return 0;
	return (size_t)snprintf(out, len, "%s", real) < len;
}

int datadir_find(char *dir, size_t len)
{
	static const char *const subs[] = { "", "/..", "/../share/eicbench", NULL };
	char exe[PATH_MAX], cand[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		for (int i = 0; subs[i]; i++) {
			snprintf(cand, sizeof(cand), "%s%s", exe, subs[i]);
			if (holds(cand, dir, len))
				return 0;
		}
	}
	return holds(EICBENCH_SHAREDIR, dir, len) ? 0 : -ENOENT;
}

void datadir_sweep_file(const char *name, char *path, size_t len)
{
	static const char *const subs[] = { "", "sweeps/", NULL };
	char dir[PATH_MAX];

	snprintf(path, len, "%s", name);
	if (access(name, F_OK) == 0 || name[0] == '/' || datadir_find(dir, sizeof(dir)) < 0)
		return;
	for (int i = 0; subs[i]; i++) {
		char cand[2 * PATH_MAX];

		snprintf(cand, sizeof(cand), "%s/%s%s", dir, subs[i], name);
		if (access(cand, R_OK) == 0) {
			snprintf(path, len, "%s", cand);
			return;
		}
	}
}

int datadir_check_hooks(char *err, size_t errlen)
{
	return testhook_check(err, errlen);
}
