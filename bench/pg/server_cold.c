/*
 * server_cold: the cold cycle (stop, sync, drop the page cache, start, wait
 * until ready; each step timed in ms) of the managed cluster, and of a --dsn
 * server through its --restart-cmd; a restart of either; the suite's
 * database made ready. The data directory's file system and each
 * tablespace's are synced; caches are dropped with drop_caches as root,
 * else file by file (fadvise) where the data directory and its tablespaces
 * (followed through pg_tblspc) can be read.
 */
#include "bench/pg/server_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/redact.h"
#include "bench/pg/pgutil.h"
#include "bench/record/record.h"
#include "io/cache.h"
#include "io/clock.h"
#include "io/faultpoint.h"

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

/* The file systems of the cluster's tablespaces (pg_tblspc's links), each
 * synced as the data directory's is: dirty pages cannot be dropped. A
 * folder that is gone (a lost mount) has nothing to write. */
static int sync_tablespaces(const char *datadir)
{
	char dir[PATH_MAX], path[PATH_MAX * 2];
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s/pg_tblspc", datadir);
	if (!(dp = opendir(dir)))
		return 0;
	while (ret == 0 && (d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		ret = server_sync_dir(path);
		if (ret == -ENOENT || ret == -ENOTCONN)
			ret = 0;
	}
	closedir(dp);
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
	if (ret == 0)
		ret = sync_tablespaces(s->datadir);
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
	pid = server_spawn_postmaster(s, NULL);
	t4 = clock_now_ms();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the server: %s", strerror(-pid));
		return pid;
	}
	ret = server_wait_started(s, pid, err, errlen);
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
	if (server_find_program(argv[0], prog, sizeof(prog)) == 0)
		argv[0] = prog;
	ret = server_run(s, SERVER_RUN_WHOLE_ENV, argv, out, sizeof(out), s->timeout_s);
	if (ret != 0) {
		char said[sizeof(out)];

		redact_message(out, s->dsn, said, sizeof(said));
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
	ret = server_managed_or_error(s, err, errlen);
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
