/*
 * lock: flock on a lock file opened without following links, the holder
 * named inside as one JSON object {"pid", "command", "since"}; see lock.h.
 */
#include "bench/pg/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/cli/redact.h"
#include "bench/pg/identity.h"
#include "bench/pg/statedir.h"
#include "bench/record/record.h"

#define HOLDER_MAX 4096         /* bytes of the holder read back */

/* ---- the holder ---- */

static void write_holder(int fd, const char *who)
{
	char since[32];
	json_t *o;
	char *text;

	record_utc_iso(time(NULL), since, sizeof(since));
	o = json_pack("{s:I, s:s, s:s}", "pid", (json_int_t)getpid(),
		      "command", who && *who ? who : "eicbench", "since", since);
	text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	if (text) {
		size_t n = strlen(text);

		/* over the old text, then cut: never empty in between */
		if (pwrite(fd, text, n, 0) == (ssize_t)n)
			(void)!ftruncate(fd, (off_t)n);
	}
	free(text);
	json_decref(o);
}

/* "pid 1234, eicbench sweep ..., since 2026-...Z" from the file, or a
 * sentence saying it is not known. */
static void read_holder(int fd, char *out, size_t len)
{
	char buf[HOLDER_MAX + 1];
	ssize_t n = pread(fd, buf, HOLDER_MAX, 0);
	json_t *o = NULL;

	if (n > 0) {
		buf[n] = '\0';
		o = json_loads(buf, 0, NULL);
	}
	if (json_is_integer(json_object_get(o, "pid")))
		snprintf(out, len, "held by pid %lld, %s, since %s",
			 (long long)json_integer_value(json_object_get(o, "pid")),
			 json_string_value(json_object_get(o, "command")) ?: "?",
			 json_string_value(json_object_get(o, "since")) ?: "?");
	else
		snprintf(out, len, "held by another process, which has not written who it is");
	json_decref(o);
}

/* ---- the file ---- */

/* Open DFD/NAME: read-write (made when missing), else read-only (flock
 * needs no more); never through a link; a regular file with no other
 * name. The descriptor, or -errno. */
static int open_lock_file(int dfd, const char *name)
{
	const int flags = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
	int fd = openat(dfd, name, O_RDWR | O_CREAT | flags, 0644);
	struct stat st;
	int rc = 0;

	if (fd < 0 && (errno == EACCES || errno == EROFS))
		fd = openat(dfd, name, O_RDONLY | flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if (st.st_nlink != 1)
		rc = -EMLINK;
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* As root, a lock file in another user's directory is given to that user,
 * who may run eicbench too. */
static void give_to_dir_owner(int dfd, int fd)
{
	struct stat d, f;

	if (geteuid() != 0 || fstat(dfd, &d) < 0 || fstat(fd, &f) < 0)
		return;
	if (f.st_uid != d.st_uid || f.st_gid != d.st_gid)
		(void)!fchown(fd, d.st_uid, d.st_gid);
}

static int lock_failed(int rc, char *err, size_t errlen, const char *what, const char *path)
{
	if (rc == -ELOOP)
		snprintf(err, errlen, "%s: the lock file %s is a symbolic link; it is not followed (remove it)", what, path);
	else if (rc == -EMLINK)
		snprintf(err, errlen, "%s: the lock file %s has other hard links; it is not used (remove it)", what, path);
	else if (rc == -EINVAL)
		snprintf(err, errlen, "%s: the lock file %s is not a regular file (remove it)", what, path);
	else
		snprintf(err, errlen, "%s: cannot use the lock file %s: %s", what, path, strerror(-rc));
	return rc;
}

/* Take DIR/NAME for WHO; WHAT names the locked thing in messages. */
static int lock_at(const char *dir, const char *name, const char *what, const char *who,
		   struct lock *l, char *err, size_t errlen)
{
	int dfd, fd;

	l->fd = -1;
	if ((size_t)snprintf(l->path, sizeof(l->path), "%s/%s", dir, name) >= sizeof(l->path))
		return lock_failed(-ENAMETOOLONG, err, errlen, what, l->path);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return lock_failed(-errno, err, errlen, what, l->path);
	fd = open_lock_file(dfd, name);
	if (fd >= 0)
		give_to_dir_owner(dfd, fd);
	close(dfd);
	if (fd < 0)
		return lock_failed(fd, err, errlen, what, l->path);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		char holder[HOLDER_MAX / 2];

		if (rc == -EBUSY) {
			read_holder(fd, holder, sizeof(holder));
			snprintf(err, errlen, "%s is in use: %s", what, holder);
		} else {
			lock_failed(rc, err, errlen, what, l->path);
		}
		close(fd);
		return rc;
	}
	write_holder(fd, who);
	l->fd = fd;
	return 0;
}

/* ---- the locks ---- */

/*
 * The server DSN reaches, as text: host, hostaddr, port and service, each
 * the string's own, else the environment's or libpq's default (a string
 * without '=' or a URI prefix is a database name, as libpq reads it).
 */
static void server_key(const char *dsn, char *out, size_t len)
{
	static const char *const keys[] = { "host", "hostaddr", "port", "service" };
	PQconninfoOption *given = NULL, *dflt = PQconndefaults();
	char *msg = NULL;
	size_t used = 0;

	if (strchr(dsn, '=') || !strncmp(dsn, "postgres://", 11) || !strncmp(dsn, "postgresql://", 13))
		given = PQconninfoParse(dsn, &msg);
	PQfreemem(msg);
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = NULL;

		for (PQconninfoOption *o = given; o && o->keyword && !v; o++)
			if (!strcmp(o->keyword, keys[i]) && o->val && *o->val)
				v = o->val;
		for (PQconninfoOption *o = dflt; o && o->keyword && !v; o++)
			if (!strcmp(o->keyword, keys[i]) && o->val && *o->val)
				v = o->val;
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s=%s\n", keys[i], v ? v : "");
	}
	PQconninfoFree(given);
	PQconninfoFree(dflt);
}

