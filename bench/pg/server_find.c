/*
 * server_find: what server_resolve() settles before anything runs: the
 * binaries (--pgbin, --pg, the marker's, those of the cluster's version,
 * pg_config's, the newest Debian ones), the server's user, the absolute
 * data directory (checked for what postgresql.conf and the socket path
 * allow), and for --dsn the connection string and the --restart-cmd, split
 * into an argv (quotes group words, no shell).
 */
#include "bench/pg/server_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/cli/redact.h"
#include "bench/pg/pgbin.h"
#include "bench/record/record.h"

int server_split_argv(char *cmd, char **argv, int max)
{
	int n = 0;
	char *r = cmd, *w = cmd;

	for (;;) {
		char quote = 0;

		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == max - 1)
			return -EINVAL;
		argv[n++] = w;
		for (; *r && (quote || (*r != ' ' && *r != '\t')); r++) {
			if (!quote && (*r == '\'' || *r == '"'))
				quote = *r;
			else if (quote && *r == quote)
				quote = 0;
			else
				*w++ = *r;
		}
		if (quote)
			return -EINVAL;
		if (*r)
			r++;
		*w++ = '\0';
	}
	argv[n] = NULL;
	return n;
}

static int set_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

static int bindir_from_pg_config(struct server *s)
{
	static const char *const cands[] = { "/usr/bin/pg_config",
		"/usr/local/bin/pg_config", "/usr/local/pgsql/bin/pg_config", NULL };
	char out[PATH_MAX];

	for (int i = 0; cands[i]; i++) {
		char *argv[] = { (char *)cands[i], "--bindir", NULL };

		if (access(cands[i], X_OK) < 0)
			continue;
		if (server_run(s, SERVER_RUN_C_LOCALE, argv, out, sizeof(out), 10) != 0)
			continue;
		out[strcspn(out, "\n")] = '\0';
		if (pgbin_has_tools(out) && set_str(s->bindir, sizeof(s->bindir), out) == 0)
			return 0;
	}
	return -ENOENT;
}

/* The major version of the cluster in the data directory (PG_VERSION), or 0. */
static int cluster_major(const struct server *s)
{
	char line[32];
	int v;

	server_datadir_line(s, "PG_VERSION", line, sizeof(line));
	v = pgbin_parse_version(line);
	return v > 0 ? pgbin_major(v) : 0;
}

static int bindir_of_major(struct server *s, int major, const char *why,
			   char *err, size_t errlen)
{
	char cache[PATH_MAX] = "the build cache";

	if (pgbin_find_major(major, s->bindir, sizeof(s->bindir)) == 0)
		return 0;
	pgbin_cache_dir(cache, sizeof(cache));
	snprintf(err, errlen, "%s: no PostgreSQL %d binaries found (looked in %s/pg/%d.* and /usr/lib/postgresql/%d/bin); scripts/build-pg.sh %d builds them, or give --pgbin DIR",
		 why, major, cache, major, major, major);
	return -EINVAL;
}

/*
 * --pgbin, else --pg, else (for an existing cluster) binaries of the
 * cluster's own version, else pg_config's or the newest Debian ones.
 * MARKER_BINDIR is what init recorded ("" if nothing).
 */
static int resolve_bindir(const struct server_cfg *cfg, struct server *s,
			  const char *marker_bindir, char *err, size_t errlen)
{
	int major = cluster_major(s);
	char why[1200];

	if (cfg->pgbin && cfg->pg) {
		snprintf(err, errlen, "--pg %lld and --pgbin '%s': give one of them", cfg->pg, cfg->pgbin);
		return -EINVAL;
	}
	if (cfg->pgbin) {
		if (!pgbin_has_tools(cfg->pgbin)) {
			snprintf(err, errlen, "--pgbin: '%s' holds no PostgreSQL server binaries (postgres, initdb); give the directory that does",
				 cfg->pgbin);
			return -EINVAL;
		}
		return set_str(s->bindir, sizeof(s->bindir), cfg->pgbin);
	}
	if (cfg->pg) {
		snprintf(why, sizeof(why), "--pg %lld", cfg->pg);
		return bindir_of_major(s, (int)cfg->pg, why, err, errlen);
	}
	if (marker_bindir[0] && pgbin_has_tools(marker_bindir))
		return set_str(s->bindir, sizeof(s->bindir), marker_bindir);
	if (major > 0) {
		snprintf(why, sizeof(why), "the cluster in '%s' is PostgreSQL %d", s->datadir, major);
		return bindir_of_major(s, major, why, err, errlen);
	}
	if (bindir_from_pg_config(s) == 0 || pgbin_newest_debian(s->bindir, sizeof(s->bindir)) == 0)
		return 0;
	snprintf(err, errlen, "no PostgreSQL server binaries found (looked at pg_config --bindir and /usr/lib/postgresql/*/bin); install the server (scripts/install-deps.sh), give --pg MAJOR (scripts/build-pg.sh MAJOR builds one) or --pgbin DIR");
	return -EINVAL;
}

