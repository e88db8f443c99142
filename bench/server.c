/*
 * server: the managed cluster and the external-server mode.
 * Tools run as argv (never through a shell), as the server's user when
 * invoked as root. The postmaster is started directly and detached (so a
 * stop can be watched without zombies), and readiness is polled every 5 ms;
 * every wait is bounded by the --timeout setting.
 */
#include "bench/server.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/pgbin.h"
#include "bench/pgutil.h"
#include "bench/record.h"
#include "bench/spawn.h"
#include "io/cache.h"
#include "io/clock.h"
#include "io/faultpoint.h"

#define MARKER "eicbench.json"
#define LOGFILE "eicbench-server.log"
#define POLL_MS 5

void server_cfg_defaults(struct server_cfg *cfg)
{
	*cfg = (struct server_cfg){ .port = 5432, .timeout_s = 120 };
}

/* ---- child processes --------------------------------------------------- */

static int become_user(const struct server *s)
{
	return s->drop_privileges ? spawn_become(s->user, s->uid, s->gid) : 0;
}

#define RUN_AS_USER  1	/* as the server's user (when invoked as root) */
#define RUN_C_LOCALE 2	/* LC_ALL=C: output in English, to be read */

/*
 * Run ARGV and wait for it, bounded by TIMEOUT_S; its output goes to OUT.
 * Returns the exit status (0..255), or -errno.
 */
static int run_prog(const struct server *s, int flags, char *const argv[],
		    char *out, size_t outlen, double timeout_s)
{
	struct spawn_opts o = {
		.argv = argv, .out = out, .outlen = outlen, .out_fd = -1,
		.timeout_s = timeout_s, .c_locale = flags & RUN_C_LOCALE,
		.new_pgroup = true,
	};

	if ((flags & RUN_AS_USER) && s->drop_privileges) {
		o.user = s->user;
		o.uid = s->uid;
		o.gid = s->gid;
	}
	return spawn_run(&o);
}

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

/* ---- resolving binaries, user and paths --------------------------------- */

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
		if (run_prog(s, RUN_C_LOCALE, argv, out, sizeof(out), 10) != 0)
			continue;
		out[strcspn(out, "\n")] = '\0';
		if (pgbin_has_tools(out) && set_str(s->bindir, sizeof(s->bindir), out) == 0)
			return 0;
	}
	return -ENOENT;
}

/* The first line of the data directory's file NAME into LINE ("" if none). */
static void datadir_line(const struct server *s, const char *name, char *line, size_t len)
{
	char p[PATH_MAX];
	FILE *f;

	line[0] = '\0';
	snprintf(p, sizeof(p), "%s/%s", s->datadir, name);
	f = fopen(p, "r");
	if (!f)
		return;
	if (!fgets(line, (int)len, f))
		line[0] = '\0';
	fclose(f);
}

