/*
 * record_file: durable files and result folders. A whole file goes to a
 * temporary name, is fsync'd, renamed over the target and its directory
 * fsync'd; a result folder is made once (PARENT/<UTC stamp>-<command>, then
 * -2, -3 ... when taken) and never reused. As root under sudo, what is
 * written here is given to the user who ran sudo. Nothing here prints;
 * errors come back as -errno with a message in the caller's buffer.
 */
#include "bench/record/record_priv.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cli/outdir.h"

#define SUFFIX_MAX 999          /* -2 ... -999 when a timestamp is taken */

int record_join(char *out, size_t len, const char *dir, const char *file,
		char *err, size_t errlen)
{
	if ((size_t)snprintf(out, len, "%s/%s", dir, file) >= len) {
		snprintf(err, errlen, "path too long: %s/%s", dir, file);
		return -ENAMETOOLONG;
	}
	return 0;
}

int record_fail(int rc, char *err, size_t errlen, const char *what, const char *path)
{
	snprintf(err, errlen, "%s %s: %s", what, path, strerror(-rc));
	return rc;
}

int record_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* As root under sudo, the user who ran sudo: results are theirs, so that a
 * later report without root can read and remove them. 0 with the ids,
 * else -1 (files stay the process's). */
static int invoker(uid_t *uid, gid_t *gid)
{
	return outdir_sudo_ids(uid, gid);
}

void record_give_fd(int fd)
{
	uid_t u;
	gid_t g;

	if (invoker(&u, &g) == 0)
		(void)!fchown(fd, u, g);
}

static void give_path(const char *path)
{
	uid_t u;
	gid_t g;

	if (invoker(&u, &g) == 0)
		(void)!lchown(path, u, g);
}

int record_settle_owner(const char *dir)
{
	uid_t u;
	gid_t g;
	DIR *d;
	struct dirent *e;

	if (invoker(&u, &g) < 0)
		return 0;
	if (!(d = opendir(dir)))
		return -errno;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			(void)!fchownat(dirfd(d), e->d_name, u, g, AT_SYMLINK_NOFOLLOW);
	closedir(d);
	return 0;
}

/*
 * Written relative to the folder's descriptor: the temporary file is made
 * with O_EXCL | O_NOFOLLOW (a link planted under its name is refused, never
 * followed) and renamed over the name, so a folder another user owns (the
 * cluster's, as root) cannot redirect the write.
 */
int record_write_file_atomic(const char *path, const void *data, size_t len,
			     char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[NAME_MAX + 1];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int dfd, fd, rc = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if ((size_t)(slash - path) >= sizeof(dir) || strlen(base) + 24 > NAME_MAX)
		return record_fail(-ENAMETOOLONG, err, errlen, "cannot write", path);
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	snprintf(tmp, sizeof(tmp), ".%s.tmp.%ld", base, (long)getpid());
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return record_fail(-errno, err, errlen, "cannot write", path);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		rc = -errno;
	else
		record_give_fd(fd);
	if (rc == 0)
		rc = write_all(fd, data, len);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && renameat(dfd, tmp, dfd, base) < 0)
		rc = -errno;
	if (rc < 0 && fd >= 0)
		unlinkat(dfd, tmp, 0);
	if (rc == 0 && fsync(dfd) < 0)
		rc = -errno;
	close(dfd);
	return rc < 0 ? record_fail(rc, err, errlen, "cannot write", path) : 0;
}

/* mkdir -p PATH (0755). 0 or -errno. */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) == 0)
			give_path(buf);
		else if (errno != EEXIST)
			return -errno;
		*p = c;
		if (c == '\0')
			return 0;
	}
}

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, RECORD_LOCK) != 0) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

static bool command_ok(const char *command)
{
	size_t n = command ? strlen(command) : 0;

	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)command[i]) && command[i] != '-' && command[i] != '_')
			return false;
	return true;
}

