/*
 * server: process control of the managed cluster. The postmaster is started
 * directly and detached (so a stop can be watched without zombies); a pid is
 * believed only when /proc shows our binary working in our data directory,
 * and stale lock files go before a start. Also the data directory's paths
 * and files and the tool runner the other server_*.c share (server_priv.h):
 * tools run as argv (never through a shell) through bench/cli/spawn.h, as the
 * server's user when invoked as root. Every wait is bounded by --timeout.
 */
#include "bench/pg/server_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/cli/spawn.h"
#include "io/clock.h"

void server_cfg_defaults(struct server_cfg *cfg)
{
	*cfg = (struct server_cfg){ .port = 5432, .timeout_s = 120 };
}

int server_become_user(const struct server *s)
{
	return s->drop_privileges ? spawn_become(s->user, s->uid, s->gid) : 0;
}

/*
 * Run ARGV and wait for it, bounded by TIMEOUT_S; its output goes to OUT.
 * Returns the exit status (0..255), or -errno.
 */
int server_run(const struct server *s, int flags, char *const argv[],
	       char *out, size_t outlen, double timeout_s)
{
	struct spawn_opts o = {
		.argv = argv, .out = out, .outlen = outlen, .out_fd = -1,
		.timeout_s = timeout_s, .c_locale = flags & SERVER_RUN_C_LOCALE,
		.new_pgroup = true, .whole_env = flags & SERVER_RUN_WHOLE_ENV,
	};

	if ((flags & SERVER_RUN_AS_USER) && s->drop_privileges) {
		o.user = s->user;
		o.uid = s->uid;
		o.gid = s->gid;
	}
	return spawn_run(&o);
}

void server_dpath(const struct server *s, const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", s->datadir, name);
}

/* The first line of the data directory's file NAME into LINE ("" if none). */
void server_datadir_line(const struct server *s, const char *name, char *line, size_t len)
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

/*
 * Open NAME in the data directory, which the server's user owns: relative
 * to the directory, never through a link, a regular file with no other
 * name (as root, a link planted there would have eicbench write where it
 * points). The descriptor, or -errno.
 */
int server_open_in_datadir(const struct server *s, const char *name, int flags)
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

int server_is_managed(const struct server *s)
{
	char p[PATH_MAX];

	if (s->external)
		return 0;
	server_dpath(s, SERVER_MARKER, p, sizeof(p));
	return access(p, F_OK) == 0;
}

bool server_is_cluster(const struct server *s)
{
	char p[PATH_MAX];

	server_dpath(s, "PG_VERSION", p, sizeof(p));
	return access(p, F_OK) == 0;
}

int server_managed_or_error(const struct server *s, char *err, size_t errlen)
{
	if (s->external) {
		snprintf(err, errlen, "the server given with --dsn is not managed by eicbench; it cannot be started or stopped here");
		return -EINVAL;
	}
	if (!server_is_cluster(s)) {
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
bool server_pid_alive(pid_t pid)
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

	server_datadir_line(s, file, line, sizeof(line));
	pid = strtol(line, NULL, 10);
	return pid > 0 && pid <= INT_MAX ? (pid_t)pid : 0;
}

pid_t server_running_pid(const struct server *s)
{
	pid_t pid = pid_in(s, "postmaster.pid");

	if (pid <= 0 || !server_pid_alive(pid) || !is_our_server(s, pid))
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

		if (*end == '\0' && pid > 0 && ident_match(&id, (pid_t)pid) == 1 && server_pid_alive((pid_t)pid))
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

	if (pm > 0 && !server_pid_alive(pm))
		while (cluster_has_process(s) == 1 && clock_now_ms() < deadline)
			clock_sleep_ms(SERVER_POLL_MS);
	snprintf(sock, sizeof(sock), ".s.PGSQL.%d.lock", s->port);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		pid_t pid = pid_in(s, files[i]);

		if (pid <= 0 || (server_pid_alive(pid) && is_our_server(s, pid)) || cluster_has_process(s) != 0)
			continue;
		server_dpath(s, files[i], p, sizeof(p));
		unlink(p);
	}
}

/*
 * Start the postmaster detached (double fork); return its pid or -errno.
 * SETTINGS ("name=value", NULL-terminated, or NULL) become -c options.
 */
pid_t server_spawn_postmaster(const struct server *s, const char *const *settings)
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
	server_dpath(s, SERVER_LOGFILE, log, sizeof(log));
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
		if (server_become_user(s) < 0)
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

/* Wait until the postmaster PID just started is ready. When it exits at
 * once because another postmaster of this cluster came up meanwhile (one
 * that a command killed the moment it started it had spawned), wait for
 * that one instead. */
int server_wait_started(const struct server *s, pid_t pid, char *err, size_t errlen)
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
	int ret = server_managed_or_error(s, err, errlen);
	pid_t pid;

	if (ret < 0)
		return ret;
	pid = server_running_pid(s);
	if (pid > 0)
		return server_wait_ready(s, pid, err, errlen);
	pid = server_spawn_postmaster(s, settings);
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the server: %s", strerror(-pid));
		return pid;
	}
	return server_wait_started(s, pid, err, errlen);
}

int server_stop(struct server *s, char *err, size_t errlen)
{
	int ret = server_managed_or_error(s, err, errlen);
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
	while (server_pid_alive(pid)) {
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
	server_dpath(s, SERVER_LOGFILE, buf, len);
}

void server_log_tail(const struct server *s, char *err, size_t errlen, int lines)
{
	char p[PATH_MAX], buf[8192];
	size_t used = strlen(err);
	ssize_t n;
	int fd, seen = 0;
	char *start;
	off_t size;

	server_dpath(s, SERVER_LOGFILE, p, sizeof(p));
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

/* Readiness, polled every SERVER_POLL_MS within --timeout. */
int server_wait_ready(const struct server *s, pid_t pid, char *err, size_t errlen)
{
	double deadline = clock_now_ms() + s->timeout_s * 1e3;

	for (;;) {
		PGPing r = server_ping(s);

		if (r == PQPING_OK)
			return 0;
		if (r == PQPING_NO_ATTEMPT) {
			snprintf(err, errlen, "cannot connect: the connection settings are invalid");
			return -EINVAL;
		}
		if (pid > 0 && !server_pid_alive(pid)) {
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
		clock_sleep_ms(SERVER_POLL_MS);
	}
}