static int lock_dsn(const struct server *s, const char *who, struct lock *l,
		    char *err, size_t errlen)
{
	char key[PATH_MAX + 32], path[PATH_MAX], dsn[1024], what[PATH_MAX + 1200], e[256];
	struct server_identity id;
	char *slash;
	int ret;

	redact_dsn(s->dsn, dsn, sizeof(dsn));
	if (server_identify(s, &id, e, sizeof(e)) == 0 && id.local) {
		/* a cluster on this machine: the lock --datadir takes */
		snprintf(what, sizeof(what), "the cluster in %s (the server of --dsn '%s')", id.datadir, dsn);
		return lock_at(id.datadir, LOCK_CLUSTER_FILE, what, who, l, err, errlen);
	}
	snprintf(what, sizeof(what), "the server of --dsn '%s'", dsn);
	if (id.system_identifier)
		server_identity_key(&id, key, sizeof(key));
	else	/* not reached: by where the string points */
		server_key(s->dsn, key, sizeof(key));
	ret = statedir_file("server", key, ".lock", path, sizeof(path));
	if (ret < 0) {
		l->fd = -1;
		snprintf(err, errlen, "%s: no state folder to keep its lock in (%s); set EICBENCH_STATE, XDG_STATE_HOME or HOME",
			 what, strerror(-ret));
		return ret;
	}
	slash = strrchr(path, '/');
	*slash = '\0';
	return lock_at(path, slash + 1, what, who, l, err, errlen);
}

int lock_cluster(const struct server *s, const char *who, struct lock *l,
		 char *err, size_t errlen)
{
	char what[1100];

	if (s->external)
		return lock_dsn(s, who, l, err, errlen);
	snprintf(what, sizeof(what), "the cluster in %s", s->datadir);
	if (!s->datadir[0]) {
		l->fd = -1;
		snprintf(err, errlen, "no data directory to lock");
		return -EINVAL;
	}
	return lock_at(s->datadir, LOCK_CLUSTER_FILE, what, who, l, err, errlen);
}

int lock_folder(const char *dir, const char *who, struct lock *l,
		char *err, size_t errlen)
{
	char what[PATH_MAX + 32];

	snprintf(what, sizeof(what), "the result folder %s", dir);
	return lock_at(dir, RECORD_LOCK, what, who, l, err, errlen);
}

void lock_release(struct lock *l)
{
	if (l->fd < 0)
		return;
	(void)!ftruncate(l->fd, 0);
	close(l->fd);
	l->fd = -1;
}

/* ---- the locks a command holds until it ends ---- */