/* The major version of the cluster in the data directory (PG_VERSION), or 0. */
static int cluster_major(const struct server *s)
{
	char line[32];
	int v;

	datadir_line(s, "PG_VERSION", line, sizeof(line));
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
	ret = run_prog(s, RUN_AS_USER | RUN_C_LOCALE, argv, out, sizeof(out), 10);
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

static void dpath(const struct server *s, const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", s->datadir, name);
}

static int open_in_datadir(const struct server *s, const char *name, int flags);

/*
 * The marker records what init chose: later commands take the port from it,
 * and the server's user and binaries unless --user or --pgbin say otherwise.
 */
static int read_marker(struct server *s, char *user, char *bindir)
{
	const char *u = NULL, *b = NULL;
	int fd = open_in_datadir(s, MARKER, O_RDONLY);
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

/* PROG itself when it holds a '/', else the first executable on PATH. */
static int find_program(const char *prog, char *out, size_t len)
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
		char *shown = cfg->no_record_cmd ? NULL : record_redact_arg(cfg->restart_cmd);

		snprintf(err, errlen, "--restart-cmd '%s': give a command and its arguments (quotes group words; no shell)",
			 shown ? shown : "(not shown: --no-record-cmd)");
		free(shown);
		return -EINVAL;
	}
	if (find_program(argv[0], prog, sizeof(prog)) < 0) {
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

/* ---- the managed cluster ------------------------------------------------ */

int server_is_managed(const struct server *s)
{
	char p[PATH_MAX];

	if (s->external)
		return 0;
	dpath(s, MARKER, p, sizeof(p));
	return access(p, F_OK) == 0;
}

static bool is_cluster(const struct server *s)
{
	char p[PATH_MAX];

	dpath(s, "PG_VERSION", p, sizeof(p));
	return access(p, F_OK) == 0;
}

/* Can the server's user write DIR (and reach it through every parent)? */
static bool user_can_write(const struct server *s, const char *dir)
{
	int status;
	pid_t pid;

	if (!s->drop_privileges)
		return access(dir, W_OK | X_OK) == 0;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0)
		_exit(become_user(s) == 0 && access(dir, W_OK | X_OK) == 0 ? 0 : 1);
	if (waitpid(pid, &status, 0) < 0)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static bool dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool empty = true;

	if (!d)
		return errno == ENOENT;
	while (empty && (de = readdir(d)) != NULL)
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(d);
	return empty;
}

static int prepare_datadir(struct server *s, char *err, size_t errlen)
{
	int ret;

	if (is_cluster(s)) {
		snprintf(err, errlen, "--datadir '%s' already holds a cluster%s; use it as it is, or give an empty or new directory",
			 s->datadir, server_is_managed(s) ? " made by eicbench" : "");
		return -EINVAL;
	}
	if (!dir_is_empty(s->datadir)) {
		snprintf(err, errlen, "--datadir '%s' exists and is not empty, and is not a PostgreSQL cluster; give an empty or new directory",
			 s->datadir);
		return -EINVAL;
	}
	ret = mkdir_p(s->datadir, 0700);
	if (ret < 0) {
		snprintf(err, errlen, "--datadir '%s': cannot create it: %s", s->datadir, strerror(-ret));
		return -EINVAL;
	}
	if (s->drop_privileges && chown(s->datadir, s->uid, s->gid) < 0)
		return -errno;
	if (!user_can_write(s, s->datadir)) {
		snprintf(err, errlen, "--datadir '%s': user %s cannot write it (check the directory and every parent's permissions)",
			 s->datadir, s->user);
		return -EINVAL;
	}
	return 0;
}

/*
 * Open NAME in the data directory, which the server's user owns: relative
 * to the directory, never through a link, a regular file with no other
 * name (as root, a link planted there would have eicbench write where it
 * points). The descriptor, or -errno.
 */
static int open_in_datadir(const struct server *s, const char *name, int flags)
{
	int dfd = open(s->datadir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, ret = 0;
	struct stat st;

	if (dfd < 0)
		return -errno;
	fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		ret = -errno;
	close(dfd);
	if (ret == 0 && fstat(fd, &st) < 0)
		ret = -errno;
	else if (ret == 0 && (!S_ISREG(st.st_mode) || st.st_nlink != 1))
		ret = -EPERM;
	if (ret < 0 && fd >= 0)
		close(fd);
	return ret < 0 ? ret : fd;
}

static int append_conf(struct server *s, const char *listen)
{
	int fd = open_in_datadir(s, "postgresql.conf", O_WRONLY | O_APPEND);
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "a");
	if (!f) {
		close(fd);
		return -errno;
	}
	fprintf(f, "\n# eicbench: a private cluster, reached through the Unix socket in its\n"
		   "# data directory; no TCP unless eicbench server init --listen was given.\n"
		   "listen_addresses = '%s'\n"
		   "unix_socket_directories = '%s'\n"
		   "unix_socket_permissions = 0700\n"
		   "port = %d\n",
		listen ? listen : "", s->datadir, s->port);
	return fclose(f) == 0 ? 0 : -errno;
}

int server_parse_checksums(const char *text)
{
	const char *p = strstr(text, "Data page checksum version:");
	char *end;
	long v;

	if (!p)
		return -EINVAL;
	p += strlen("Data page checksum version:");
	v = strtol(p, &end, 10);
	if (end == p || v < 0)
		return -EINVAL;
	return v > 0;
}

/* Ask pg_controldata whether the cluster has data checksums. */
static int controldata_checksums(const struct server *s)
{
	char prog[PATH_MAX], out[8192];
	char *argv[] = { prog, "-D", (char *)s->datadir, NULL };
	int ret;

	snprintf(prog, sizeof(prog), "%s/pg_controldata", s->bindir);
	ret = run_prog(s, RUN_AS_USER | RUN_C_LOCALE, argv, out, sizeof(out), s->timeout_s);
	if (ret != 0)
		return ret < 0 ? ret : -EIO;
	return server_parse_checksums(out);
}

int server_checksums(const struct server *s)
{
	char p[PATH_MAX];
	json_t *j, *v;
	int ret = -ENOENT;

	dpath(s, MARKER, p, sizeof(p));
	j = json_load_file(p, 0, NULL);
	v = json_object_get(j, "data_checksums");
	if (json_is_boolean(v))
		ret = json_is_true(v);
	json_decref(j);
	return ret >= 0 ? ret : controldata_checksums(s);
}

static int write_marker(struct server *s, const char *listen, int version_num,
			int checksums)
{
	char version[32];
	json_t *j;
	int ret, fd;

	pgbin_version_str(version_num, version, sizeof(version));
	j = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:i, s:b}", "created_by", "eicbench",
		      "port", s->port, "user", s->user, "bindir", s->bindir,
		      "listen", listen ? listen : "", "version", version,
		      "version_num", version_num, "data_checksums", checksums);
	ret = fd = open_in_datadir(s, MARKER, O_WRONLY | O_CREAT | O_TRUNC);
	if (fd >= 0) {
		ret = json_dumpfd(j, fd, JSON_INDENT(2)) == 0 ? 0 : -EIO;
		if (ret == 0 && s->drop_privileges && fchown(fd, s->uid, s->gid) < 0)
			ret = -errno;
		if (close(fd) < 0 && ret == 0)
			ret = -errno;
	}
	json_decref(j);
	return ret;
}