/* Binaries given with --pg or --pgbin must be of the cluster's version. */
static int check_bin_version(const struct server_cfg *cfg, struct server *s,
			     char *err, size_t errlen)
{
	int major = cluster_major(s), v;

	if (major == 0 || (!cfg->pg && !cfg->pgbin))
		return 0;
	v = server_bin_version(s);
	if (v < 0 || pgbin_major(v) == major)
		return 0;
	if (cfg->pg)
		snprintf(err, errlen, "--pg %lld: the cluster in '%s' is PostgreSQL %d; give --pg %d, or no --pg (init recorded its binaries)",
			 cfg->pg, s->datadir, major, major);
	else
		snprintf(err, errlen, "--pgbin '%s' holds PostgreSQL %d binaries, but the cluster in '%s' is PostgreSQL %d; give that version's binaries (--pg %d)",
			 cfg->pgbin, pgbin_major(v), s->datadir, major, major);
	return -EINVAL;
}

int server_bin_version(const struct server *s)
{
	char postgres[PATH_MAX], out[256];
	char *argv[] = { postgres, "--version", NULL };
	int ret;

	snprintf(postgres, sizeof(postgres), "%s/postgres", s->bindir);
	/* as the server's user, as every PostgreSQL program eicbench runs: the
	 * bindir may come from the marker, in a directory that user owns */
	ret = server_run(s, SERVER_RUN_AS_USER | SERVER_RUN_C_LOCALE, argv, out, sizeof(out), 10);
	if (ret != 0)
		return ret < 0 ? ret : -EIO;
	return pgbin_parse_version(out);
}

static int resolve_user(const struct server_cfg *cfg, struct server *s,
			char *err, size_t errlen)
{
	struct passwd *pw;

	if (geteuid() != 0) {
		pw = getpwuid(geteuid());
		if (cfg->user && (!pw || strcmp(cfg->user, pw->pw_name))) {
			snprintf(err, errlen, "--user '%s': running the server as another user needs root; omit --user to run it as yourself",
				 cfg->user);
			return -EINVAL;
		}
		snprintf(s->user, sizeof(s->user), "%s", pw ? pw->pw_name : "?");
		s->uid = geteuid();
		s->gid = getegid();
		return 0;
	}
	pw = getpwnam(cfg->user ? cfg->user : "postgres");
	if (!pw || pw->pw_uid == 0) {
		snprintf(err, errlen, "--user '%s': %s; PostgreSQL refuses to run as root, so give an existing unprivileged user",
			 cfg->user ? cfg->user : "postgres", pw ? "is root" : "no such user");
		return -EINVAL;
	}
	snprintf(s->user, sizeof(s->user), "%s", pw->pw_name);
	s->uid = pw->pw_uid;
	s->gid = pw->pw_gid;
	s->drop_privileges = true;
	return 0;
}

static int resolve_datadir(const struct server_cfg *cfg, struct server *s,
			   char *err, size_t errlen)
{
	const char *d = cfg->datadir ? cfg->datadir : SERVER_DEFAULT_DATADIR;
	char cwd[PATH_MAX];
	size_t len;

	if (!d[0]) {	/* "" would be the working directory itself */
		snprintf(err, errlen, "--datadir '': give the directory of the managed cluster (default %s)",
			 SERVER_DEFAULT_DATADIR);
		return -EINVAL;
	}
	if (d[0] == '/') {
		snprintf(s->datadir, sizeof(s->datadir), "%s", d);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		if (snprintf(s->datadir, sizeof(s->datadir), "%s/%s", cwd, d) >= (int)sizeof(s->datadir))
			return -ENAMETOOLONG;
	}
	len = strlen(s->datadir);
	while (len > 1 && s->datadir[len - 1] == '/')
		s->datadir[--len] = '\0';
	if (opts_check_text("--datadir", s->datadir, err, errlen) < 0)
		return -EINVAL;	/* a newline would end a line of postgresql.conf */
	if (strpbrk(s->datadir, "',\\\"")) {
		snprintf(err, errlen, "--datadir '%s': quotes, commas and backslashes are not allowed in the path (it goes into the server's configuration and connection strings)",
			 s->datadir);
		return -EINVAL;
	}
	/* The socket lives in the data directory: sun_path holds 107 bytes. */
	if (len + strlen("/.s.PGSQL.65535") > 107) {
		snprintf(err, errlen, "--datadir '%s': the path is %zu characters; the server's Unix socket lives in it, so it must be at most %zu",
			 s->datadir, len, 107 - strlen("/.s.PGSQL.65535"));
		return -EINVAL;
	}
	return 0;
}

/*
 * The marker records what init chose: later commands take the port from it,
 * and the server's user and binaries unless --user or --pgbin say otherwise.
 */
