/*
 * server_init: making the managed cluster: an empty data directory the
 * server's user can write, initdb (data checksums as asked, else the
 * version's default), the private configuration appended to
 * postgresql.conf (the Unix socket in the data directory, TCP only with
 * --listen), and the marker (eicbench.json) later commands read; and
 * whether a cluster has data checksums (the marker, else pg_controldata).
 */
#include "bench/pg/server_priv.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/pg/pgbin.h"

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
		_exit(server_become_user(s) == 0 && access(dir, W_OK | X_OK) == 0 ? 0 : 1);
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

	if (server_is_cluster(s)) {
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

static int append_conf(struct server *s, const char *listen)
{
	int fd = server_open_in_datadir(s, "postgresql.conf", O_WRONLY | O_APPEND);
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
	ret = server_run(s, SERVER_RUN_AS_USER | SERVER_RUN_C_LOCALE, argv, out, sizeof(out), s->timeout_s);
	if (ret != 0)
		return ret < 0 ? ret : -EIO;
	return server_parse_checksums(out);
}

int server_checksums(const struct server *s)
{
	char p[PATH_MAX];
	json_t *j, *v;
	int ret = -ENOENT;

	server_dpath(s, SERVER_MARKER, p, sizeof(p));
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
	ret = fd = server_open_in_datadir(s, SERVER_MARKER, O_WRONLY | O_CREAT | O_TRUNC);
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
	ret = server_run(s, SERVER_RUN_AS_USER | SERVER_RUN_C_LOCALE, argv, out, sizeof(out), s->timeout_s);
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