/* Is TCP PORT on ADDRS free? Only asked when --listen opens TCP. */
static int tcp_port_free(int port)
{
	char p[64];
	FILE *f;
	char line[512];
	int busy = 0;

	snprintf(p, sizeof(p), ":%04X ", port);
	for (int i = 0; i < 2 && !busy; i++) {
		f = fopen(i ? "/proc/net/tcp6" : "/proc/net/tcp", "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (strstr(line, p) && strstr(line, " 0A "))	/* LISTEN */
				busy = 1;
		fclose(f);
	}
	return !busy;
}

/*
 * The initdb option for CHECKSUMS ("on", "off" or NULL) on VERSION_NUM, or
 * NULL for none: initdb turns checksums on by default from 18, off before,
 * and has --no-data-checksums only from 18.
 */
static int checksums_flag(const char *checksums, int version_num,
			  const char **flag, char *err, size_t errlen)
{
	bool on_by_default = version_num >= 180000;

	*flag = NULL;
	if (!checksums)
		return 0;
	if (strcmp(checksums, "on") && strcmp(checksums, "off")) {
		snprintf(err, errlen, "--checksums '%s': give on or off (default: the version's own, on from PostgreSQL 18, off before)",
			 checksums);
		return -EINVAL;
	}
	if (!strcmp(checksums, "on") && !on_by_default)
		*flag = "--data-checksums";
	else if (!strcmp(checksums, "off") && on_by_default)
		*flag = "--no-data-checksums";
	return 0;
}

static int run_initdb(struct server *s, const char *flag, char *err, size_t errlen)
{
	char out[4096], initdb[PATH_MAX], pgdata[PATH_MAX + 8];
	/* trust only on the private socket; TCP (--listen) needs a password */
	char *argv[] = { initdb, pgdata, "--username=" SERVER_SUPERUSER,
		"--auth-local=trust", "--auth-host=scram-sha-256",
		"--encoding=UTF8", "--locale=C", "--no-instructions",
		(char *)flag, NULL };
	int ret;

	snprintf(initdb, sizeof(initdb), "%s/initdb", s->bindir);
	snprintf(pgdata, sizeof(pgdata), "--pgdata=%s", s->datadir);
	ret = run_prog(s, RUN_AS_USER | RUN_C_LOCALE, argv, out, sizeof(out), s->timeout_s);
	if (ret != 0) {
		snprintf(err, errlen, "initdb failed (%s%d); it said:\n%s",
			 ret < 0 ? "error " : "exit status ", ret, out);
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}

/* --listen goes into postgresql.conf between quotes: host names and
 * addresses only (letters, digits, . : - % * and commas, spaces). */
static int check_listen(const char *listen, char *err, size_t errlen)
{
	if (!listen || opts_check_text("--listen", listen, err, errlen) < 0)
		return listen ? -EINVAL : 0;
	for (const char *c = listen; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".:-%*, ", *c)) {
			snprintf(err, errlen, "--listen '%.200s': '%c' is not allowed; give host names or addresses (letters, digits, . : - %% *), comma-separated, or *",
				 listen, *c);
			return -EINVAL;
		}
	return 0;
}

int server_init(struct server *s, const struct server_init_opts *io,
		char *err, size_t errlen)
{
	const char *listen = io ? io->listen : NULL, *flag;
	int ret, version, checksums;

	if (s->external) {
		snprintf(err, errlen, "server init makes a managed cluster; it cannot be used with --dsn");
		return -EINVAL;
	}
	version = server_bin_version(s);
	if (version < 0) {
		snprintf(err, errlen, "cannot tell the version of '%s/postgres' (postgres --version failed: %s)",
			 s->bindir, strerror(-version));
		return -EIO;
	}
	ret = checksums_flag(io ? io->checksums : NULL, version, &flag, err, errlen);
	if (ret == 0)
		ret = check_listen(listen, err, errlen);
	if (ret < 0)
		return ret;
	if (listen && *listen && !tcp_port_free(s->port)) {
		snprintf(err, errlen, "--port %d is in use by another program; give a free port", s->port);
		return -EINVAL;
	}
	ret = prepare_datadir(s, err, errlen);
	if (ret == 0)
		ret = run_initdb(s, flag, err, errlen);
	if (ret < 0)
		return ret;
	checksums = controldata_checksums(s);
	if (checksums < 0) {
		snprintf(err, errlen, "initdb made '%s', but pg_controldata cannot say whether data checksums are on (%s)",
			 s->datadir, strerror(-checksums));
		return checksums;
	}
	ret = append_conf(s, listen);
	if (ret == 0)
		ret = write_marker(s, listen, version, checksums);
	if (ret < 0)
		snprintf(err, errlen, "cannot write the configuration in '%s': %s",
			 s->datadir, strerror(-ret));
	return ret;
}

static int managed_or_error(const struct server *s, char *err, size_t errlen)
{
	if (s->external) {
		snprintf(err, errlen, "the server given with --dsn is not managed by eicbench; it cannot be started or stopped here");
		return -EINVAL;
	}
	if (!is_cluster(s)) {
		snprintf(err, errlen, "--datadir '%s' is not a PostgreSQL cluster; run 'eicbench server init --datadir %s' first",
			 s->datadir, s->datadir);
		return -EINVAL;
	}
	if (!server_is_managed(s)) {
		snprintf(err, errlen, "--datadir '%s' is a cluster eicbench did not create; eicbench does not restart servers it did not start: use --dsn with --restart-cmd",
			 s->datadir);
		return -EINVAL;
	}
	return 0;
}

/*
 * Is PID a live process? The detached postmaster is reparented to a reaper
 * that may be slow, so an exited one can linger as a zombie: that counts as
 * gone.
 */
static bool pid_alive(pid_t pid)
{
	char p[64], buf[512], *rp;
	ssize_t n;
	int fd;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return !(rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X'));
}

/* What a server process of this cluster is: our postgres binary, working
 * in our data directory (a postmaster changes into it before it writes its
 * pid file, and its children inherit it). Real paths; "" when unknown. */
struct ident {
	char exe[PATH_MAX], dir[PATH_MAX];
};

static void ident_of(const struct server *s, struct ident *id)
{
	char want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/postgres", s->bindir);
	if (!realpath(want, id->exe))
		id->exe[0] = '\0';
	if (!realpath(s->datadir, id->dir))
		id->dir[0] = '\0';
}

/* Does /proc/PID/LINK (exe, cwd) name REAL? 1 yes, 0 no, -1 it cannot be
 * told (gone, not ours to inspect, or REAL unknown). */
static int proc_link_is(pid_t pid, const char *link, const char *real)
{
	char p[64], got[PATH_MAX];
	ssize_t n;

	snprintf(p, sizeof(p), "/proc/%d/%s", (int)pid, link);
	n = real[0] ? readlink(p, got, sizeof(got) - 1) : -1;
	if (n < 0)
		return -1;
	got[n] = '\0';
	if (n > 10 && !strcmp(got + n - 10, " (deleted)"))
		got[n - 10] = '\0';	/* the binary was replaced since it started */
	return !strcmp(got, real);
}

/* Is PID a server process of this cluster? 1 yes, 0 no, -1 cannot tell. */
static int ident_match(const struct ident *id, pid_t pid)
{
	int exe = proc_link_is(pid, "exe", id->exe), dir = proc_link_is(pid, "cwd", id->dir);

	if (exe == 0 || dir == 0)
		return 0;
	return exe == 1 && dir == 1 ? 1 : -1;
}

/* A stale postmaster.pid may name another program, or the postmaster of
 * another cluster run from the same binaries: neither is ours. What /proc
 * does not tell counts as ours: never a reason to signal or to start. */
static bool is_our_server(const struct server *s, pid_t pid)
{
	struct ident id;

	ident_of(s, &id);
	return ident_match(&id, pid) != 0;
}

static pid_t pid_in(const struct server *s, const char *file)
{
	char line[32];
	long pid;

	datadir_line(s, file, line, sizeof(line));
	pid = strtol(line, NULL, 10);
	return pid > 0 && pid <= INT_MAX ? (pid_t)pid : 0;
}

pid_t server_running_pid(const struct server *s)
{
	pid_t pid = pid_in(s, "postmaster.pid");

	if (pid <= 0 || !pid_alive(pid) || !is_our_server(s, pid))
		return 0;
	return pid;
}

/* Is a server process of this cluster alive (a backend a killed
 * postmaster left, say)? 1 yes, 0 no, -1 cannot tell (the binary or the
 * data directory unknown). Processes /proc does not show are not counted. */
static int cluster_has_process(const struct server *s)
{
	struct ident id;
	struct dirent *e;
	int found = 0;
	DIR *d;

	ident_of(s, &id);
	if (!id.exe[0] || !id.dir[0] || !(d = opendir("/proc")))
		return -1;
	while (!found && (e = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end == '\0' && pid > 0 && ident_match(&id, (pid_t)pid) == 1 && pid_alive((pid_t)pid))
			found = 1;
	}
	closedir(d);
	return found;
}

/*
 * Before a start, after a postmaster that is gone. Its processes exit once
 * they notice (a killed postmaster's backends, checkpointer, ...); until
 * then they hold its shared memory and postgres refuses to start: wait for
 * them, within the timeout. Then its lock files (postmaster.pid, the
 * socket's .lock) go when they name no server of this cluster: postgres
 * refuses to start while the pid in one is alive to it, and that may be
 * the killed postmaster itself as a zombie its slow reaper has not yet
 * collected, or by now another program or the postmaster of another
 * cluster. Kept while any process of this cluster is left.
 */
static void clear_stale(const struct server *s)
{
	double deadline = clock_now_ms() + s->timeout_s * 1e3;
	char sock[64], p[PATH_MAX];
	const char *files[] = { "postmaster.pid", sock };
	pid_t pm = pid_in(s, "postmaster.pid");

	if (pm > 0 && !pid_alive(pm))
		while (cluster_has_process(s) == 1 && clock_now_ms() < deadline)
			clock_sleep_ms(POLL_MS);
	snprintf(sock, sizeof(sock), ".s.PGSQL.%d.lock", s->port);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		pid_t pid = pid_in(s, files[i]);

		if (pid <= 0 || (pid_alive(pid) && is_our_server(s, pid)) || cluster_has_process(s) != 0)
			continue;
		dpath(s, files[i], p, sizeof(p));
		unlink(p);
	}
}

/*
 * Start the postmaster detached (double fork); return its pid or -errno.
 * SETTINGS ("name=value", NULL-terminated, or NULL) become -c options.
 */
static pid_t spawn_postmaster(const struct server *s, const char *const *settings)
{
	char postgres[PATH_MAX], log[PATH_MAX], *argv[4 + 2 * 16 + 1];
	int pfd[2], status, n = 0;
	pid_t child, pm = -EIO;

	clear_stale(s);
	snprintf(postgres, sizeof(postgres), "%s/postgres", s->bindir);
	argv[n++] = postgres;
	argv[n++] = "-D";
	argv[n++] = (char *)s->datadir;
	for (int i = 0; settings && settings[i] && i < 16; i++) {
		argv[n++] = "-c";
		argv[n++] = (char *)settings[i];
	}
	argv[n] = NULL;
	dpath(s, LOGFILE, log, sizeof(log));
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	child = fork();
	if (child < 0)
		return -errno;
	if (child == 0) {
		pid_t gc;

		setsid();
		gc = fork();
		if (gc != 0) {
			if (write(pfd[1], &gc, sizeof(gc)) != sizeof(gc))
				_exit(1);
			_exit(0);
		}
		if (become_user(s) < 0)
			_exit(126);
		int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		spawn_exec(&(struct spawn_opts){ .argv = argv }, fd >= 0 ? fd : 2);
	}
	close(pfd[1]);
	if (read(pfd[0], &pm, sizeof(pm)) != sizeof(pm))
		pm = -EIO;
	close(pfd[0]);
	waitpid(child, &status, 0);
	return pm;
}

static const char *const conn_keys[] = { "host", "port", "user", "dbname",
	"application_name", "connect_timeout", NULL };

static void conn_values(const struct server *s, const char *db, char *port,
			const char **vals)
{
	snprintf(port, 8, "%d", s->port);
	vals[0] = s->datadir;
	vals[1] = port;
	vals[2] = SERVER_SUPERUSER;
	vals[3] = db;
	vals[4] = "eicbench";
	vals[5] = "10";
	vals[6] = NULL;
}

static PGPing ping(const struct server *s)
{
	static const char *const ext_keys[] = { "dbname", "connect_timeout", NULL };
	const char *vals[7];
	char port[8];

	if (s->external) {
		const char *ev[] = { s->dsn, "10", NULL };

		return PQpingParams(ext_keys, ev, 1);
	}
	conn_values(s, "postgres", port, vals);
	return PQpingParams(conn_keys, vals, 0);
}

int server_wait_ready(const struct server *s, pid_t pid, char *err, size_t errlen)
{
	double deadline = clock_now_ms() + s->timeout_s * 1e3;

	for (;;) {
		PGPing r = ping(s);

		if (r == PQPING_OK)
			return 0;
		if (r == PQPING_NO_ATTEMPT) {
			snprintf(err, errlen, "cannot connect: the connection settings are invalid");
			return -EINVAL;
		}
		if (pid > 0 && !pid_alive(pid)) {
			snprintf(err, errlen, "the server exited during start-up; the end of its log:\n");
			server_log_tail(s, err, errlen, 12);
			return -EIO;
		}
		if (clock_now_ms() > deadline) {
			snprintf(err, errlen, "the server did not accept connections within %.0f s; the end of its log:\n",
				 s->timeout_s);
			server_log_tail(s, err, errlen, 12);
			return -ETIMEDOUT;
		}
		clock_sleep_ms(POLL_MS);
	}
}

/* Wait until the postmaster PID just started is ready. When it exits at
 * once because another postmaster of this cluster came up meanwhile (one
 * that a command killed the moment it started it had spawned), wait for
 * that one instead. */
static int wait_started(const struct server *s, pid_t pid, char *err, size_t errlen)
{
	int ret = server_wait_ready(s, pid, err, errlen);
	pid_t other;

	if (ret == -EIO && (other = server_running_pid(s)) > 0 && other != pid)
		ret = server_wait_ready(s, other, err, errlen);
	return ret;
}

int server_start(struct server *s, char *err, size_t errlen)
{
	return server_start_with(s, NULL, err, errlen);
}

int server_start_with(struct server *s, const char *const *settings,
		      char *err, size_t errlen)
{
	int ret = managed_or_error(s, err, errlen);
	pid_t pid;

	if (ret < 0)
		return ret;
	pid = server_running_pid(s);
	if (pid > 0)
		return server_wait_ready(s, pid, err, errlen);
	pid = spawn_postmaster(s, settings);
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the server: %s", strerror(-pid));
		return pid;
	}
	return wait_started(s, pid, err, errlen);
}

