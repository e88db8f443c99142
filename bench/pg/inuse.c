/*
 * inuse: clusters with tablespaces in a folder, and processes inside it;
 * see inuse.h.
 */
#include "bench/pg/inuse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/file.h"

/* Is PATH DIR or inside it? Both as given and resolved. */
static bool within(const char *path, const char *dir)
{
	char real[PATH_MAX];
	size_t n = strlen(dir);

	if (!strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/'))
		return true;
	return realpath(path, real) && !strncmp(real, dir, n) && (real[n] == '\0' || real[n] == '/');
}

static void comm_of(const char *pid, char *out, size_t len)
{
	char path[PATH_MAX], *text;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	snprintf(out, len, "?");
	if (file_read_all(path, 256, &text, NULL) == 0) {
		snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
	}
}

/* PID's working directory is a data directory whose postmaster it is. */
static bool is_postmaster(const char *pid, const char *cwd)
{
	char path[PATH_MAX + 32], *text;
	bool yes = false;

	snprintf(path, sizeof(path), "%s/postmaster.pid", cwd);
	if (file_read_all(path, 1 << 16, &text, NULL) == 0) {
		yes = strtol(text, NULL, 10) == strtol(pid, NULL, 10);
		free(text);
	}
	return yes;
}

/* A tablespace of the cluster in DATADIR inside DIR: 1 (WHO filled), 0. */
static int cluster_uses(const char *pid, const char *datadir, const char *dir,
			char *who, size_t len)
{
	char path[PATH_MAX * 2], target[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int found = 0;

	snprintf(path, sizeof(path), "%s/pg_tblspc", datadir);
	if (!(dp = opendir(path)))
		return 0;
	while (!found && (d = readdir(dp)) != NULL) {
		ssize_t n;

		snprintf(path, sizeof(path), "%s/pg_tblspc/%s", datadir, d->d_name);
		if (d->d_name[0] == '.' || (n = readlink(path, target, sizeof(target) - 1)) < 0)
			continue;
		target[n] = '\0';
		if (!within(target, dir))
			continue;
		snprintf(who, len, "the PostgreSQL cluster in %s (postmaster pid %s) is running with a tablespace at %s: stop it first (eicbench server stop --datadir %s, or the way it was started)",
			 datadir, pid, target, datadir);
		found = 1;
	}
	closedir(dp);
	return found;
}

/* One of PID's links (cwd, root, fd/N) inside DIR into TARGET: 1, or 0. */
static int link_inside(const char *pid, const char *dir, char *target, size_t len)
{
	static const char *const links[] = { "cwd", "root" };
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	ssize_t n;
	int found = 0;

	for (size_t i = 0; !found && i < 2; i++) {
		snprintf(path, sizeof(path), "/proc/%s/%s", pid, links[i]);
		if ((n = readlink(path, target, len - 1)) > 0)
			target[n] = '\0', found = strcmp(target, "/") && within(target, dir);
	}
	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	for (dp = found ? NULL : opendir(path); dp && !found && (d = readdir(dp)) != NULL;) {
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, d->d_name);
		if (d->d_name[0] != '.' && (n = readlink(path, target, len - 1)) > 0)
			target[n] = '\0', found = target[0] == '/' && within(target, dir);
	}
	if (dp)
		closedir(dp);
	return found;
}

int inuse_find(const char *dir, char *who, size_t len)
{
	char real[PATH_MAX], cwd[PATH_MAX], path[PATH_MAX], target[PATH_MAX], comm[64];
	const char *d = realpath(dir, real) ? real : dir;
	struct dirent *e;
	DIR *proc = opendir("/proc");
	int found = 0;

	if (!proc)
		return -errno;
	while (!found && (e = readdir(proc)) != NULL) {
		ssize_t n;

		if (!isdigit((unsigned char)e->d_name[0]) || strtol(e->d_name, NULL, 10) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cwd", e->d_name);
		n = readlink(path, cwd, sizeof(cwd) - 1);
		if (n > 0) {
			cwd[n] = '\0';
			if (is_postmaster(e->d_name, cwd) && (found = cluster_uses(e->d_name, cwd, d, who, len)))
				break;
		}
		if ((found = link_inside(e->d_name, d, target, sizeof(target)))) {
			comm_of(e->d_name, comm, sizeof(comm));
			snprintf(who, len, "process %s (%s) is using %s: let it finish, or stop it first",
				 e->d_name, comm, target);
		}
	}
	closedir(proc);
	return found;
}