static int read_marker(struct server *s, char *user, char *bindir)
{
	const char *u = NULL, *b = NULL;
	int fd = server_open_in_datadir(s, SERVER_MARKER, O_RDONLY);
	struct stat st;
	json_t *j, *port;

	if (fd < 0)
		return 0;
	j = fstat(fd, &st) == 0 ? json_loadfd(fd, 0, NULL) : NULL;
	close(fd);
	if (!j)
		return 0;
	port = json_object_get(j, "port");
	if (json_is_integer(port))
		s->port = (int)json_integer_value(port);
	if (json_unpack(j, "{s?s, s?s}", "user", &u, "bindir", &b) == 0) {
		struct passwd *pw = u ? getpwnam(u) : NULL;

		/* As root, the user the marker names is taken only when the marker
		 * is that user's (as init left it) or root's: the server's user
		 * owns the directory and could write another name into it. */
		if (u && geteuid() == 0 && pw && (st.st_uid == 0 || st.st_uid == pw->pw_uid))
			snprintf(user, 64, "%s", u);
		if (b)
			snprintf(bindir, 1024, "%s", b);
	}
	json_decref(j);
	return 1;
}

int server_listen(const struct server *s, char *out, size_t len)
{
	int fd = server_open_in_datadir(s, SERVER_MARKER, O_RDONLY);
	json_t *j = fd >= 0 ? json_loadfd(fd, 0, NULL) : NULL;
	const char *l = json_string_value(json_object_get(j, "listen"));

	if (fd >= 0)
		close(fd);
	snprintf(out, len, "%s", l ? l : "");
	json_decref(j);
	return j ? 0 : -ENOENT;
}

/* PROG itself when it holds a '/', else the first executable on PATH. */
int server_find_program(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? set_str(out, len, prog) : -ENOENT;
	while (path && *path) {
		size_t n = strcspn(path, ":");

		if (snprintf(out, len, "%.*s/%s", (int)n, path, prog) < (int)len &&
		    access(out, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

static int resolve_external(const struct server_cfg *cfg, struct server *s,
			    char *err, size_t errlen)
{
	char copy[1024], *argv[64], prog[PATH_MAX];
	PQconninfoOption *opts;
	char *msg = NULL;

	s->external = true;
	s->dsn = cfg->dsn;
	opts = PQconninfoParse(cfg->dsn, &msg);
	PQconninfoFree(opts);
	PQfreemem(msg);
	if (!opts) {	/* libpq's message may quote a password: not shown */
		snprintf(err, errlen, "--dsn: not a valid connection string; give key=value pairs or a postgresql:// URI");
		return -EINVAL;
	}
	if (!cfg->restart_cmd)
		return 0;
	snprintf(copy, sizeof(copy), "%s", cfg->restart_cmd);
	if (strlen(cfg->restart_cmd) >= sizeof(copy) ||
	    server_split_argv(copy, argv, 64) <= 0) {
		char *shown = cfg->no_record_cmd ? NULL : redact_arg(cfg->restart_cmd);

		snprintf(err, errlen, "--restart-cmd '%s': give a command and its arguments (quotes group words; no shell)",
			 shown ? shown : "(not shown: --no-record-cmd)");
		free(shown);
		return -EINVAL;
	}
	if (server_find_program(argv[0], prog, sizeof(prog)) < 0) {
		snprintf(err, errlen, "--restart-cmd: '%s' is not an executable program (looked on PATH); give its full path",
			 argv[0]);
		return -EINVAL;
	}
	snprintf(s->restart_cmd, sizeof(s->restart_cmd), "%s", cfg->restart_cmd);
	return 0;
}

int server_resolve(const struct server_cfg *cfg, struct server *s,
		   char *err, size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->port = (int)cfg->port;
	s->timeout_s = cfg->timeout_s;
	if (cfg->restart_cmd && !cfg->dsn) {
		snprintf(err, errlen, "--restart-cmd is for a server given with --dsn; the managed cluster is restarted by eicbench itself");
		return -EINVAL;
	}
	if (cfg->timeout_s > 86400) {
		snprintf(err, errlen, "--timeout %.0f s is not allowed; give at most 24 h", cfg->timeout_s);
		return -EINVAL;
	}
	if (cfg->dsn)
		return resolve_external(cfg, s, err, errlen);
	ret = resolve_datadir(cfg, s, err, errlen);
	if (ret == 0) {	/* what init chose stays the default afterwards */
		struct server_cfg eff = *cfg;
		char user[64] = "", bindir[1024] = "";

		read_marker(s, user, bindir);
		if (!eff.user && user[0])
			eff.user = user;
		ret = resolve_user(&eff, s, err, errlen);
		if (ret == 0)
			ret = resolve_bindir(&eff, s, bindir, err, errlen);
		if (ret == 0)
			ret = check_bin_version(cfg, s, err, errlen);
	}
	return ret;
}