#define LOCKS_MAX 32


static char who[1024] = "eicbench";
static struct lock locks[LOCKS_MAX];    /* held until the process ends */
static pid_t holders[LOCKS_MAX];        /* the process that took each */
static int nlocks;

void lock_set_holder(int argc, char *const argv[])
{
	if (redact_cmdline(argc, argv, who, sizeof(who)) < 0 && !who[0])
		snprintf(who, sizeof(who), "eicbench");
}

/* A lock held by another command stays -EBUSY (exit 3, busy); an unsafe
 * lock file is bad input (-EINVAL, exit 2). */
static int taken(int ret)
{
	if (ret == -ELOOP || ret == -EMLINK || ret == -EINVAL)
		return -EINVAL;
	return ret;
}

/* Does this process hold the lock file at PATH already (a forked child
 * holds nothing of its own)? */
static bool holding(const char *path)
{
	struct stat a, b;

	if (stat(path, &a) < 0)
		return false;
	for (int i = 0; i < nlocks; i++)
		if (holders[i] == getpid() && fstat(locks[i].fd, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return true;
	return false;
}

/* The pid the lock file at PATH names as its holder, or 0. */
static pid_t holder_of(const char *path)
{
	char buf[HOLDER_MAX];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	json_t *o;
	pid_t pid = 0;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	o = json_loads(buf, 0, NULL);
	if (json_is_integer(json_object_get(o, "pid")))
		pid = (pid_t)json_integer_value(json_object_get(o, "pid"));
	json_decref(o);
	return pid;
}

/* Is PID this process's parent, or its parent's, and so on? */
static bool ancestor(pid_t pid)
{
	pid_t p = getppid();

	for (int depth = 0; p > 1 && depth < 64; depth++) {
		char path[64], buf[512], *close_paren;
		FILE *f;

		if (p == pid)
			return true;
		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)p);
		if (!(f = fopen(path, "re")))
			return false;
		buf[0] = '\0';
		(void)!fgets(buf, sizeof(buf), f);
		fclose(f);
		close_paren = strrchr(buf, ')');	/* the name may hold spaces */
		if (!close_paren || sscanf(close_paren + 1, " %*c %d", &p) != 1)
			return false;
	}
	return false;
}

/* L just taken (RET), or refused because this process holds it already,
 * or because a command that ran this one holds it (its --restart-cmd
 * running eicbench server restart on the cluster it holds). */
static int hold(struct lock *l, int ret, char *err, size_t errlen)
{
	pid_t by;

	if (ret == -EBUSY && (holding(l->path) || ((by = holder_of(l->path)) > 0 && ancestor(by)))) {
		if (errlen)
			err[0] = '\0';
		return 0;
	}
	if (ret == 0 && l->fd >= 0)
		holders[nlocks++] = getpid();
	return taken(ret);
}

static struct lock *next_lock(char *err, size_t errlen)
{
	if (nlocks == LOCKS_MAX) {
		snprintf(err, errlen, "too many locks held by one command (%d)", LOCKS_MAX);
		return NULL;
	}
	locks[nlocks] = (struct lock)LOCK_INIT;
	return &locks[nlocks];
}

int lock_hold_cluster(const struct server *s, char *err, size_t errlen)
{
	char version[PATH_MAX + 16];
	struct lock *l;

	snprintf(version, sizeof(version), "%s/PG_VERSION", s->datadir);
	if (!s->external && access(version, F_OK) < 0)
		return 0;	/* no cluster there (yet): nothing to keep from others */
	if (!(l = next_lock(err, errlen)))
		return -ENOSPC;
	return hold(l, lock_cluster(s, who, l, err, errlen), err, errlen);
}

int lock_hold_folder(const char *dir, char *err, size_t errlen)
{
	struct lock *l = next_lock(err, errlen);

	if (!l)
		return -ENOSPC;
	return hold(l, lock_folder(dir, who, l, err, errlen), err, errlen);
}

int lock_hold_new_folder(const char *command, const char *out, char *dir, size_t len,
			 char *err, size_t errlen)
{
	int ret = record_dir_create(NULL, command, out, dir, len, err, errlen);

	if (ret == -EEXIST && out)
		return -EINVAL;	/* the folder the user named is taken */
	return ret < 0 ? ret : lock_hold_folder(dir, err, errlen);
}