static int use_explicit(const char *out, char *path_out, size_t len,
			char *err, size_t errlen)
{
	int rc = make_dirs(out);

	if (rc < 0)
		return record_fail(rc, err, errlen, "cannot create", out);
	rc = dir_is_empty(out);
	if (rc < 0)
		return record_fail(rc, err, errlen, "cannot read", out);
	if (rc == 0) {
		snprintf(err, errlen, "%s is not empty; results are never overwritten: name a new or empty folder", out);
		return -EEXIST;
	}
	if ((size_t)snprintf(path_out, len, "%s", out) >= len)
		return record_fail(-ENAMETOOLONG, err, errlen, "cannot use", out);
	return 0;
}

/* PARENT/STAMP-COMMAND[-K]; 0 made, 1 taken, -errno. */
static int try_dir(const char *parent, const char *stamp, const char *command,
		   int k, char *path, size_t len)
{
	int n = k == 1 ? snprintf(path, len, "%s/%s-%s", parent, stamp, command)
		       : snprintf(path, len, "%s/%s-%s-%d", parent, stamp, command, k);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (mkdir(path, 0755) == 0) {
		give_path(path);
		return 0;
	}
	return errno == EEXIST ? 1 : -errno;
}

static int make_stamped(const char *parent, const char *command, time_t when,
			char *path_out, size_t len, char *err, size_t errlen)
{
	char stamp[32];
	struct tm tm;
	int rc = make_dirs(parent);

	if (rc < 0)
		return record_fail(rc, err, errlen, "cannot create", parent);
	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (int k = 1; k <= SUFFIX_MAX; k++) {
		rc = try_dir(parent, stamp, command, k, path_out, len);
		if (rc == 0)
			return record_fsync_dir(parent) < 0 ? record_fail(-errno, err, errlen, "cannot sync", parent) : 0;
		if (rc < 0)
			return record_fail(rc, err, errlen, "cannot create a result folder in", parent);
	}
	snprintf(err, errlen, "%s: %d result folders named %s-%s already", parent, SUFFIX_MAX, stamp, command);
	return -EEXIST;
}

int record_dir_create_at(const char *parent, const char *command,
			 const char *explicit_out, time_t when,
			 char *path_out, size_t len, char *err, size_t errlen)
{
	if (!command_ok(command)) {
		snprintf(err, errlen, "command name '%s' is not allowed in a folder name; use letters, digits, '-' and '_'",
			 command ? command : "");
		return -EINVAL;
	}
	if (explicit_out && *explicit_out)
		return use_explicit(explicit_out, path_out, len, err, errlen);
	return make_stamped(parent ? parent : RECORD_PARENT, command, when,
			    path_out, len, err, errlen);
}

int record_dir_create(const char *parent, const char *command,
		      const char *explicit_out, char *path_out, size_t len,
		      char *err, size_t errlen)
{
	return record_dir_create_at(parent, command, explicit_out, time(NULL),
				    path_out, len, err, errlen);
}

int record_write_rendered(const char *path, int (*render)(const void *arg, FILE *f),
			  const void *arg, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return snprintf(err, errlen, "%s: out of memory while rendering", path), -ENOMEM;
	ret = render(arg, f);
	if (fclose(f) != 0 && ret == 0)
		ret = -ENOMEM;
	if (ret == 0)
		ret = record_write_file_atomic(path, buf, len, err, errlen);
	else
		snprintf(err, errlen, "%s: cannot render it (%s)", path, strerror(-ret));
	free(buf);
	return ret;
}

int record_meta_write(const char *dir, const json_t *meta, char *err, size_t errlen)
{
	char path[PATH_MAX];
	char *text;
	int rc = record_join(path, sizeof(path), dir, RECORD_META, err, errlen);

	if (rc < 0)
		return rc;
	text = json_dumps(meta, JSON_INDENT(2));
	if (!text) {
		snprintf(err, errlen, "cannot render %s", path);
		return -ENOMEM;
	}
	rc = record_write_file_atomic(path, text, strlen(text), err, errlen);
	free(text);
	return rc;
}
