/*
 * outdir: --out checked before anything is made; see outdir.h. The sudo
 * check runs access(2) in a child that has set the invoking user's groups,
 * gid and uid, so the answer is the kernel's, ACLs and all.
 */
#include "bench/cli/outdir.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int outdir_sudo_ids(uid_t *uid, gid_t *gid)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	char *end;
	unsigned long a, b;

	if (geteuid() != 0 || !u || !g || !*u || !*g)
		return -1;
	errno = 0;
	a = strtoul(u, &end, 10);
	if (*end || errno || a == 0 || a > 0x7fffffffUL)
		return -1;
	b = strtoul(g, &end, 10);
	if (*end || errno || b > 0x7fffffffUL)
		return -1;
	*uid = (uid_t)a;
	*gid = (gid_t)b;
	return 0;
}

/* May UID (GID and its groups) write and search DIR? Asked in a child. */
static bool user_may_write(const char *dir, uid_t uid, gid_t gid)
{
	struct passwd *pw = getpwuid(uid);
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		if ((pw ? initgroups(pw->pw_name, gid) : setgroups(0, NULL)) < 0 ||
		    setgid(gid) < 0 || setuid(uid) < 0)
			_exit(2);
		_exit(access(dir, W_OK | X_OK) == 0 ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The deepest part of PATH that exists, into OUT ("." for a relative path
 * none of whose parts exists). */
static void existing_part(const char *path, char *out, size_t len)
{
	struct stat st;
	char *slash;

	snprintf(out, len, "%s", path);
	while (stat(out, &st) < 0) {
		slash = strrchr(out, '/');
		while (slash && slash > out && slash[1] == '\0') {	/* "a/b/" */
			*slash = '\0';
			slash = strrchr(out, '/');
		}
		if (!slash) {
			snprintf(out, len, ".");
			return;
		}
		if (slash == out) {
			snprintf(out, len, "/");
			return;
		}
		*slash = '\0';
	}
}

int outdir_check(const char *flag, const char *path, char *err, size_t errlen)
{
	char shown[200], part[PATH_MAX];
	struct stat st;
	size_t n = strlen(path);
	uid_t uid;
	gid_t gid;

	snprintf(shown, sizeof(shown), "%.160s%s", path, n > 160 ? "..." : "");
	if (n == 0) {
		snprintf(err, errlen, "%s: '' is no folder; give a new or empty folder, or leave %s out for the default under results/",
			 flag, flag);
		return -EINVAL;
	}
	if (n > PATH_MAX - OUTDIR_ROOM) {
		snprintf(err, errlen, "%s: a path of %zu bytes is too long; give one of at most %d bytes (the files of a result folder go in it)",
			 flag, n, PATH_MAX - OUTDIR_ROOM);
		return -EINVAL;
	}
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: '%s' is a file, not a folder; give a new or empty folder", flag, shown);
		return -EINVAL;
	}
	if (outdir_sudo_ids(&uid, &gid) < 0)
		return 0;
	existing_part(path, part, sizeof(part));
	if (!user_may_write(part, uid, gid)) {
		char where[200];

		snprintf(where, sizeof(where), "%.160s%s", part, strlen(part) > 160 ? "..." : "");
		snprintf(err, errlen, "%s: '%s': the user who ran sudo (uid %u) may not write in '%s', and what is made there would be theirs; give a folder they can write",
			 flag, shown, (unsigned)uid, where);
		return -EINVAL;
	}
	return 0;
}
