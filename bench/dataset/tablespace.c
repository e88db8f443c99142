/*
 * tablespace: the folder checked and made a tablespace, and where a data
 * set lives; see tablespace.h.
 */
#include "bench/dataset/tablespace.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "io/emulate/control.h"

/* ---- the folder ---- */

/* Can the server's user do MODE (access(2)'s) on DIR? 0, or the errno. */
static int user_can(const struct server *s, const char *dir, int mode)
{
	pid_t pid;
	int st;

	if (!s->drop_privileges)
		return access(dir, mode) == 0 ? 0 : errno;
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setgid(s->gid) < 0 || setuid(s->uid) < 0)
			_exit(EPERM);
		_exit(access(dir, mode) == 0 ? 0 : errno);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return EIO;
	return WEXITSTATUS(st);
}

/* Entries besides . and .. in DIR; -1 when it cannot be read. */
static int entries(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return -1;
	while ((d = readdir(dp)) != NULL)
		n += strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dp);
	return n;
}

static int unreachable(const struct server *s, const char *given, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "--tablespace-dir '%s': the server's user %s cannot reach it (%s): every folder above it must let %s through, and it must be %s's to write; give a folder %s can reach",
		 given, s->user, strerror(e), s->user, s->user, s->user);
	return -EINVAL;
}

/*
 * DIR looked at only, nothing changed: a folder or missing (its parent
 * then a folder), not /, and the folder above it one the server's user can
 * pass through. Every refusal comes before prepare_folder() touches it.
 */