int server_stop(struct server *s, char *err, size_t errlen)
{
	int ret = managed_or_error(s, err, errlen);
	double deadline = clock_now_ms() + s->timeout_s * 1e3;
	pid_t pid;

	if (ret < 0)
		return ret;
	pid = server_running_pid(s);
	if (pid <= 0)
		return 0;
	if (kill(pid, SIGINT) < 0) {	/* fast shutdown */
		snprintf(err, errlen, "cannot signal the server (pid %d): %s", (int)pid, strerror(errno));
		return -errno;
	}
	while (pid_alive(pid)) {
		if (clock_now_ms() > deadline) {
			snprintf(err, errlen, "the server (pid %d) did not stop within %.0f s", (int)pid, s->timeout_s);
			return -ETIMEDOUT;
		}
		clock_sleep_ms(1);
	}
	return 0;
}

void server_log_path(const struct server *s, char *buf, size_t len)
{
	dpath(s, LOGFILE, buf, len);
}

void server_log_tail(const struct server *s, char *err, size_t errlen, int lines)
{
	char p[PATH_MAX], buf[8192];
	size_t used = strlen(err);
	ssize_t n;
	int fd, seen = 0;
	char *start;
	off_t size;

	dpath(s, LOGFILE, p, sizeof(p));
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	start = buf + n;
	while (start > buf && seen <= lines)
		if (*--start == '\n' && start[1] != '\0')
			seen++;
	if (*start == '\n')
		start++;
	snprintf(err + used, errlen > used ? errlen - used : 0, "%s", start);
}

static void quiet_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

PGconn *server_connect(const struct server *s, const char *dbname,
		       char *err, size_t errlen)
{
	const char *vals[7];
	char port[8];
	PGconn *c;

	if (s->external) {
		const char *ek[] = { "dbname", "dbname", "application_name", NULL };
		const char *ev[] = { s->dsn, dbname, "eicbench", NULL };

		if (!dbname)
			ek[1] = "application_name", ek[2] = NULL, ev[1] = "eicbench";
		c = PQconnectdbParams(ek, ev, 1);
	} else {
		conn_values(s, dbname ? dbname : SERVER_DBNAME, port, vals);
		c = PQconnectdbParams(conn_keys, vals, 0);
	}
	if (c && PQstatus(c) == CONNECTION_OK) {
		PQsetNoticeProcessor(c, quiet_notice, NULL);
		return c;
	}
	{
		char said[1024] = "out of memory";

		if (c)	/* libpq may echo the connection string, secrets and all */
			record_redact_message(PQerrorMessage(c), s->external ? s->dsn : NULL, said, sizeof(said));
		snprintf(err, errlen, "cannot connect: %s", said);
	}
	PQfinish(c);
	return NULL;
}

/* ---- cold cycle ---------------------------------------------------------- */

static int drop_caches(const struct server *s, const char *datadir,
		       struct cold_times *t, char *err, size_t errlen)
{
	struct cache_evict_stats st = { 0 };
	int ret;