static int check_folder(const struct server *s, const char *given, const char *dir,
			char *err, size_t errlen)
{
	char up[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int e;

	if (realpath(dir, real) && !strcmp(real, "/")) {
		snprintf(err, errlen, "--tablespace-dir '%s': the root folder; give an empty folder", given);
		return -EINVAL;
	}
	snprintf(up, sizeof(up), "%s", dir);
	if (strrchr(up, '/') && strrchr(up, '/') != up)
		*strrchr(up, '/') = '\0';
	if (stat(dir, &st) < 0) {
		e = errno;
		if (e == ENOENT && stat(up, &st) == 0 && S_ISDIR(st.st_mode))
			e = 0;	/* missing, to be made in a folder that is there */
		else if (e == ENOENT && stat(up, &st) == 0)
			e = ENOTDIR;
		if (e) {
			snprintf(err, errlen, "--tablespace-dir '%s': %s; give a folder whose parent exists",
				 given, strerror(e));
			return -EINVAL;
		}
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--tablespace-dir '%s': not a folder", given);
		return -EINVAL;
	}
	if ((e = user_can(s, up, X_OK)) != 0)
		return unreachable(s, given, e, err, errlen);
	return 0;
}

/* DIR, checked by check_folder() and found empty or missing: made when
 * missing and given to the server's user; then reachable by it. */
static int prepare_folder(const struct server *s, const char *given, const char *dir,
			  char *err, size_t errlen)
{
	struct stat st;
	int e;

	if (stat(dir, &st) < 0) {
		if (errno != ENOENT || mkdir(dir, 0700) < 0 || stat(dir, &st) < 0) {
			snprintf(err, errlen, "--tablespace-dir '%s': %s; give a folder whose parent exists",
				 given, strerror(errno));
			return -EINVAL;
		}
	}
	if (s->drop_privileges && (st.st_uid != s->uid || st.st_gid != s->gid) &&
	    chown(dir, s->uid, s->gid) < 0) {
		snprintf(err, errlen, "--tablespace-dir '%s': cannot give it to the server's user %s: %s",
			 given, s->user, strerror(errno));
		return -EINVAL;
	}
	if ((e = user_can(s, dir, R_OK | W_OK | X_OK)) != 0)
		return unreachable(s, given, e, err, errlen);
	return 0;
}

/* DIR with every link resolved into OUT, also when DIR itself is missing
 * (its parent's resolved, and its name). */
static void resolve(const char *dir, char *out, size_t len)
{
	char up[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(dir, '/');

	if (realpath(dir, real)) {
		snprintf(out, len, "%s", real);
		return;
	}
	snprintf(out, len, "%s", dir);
	if (!slash || slash == dir)
		return;
	snprintf(up, sizeof(up), "%.*s", (int)(slash - dir), dir);
	if (realpath(up, real))
		snprintf(out, len, "%s%s", strcmp(real, "/") ? real : "", slash);
}

/* ---- the tablespace ---- */

/* "eicbench_" and the folder's name in lower-case letters, digits and _. */
static void name_for(const char *dir, char *out, size_t len)
{
	const char *base = strrchr(dir, '/');
	size_t n;

	base = base && base[1] ? base + 1 : "ts";
	n = (size_t)snprintf(out, len, "eicbench_");
	for (; *base && n + 1 < len && n < 40; base++)
		out[n++] = isalnum((unsigned char)*base) ? (char)tolower((unsigned char)*base) : '_';
	out[n] = '\0';
}

/* The tablespace at DIR into NAME: 1, 0 none, -EIO. */
static int tablespace_at(PGconn *c, const char *dir, char *name, size_t len, char *err, size_t errlen)
{
	const char *p[] = { dir };
	PGresult *r = pgutil_query(c, sql_text("dataset/tablespace_at.sql"), 1, p, err, errlen);
	int found;

	if (!r)
		return -EIO;
	found = PQntuples(r) > 0;
	if (found)
		snprintf(name, len, "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	return found;
}

/* Is a tablespace called NAME there already? */
static bool name_taken(PGconn *c, const char *name)
{
	char err[256];
	const char *p[] = { name };
	PGresult *r = pgutil_query(c, sql_text("dataset/tablespace_named.sql"), 1, p, err, sizeof(err));
	bool taken = !r || PQntuples(r) > 0;

	PQclear(r);
	return taken;
}

static int create(PGconn *c, const char *name, const char *dir, char *err, size_t errlen)
{
	char *id = PQescapeIdentifier(c, name, strlen(name));
	char *lit = PQescapeLiteral(c, dir, strlen(dir));
	const char *fmt = sql_text("dataset/create_tablespace.sql");
	char *sql = NULL;
	int ret = -ENOMEM;

	if (id && lit && asprintf(&sql, fmt, id, lit) >= 0)
		ret = pgutil_exec(c, sql, 0, NULL, err, errlen);
	PQfreemem(id);
	PQfreemem(lit);
	free(sql);
	return ret;
}

int tablespace_prepare(const struct server *s, PGconn *c, const char *given,
		       struct tablespace *out, char *err, size_t errlen)
{
	char dir[PATH_MAX], real[PATH_MAX];
	int ret;

	memset(out, 0, sizeof(*out));
	emulate_abspath(given, dir, sizeof(dir));
	ret = emulate_check_reachable("--tablespace-dir", dir, err, errlen);
	if (ret < 0)
		return -EINVAL;
	if (!s->external && (ret = check_folder(s, given, dir, err, errlen)) < 0)
		return ret;
	resolve(dir, real, sizeof(real));
	snprintf(dir, sizeof(dir), "%s", real);
	snprintf(out->location, sizeof(out->location), "%s", dir);
	ret = tablespace_at(c, dir, out->name, sizeof(out->name), err, errlen);
	if (ret > 0 && !s->external && entries(dir) <= 0) {
		/* the catalog has it, the folder lost what CREATE TABLESPACE made */
		snprintf(err, errlen, "--tablespace-dir '%s': tablespace %s is there in the catalog but its folder is empty or gone (its files are gone, e.g. a backing folder in tmpfs emptied): drop what it held and it (DROP TABLE test; DROP TABLESPACE %s;), or give another folder",
			 given, out->name, out->name);
		return -EINVAL;
	}
	if (ret < 0)
		return ret;
	if (ret > 0) {	/* reused as it is: the server made it, nothing to give */
		int e = s->external ? 0 : user_can(s, dir, R_OK | W_OK | X_OK);

		return e ? unreachable(s, given, e, err, errlen) : 0;
	}
	if (!s->external && entries(dir) > 0) {
		snprintf(err, errlen, "--tablespace-dir '%s': the folder is not empty and is no tablespace of this cluster; give an empty folder (or the one a tablespace of this cluster uses)",
			 given);
		return -EINVAL;
	}
	/* every check passed: only now is the folder made or given away */
	if (!s->external && (ret = prepare_folder(s, given, dir, err, errlen)) < 0)
		return ret;
	name_for(dir, out->name, sizeof(out->name));
	for (int i = 2; name_taken(c, out->name) && i < 100; i++) {
		char base[48];

		name_for(dir, base, sizeof(base));
		snprintf(out->name, sizeof(out->name), "%s_%d", base, i);
	}
	ret = create(c, out->name, dir, err, errlen);
	if (ret < 0) {
		char why[1024];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "--tablespace-dir '%s': the server would not make a tablespace there: %s",
			 given, why);
		return -EINVAL;
	}
	out->created = true;
	return 0;
}

int tablespace_of_dataset(PGconn *c, const char *datadir, struct tablespace *out,
			  char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql_text("dataset/where.sql"), 0, NULL, err, errlen);
	int found;

	memset(out, 0, sizeof(*out));
	if (!r)
		return -EIO;
	found = PQntuples(r) > 0;
	if (found) {
		/* the table decides; an index elsewhere is not a load's doing */
		int row = 0;

		for (int i = 0; i < PQntuples(r); i++)
			if (!strcmp(PQgetvalue(r, i, 0), "test"))
				row = i;
		snprintf(out->name, sizeof(out->name), "%s", PQgetvalue(r, row, 1));
		snprintf(out->location, sizeof(out->location), "%s", PQgetvalue(r, row, 2));
	}
	PQclear(r);
	if (found && !out->location[0]) {
		char dd[PATH_MAX];
		PGresult *d = datadir ? NULL : PQexec(c, sql_text("probe/datadir.sql"));

		snprintf(dd, sizeof(dd), "%s", datadir ? datadir :
			 PQresultStatus(d) == PGRES_TUPLES_OK ? PQgetvalue(d, 0, 0) : "");
		PQclear(d);
		snprintf(out->location, sizeof(out->location), "%s", dd);
	}
	return found;
}

int tablespace_of_relation(PGconn *c, const char *relation, struct tablespace *out,
			   char *err, size_t errlen)
{
	const char *p[] = { relation };
	PGresult *r = pgutil_query(c, sql_text("sweep/tablespace.sql"), 1, p, err, errlen);
	int found;

	memset(out, 0, sizeof(*out));
	if (!r)
		return -EIO;
	found = PQntuples(r) == 1;
	if (found) {
		snprintf(out->name, sizeof(out->name), "%s", PQgetvalue(r, 0, 0));
		snprintf(out->location, sizeof(out->location), "%s", PQgetvalue(r, 0, 2));
	}
	PQclear(r);
	return found;
}

int tablespace_reachable(const struct tablespace *ts, char *err, size_t errlen)
{
	char what[192];

	snprintf(what, sizeof(what), "the data set's tablespace %s", ts->name);
	return ts->location[0] && emulate_check_reachable(what, ts->location, err, errlen) < 0 ? -EINVAL : 0;
}