	(void)s;
	ret = geteuid() == 0 ? cache_drop_all() : -EPERM;
	if (ret == 0)
		snprintf(t->method, sizeof(t->method), "drop_caches");
	else {	/* not root, or drop_caches not writable (a container): file by file */
		snprintf(t->method, sizeof(t->method), geteuid() == 0 ? "fadvise (drop_caches refused)" : "fadvise");
		ret = cache_evict_tree(datadir, &st);
		t->evicted_files = st.files;
		if (ret == 0 && st.failed)
			ret = -EACCES;
	}
	if (ret < 0)
		snprintf(err, errlen, "cannot drop the page cache (%s) for '%s': %s",
			 t->method, datadir, strerror(-ret));
	return ret;
}

int server_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (syncfs(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int cold_managed(struct server *s, struct cold_times *t, char *err,
			size_t errlen)
{
	double t0 = clock_now_ms(), t1, t2, t3, t4;
	pid_t pid;
	int ret;

	ret = server_stop(s, err, errlen);
	t1 = clock_now_ms();
	if (ret == 0)
		ret = server_sync_dir(s->datadir);
	t2 = clock_now_ms();
	if (ret == 0)
		ret = drop_caches(s, s->datadir, t, err, errlen);
	t3 = clock_now_ms();
	if (ret < 0) {	/* never leave the server down: start it again */
		char keep[256];

		server_start(s, keep, sizeof(keep));
		return ret;
	}
	faultpoint("server:cold");	/* the server is down */
	pid = spawn_postmaster(s, NULL);
	t4 = clock_now_ms();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the server: %s", strerror(-pid));
		return pid;
	}
	ret = wait_started(s, pid, err, errlen);
	t->stop_ms = t1 - t0;
	t->sync_ms = t2 - t1;
	t->drop_ms = t3 - t2;
	t->start_ms = t4 - t3;
	t->ready_ms = clock_now_ms() - t4;
	t->total_ms = clock_now_ms() - t0;
	return ret;
}

/* The external server's data directory, when we may read it, for eviction. */
static void external_datadir(const struct server *s, char *out, size_t len)
{
	char err[256];
	PGconn *c = server_connect(s, NULL, err, sizeof(err));
	PGresult *r;

	out[0] = '\0';
	if (!c)
		return;
	r = PQexec(c, "SHOW data_directory");
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		snprintf(out, len, "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
}

/* Run the --dsn server's restart command. */
static int restart_external(struct server *s, char *err, size_t errlen)
{
	char cmd[1024], *argv[64], out[2048], prog[PATH_MAX];
	int ret;

	snprintf(cmd, sizeof(cmd), "%s", s->restart_cmd);
	server_split_argv(cmd, argv, 64);
	if (find_program(argv[0], prog, sizeof(prog)) == 0)
		argv[0] = prog;
	ret = run_prog(s, 0, argv, out, sizeof(out), s->timeout_s);
	if (ret != 0) {
		char said[sizeof(out)];

		record_redact_message(out, s->dsn, said, sizeof(said));
		snprintf(err, errlen, "--restart-cmd failed (%s%d); it said:\n%s",
			 ret < 0 ? "error " : "exit status ", ret, said);
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}

int server_restart(struct server *s, char *err, size_t errlen)
{
	int ret;

	if (!s->external) {
		ret = server_stop(s, err, errlen);
		return ret < 0 ? ret : server_start(s, err, errlen);
	}
	if (!s->restart_cmd[0]) {
		snprintf(err, errlen, "the server given with --dsn needs a restart, and eicbench restarts a server it did not start only with --restart-cmd");
		return -EINVAL;
	}
	ret = restart_external(s, err, errlen);
	return ret < 0 ? ret : server_wait_ready(s, 0, err, errlen);
}

static int cold_external(struct server *s, struct cold_times *t, char *err,
			 size_t errlen)
{
	char datadir[PATH_MAX];
	double t0 = clock_now_ms(), t1, t2, t3;
	int ret;

	if (!s->restart_cmd[0]) {
		snprintf(err, errlen, "the server given with --dsn cannot be made cold without --restart-cmd: eicbench does not restart a server it did not start, and without a restart its shared buffers stay warm");
		return -EINVAL;
	}
	external_datadir(s, datadir, sizeof(datadir));
	if (geteuid() != 0 && !datadir[0]) {
		snprintf(err, errlen, "cannot make the --dsn server cold: not root (so no drop_caches) and its data_directory is not known to this role (so no eviction)");
		return -EINVAL;
	}
	ret = restart_external(s, err, errlen);
	t1 = clock_now_ms();
	if (ret != 0)
		return ret;
	ret = server_sync_dir(datadir[0] ? datadir : "/");
	t2 = clock_now_ms();
	if (ret == 0)
		ret = drop_caches(s, datadir, t, err, errlen);
	t3 = clock_now_ms();
	if (ret == 0)
		ret = server_wait_ready(s, 0, err, errlen);
	t->stop_ms = 0;
	t->start_ms = t1 - t0;	/* the restart command did both */
	t->sync_ms = t2 - t1;
	t->drop_ms = t3 - t2;
	t->ready_ms = clock_now_ms() - t3;
	t->total_ms = clock_now_ms() - t0;
	return ret;
}

int server_cold(struct server *s, struct cold_times *t, char *err, size_t errlen)
{
	int ret;

	memset(t, 0, sizeof(*t));
	if (s->external)
		return cold_external(s, t, err, errlen);
	ret = managed_or_error(s, err, errlen);
	return ret < 0 ? ret : cold_managed(s, t, err, errlen);
}

int server_ready_db(struct server *s, char *err, size_t errlen)
{
	PGconn *c;
	int ret;

	if (s->external)
		return 0;
	ret = server_start(s, err, errlen);
	if (ret < 0)
		return ret;
	c = server_connect(s, "postgres", err, errlen);
	if (!c)
		return -EIO;
	ret = pgutil_ensure_db(c, SERVER_DBNAME, err, errlen);
	PQfinish(c);
	return ret;
}
