/*
 * test_lock: a result folder's lock is taken, refused to a forked child
 * with the holder named, given
 * up and taken again; a second take in the holding process is refused,
 * but the registry (lock_hold_folder) grants a folder it holds already;
 * a symbolic or hard link planted at the lock's name is
 * refused and what it points at is left alone; a holder killed with
 * SIGKILL leaves the lock free; a program the holder ran keeps no lock;
 * the managed cluster's lock lives in its
 * data directory; a --dsn server's lock is one per server (strings that
 * differ in database, user, password or form share it; the environment's
 * PGHOST counts); as root the lock file goes to the directory's owner.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/pg/lock.h"
#include "bench/record/record.h"
#include "io/file.h"
#include "tests/fixture.h"

struct tmp {
	char dir[64];
	char state[128];
	char err[1024];
};

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	snprintf(t->dir, sizeof(t->dir), "/tmp/test_lock.XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->state, sizeof(t->state), "%s/state", t->dir);
	setenv("EICBENCH_STATE", t->state, 1);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;

	fixture_remove(t->dir);
	unsetenv("EICBENCH_STATE");
	free(t);
	return 0;
}

/* In a child: try DIR's lock; write the message to FD; exit 0 when the
 * result was WANT. */
static pid_t try_in_child(const char *dir, int want, int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct lock l = LOCK_INIT;
		char err[1024] = "";
		int rc = lock_folder(dir, "the child", &l, err, sizeof(err));

		if (write(fd, err, strlen(err) + 1) < 0)
			_exit(3);
		lock_release(&l);
		_exit(rc == want ? 0 : 1);
	}
	return pid;
}

static int child_status(pid_t pid)
{
	int st = -1;

	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static char *holder_file(const char *dir)
{
	char path[PATH_MAX], *text = NULL;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_LOCK);
	if (file_read_all(path, 0, &text, &n) < 0)
		return NULL;
	return text;
}

static void take_refuse_release_retake(void **state)
{
	struct tmp *t = *state;
	struct lock l = LOCK_INIT, again = LOCK_INIT;
	char msg[1024], want[256], *text;
	int fds[2];
	pid_t child;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(lock_folder(t->dir, "eicbench sweep --out x", &l, t->err, sizeof(t->err)), 0);
	snprintf(want, sizeof(want), "\"pid\":%ld,\"command\":\"eicbench sweep --out x\",\"since\":\"20",
		 (long)getpid());
	assert_non_null(text = holder_file(t->dir));
	assert_non_null(strstr(text, want));
	free(text);
	/* a child is refused and told who holds it */
	child = try_in_child(t->dir, -EBUSY, fds[1]);
	assert_int_equal(child_status(child), 0);
	assert_true(read(fds[0], msg, sizeof(msg)) > 0);
	snprintf(want, sizeof(want), "the result folder %s is in use: held by pid %ld, eicbench sweep --out x, since 20",
		 t->dir, (long)getpid());
	assert_non_null(strstr(msg, want));
	assert_non_null(strstr(msg, "Z"));
	/* a second take in this process is refused too, and leaves the first
	 * one's lock with its holder named */
	assert_int_equal(lock_folder(t->dir, "again", &again, t->err, sizeof(t->err)), -EBUSY);
	assert_int_equal(again.fd, -1);
	lock_release(&again);
	child = try_in_child(t->dir, -EBUSY, fds[1]);
	assert_int_equal(child_status(child), 0);
	assert_true(read(fds[0], msg, sizeof(msg)) > 0);
	assert_non_null(strstr(msg, "eicbench sweep --out x"));
	/* given up: the child takes it; then this process again */
	lock_release(&l);
	lock_release(&l);
	child = try_in_child(t->dir, 0, fds[1]);
	assert_int_equal(child_status(child), 0);
	assert_int_equal(lock_folder(t->dir, "third", &l, t->err, sizeof(t->err)), 0);
	lock_release(&l);
	close(fds[0]);
	close(fds[1]);
}

/* The registry: a folder held once is granted again, a lock taken beside
 * it is refused, and another process is refused until the holder ends (in
 * a child, as the registry holds for the life of its process). */
static void registry_grants_held(void **state)
{
	struct tmp *t = *state;
	pid_t pid = fork();

	if (pid == 0) {
		struct lock l = LOCK_INIT;
		char err[1024];
		int bad = 0;

		lock_set_holder(2, (char *[]){ "eicbench", "run", NULL });
		bad |= lock_hold_folder(t->dir, err, sizeof(err)) != 0;
		bad |= lock_hold_folder(t->dir, err, sizeof(err)) != 0;	/* held: granted */
		bad |= (lock_folder(t->dir, "beside", &l, err, sizeof(err)) != -EBUSY) << 1;
		bad |= (strstr(err, "eicbench run") == NULL) << 2;
		bad |= (child_status(try_in_child(t->dir, -EBUSY, open("/dev/null", O_WRONLY))) != 0) << 3;
		_exit(bad);
	}
	assert_int_equal(child_status(pid), 0);
	/* its holder gone, the folder is free */
	assert_int_equal(child_status(try_in_child(t->dir, 0, open("/dev/null", O_WRONLY))), 0);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void symlink_not_followed(void **state)
{
	struct tmp *t = *state;
	struct lock l = LOCK_INIT;
	char link_path[PATH_MAX], target[PATH_MAX], *text;
	size_t n;
	struct stat st;

	snprintf(link_path, sizeof(link_path), "%s/%s", t->dir, RECORD_LOCK);
	snprintf(target, sizeof(target), "%s/target", t->dir);
	/* dangling: nothing is made at the target */
	assert_int_equal(symlink(target, link_path), 0);
	assert_int_equal(lock_folder(t->dir, "x", &l, t->err, sizeof(t->err)), -ELOOP);
	assert_non_null(strstr(t->err, "symbolic link"));
	assert_int_equal(lstat(target, &st), -1);
	assert_int_equal(l.fd, -1);
	/* to a file: the file keeps its text */
	put(target, "keep");
	assert_int_equal(lock_folder(t->dir, "x", &l, t->err, sizeof(t->err)), -ELOOP);
	assert_int_equal(file_read_all(target, 0, &text, &n), 0);
	assert_string_equal(text, "keep");
	free(text);
	/* a hard link is refused too */
	assert_int_equal(unlink(link_path), 0);
	assert_int_equal(link(target, link_path), 0);
	assert_int_equal(lock_folder(t->dir, "x", &l, t->err, sizeof(t->err)), -EMLINK);
	assert_non_null(strstr(t->err, "hard link"));
	assert_int_equal(file_read_all(target, 0, &text, &n), 0);
	assert_string_equal(text, "keep");
	free(text);
	/* once removed, the lock works */
	assert_int_equal(unlink(link_path), 0);
	assert_int_equal(lock_folder(t->dir, "x", &l, t->err, sizeof(t->err)), 0);
	lock_release(&l);
}

/* A holder that dies by SIGKILL leaves the lock free; its stale text is
 * replaced by the next holder's. */
static void killed_holder(void **state)
{
	struct tmp *t = *state;
	struct lock l = LOCK_INIT;
	char want[128], c, *text;
	int fds[2];
	pid_t child;

	assert_int_equal(pipe(fds), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char err[512];

		if (lock_folder(t->dir, "the holder", &l, err, sizeof(err)) != 0 || write(fds[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	assert_int_equal(read(fds[0], &c, 1), 1);
	assert_int_equal(lock_folder(t->dir, "me", &l, t->err, sizeof(t->err)), -EBUSY);
	snprintf(want, sizeof(want), "held by pid %ld, the holder, since", (long)child);
	assert_non_null(strstr(t->err, want));
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(lock_folder(t->dir, "me", &l, t->err, sizeof(t->err)), 0);
	assert_non_null(text = holder_file(t->dir));
	snprintf(want, sizeof(want), "\"pid\":%ld,\"command\":\"me\"", (long)getpid());
	assert_non_null(strstr(text, want));
	free(text);
	lock_release(&l);
	close(fds[0]);
	close(fds[1]);
}

/* A program the holder runs (fork and exec) does not keep the lock once
 * the holder gives it up. */
static void exec_does_not_inherit(void **state)
{
	struct tmp *t = *state;
	struct lock l = LOCK_INIT;
	char msg[1024], c;
	int fds[2], exec_seen[2], status;
	pid_t prog, child;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pipe2(exec_seen, O_CLOEXEC), 0);
	assert_int_equal(lock_folder(t->dir, "holder", &l, t->err, sizeof(t->err)), 0);
	prog = fork();
	assert_true(prog >= 0);
	if (prog == 0) {
		execlp("sleep", "sleep", "60", (char *)NULL);
		_exit(127);
	}
	/* the exec closes the child's end: until then it holds a copy */
	close(exec_seen[1]);
	assert_int_equal(read(exec_seen[0], &c, 1), 0);
	close(exec_seen[0]);
	lock_release(&l);
	child = try_in_child(t->dir, 0, fds[1]);
	status = child_status(child);
	kill(prog, SIGKILL);
	waitpid(prog, NULL, 0);
	assert_int_equal(status, 0);
	assert_true(read(fds[0], msg, sizeof(msg)) > 0);
	close(fds[0]);
	close(fds[1]);
}

/* Try S's cluster lock in a child process: its result, its message in ERR. */
static int cluster_in_child(struct tmp *t, const struct server *s)
{
	int fds[2], rc = 1;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		struct lock l = LOCK_INIT;
		char err[1024] = "";
		int r = lock_cluster(s, "eicbench sweep", &l, err, sizeof(err));

		if (write(fds[1], &r, sizeof(r)) != sizeof(r) || write(fds[1], err, strlen(err) + 1) < 0)
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &rc, sizeof(rc)), sizeof(rc));
	memset(t->err, 0, sizeof(t->err));
	(void)!read(fds[0], t->err, sizeof(t->err) - 1);
	close(fds[0]);
	assert_int_equal(child_status(pid), 0);
	return rc;
}

/* The --dsn lock of DSN tried in a child process (the holder is this one). */
static int dsn_in_child(struct tmp *t, const char *dsn)
{
	struct server s = { .external = true, .dsn = dsn };

	return cluster_in_child(t, &s);
}

static void managed_cluster(void **state)
{
	struct tmp *t = *state;
	struct server s = { .external = false };
	struct lock l = LOCK_INIT, l2 = LOCK_INIT;
	char path[PATH_MAX];
	struct stat st;

	snprintf(s.datadir, sizeof(s.datadir), "%s", t->dir);
	assert_int_equal(lock_cluster(&s, "eicbench load", &l, t->err, sizeof(t->err)), 0);
	snprintf(path, sizeof(path), "%s/%s", t->dir, LOCK_CLUSTER_FILE);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(cluster_in_child(t, &s), -EBUSY);
	assert_non_null(strstr(t->err, "the cluster in "));
	assert_non_null(strstr(t->err, ", eicbench load, since "));
	/* the folder's lock is another one */
	assert_int_equal(lock_folder(t->dir, "eicbench report", &l2, t->err, sizeof(t->err)), 0);
	lock_release(&l2);
	lock_release(&l);
	/* no data directory yet */
	snprintf(s.datadir, sizeof(s.datadir), "%s/none", t->dir);
	assert_int_equal(lock_cluster(&s, "x", &l, t->err, sizeof(t->err)), -ENOENT);
	assert_non_null(strstr(t->err, "/none"));
}

/* Take the --dsn lock of DSN into L; the result. */
static int lock_dsn(struct tmp *t, const char *dsn, struct lock *l)
{
	struct server s = { .external = true, .dsn = dsn };

	return lock_cluster(&s, "eicbench sweep --dsn ...", l, t->err, sizeof(t->err));
}

static void dsn_server(void **state)
{
	struct tmp *t = *state;
	struct lock a = LOCK_INIT, b = LOCK_INIT;
	struct stat st;

	unsetenv("PGHOST");
	unsetenv("PGPORT");
	assert_int_equal(lock_dsn(t, "host=/tmp/x port=5433 dbname=a user=u password=hunter22", &a), 0);
	assert_int_equal(strncmp(a.path, t->state, strlen(t->state)), 0);
	assert_int_equal(stat(t->state, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* the same server in another form, database, user and password */
	assert_int_equal(dsn_in_child(t, "postgresql://v:secret2@%2Ftmp%2Fx:5433/b"), -EBUSY);
	assert_non_null(strstr(t->err, "the server of --dsn 'postgresql://v@%2Ftmp%2Fx:5433/b' is in use: held by pid"));
	assert_null(strstr(t->err, "secret2"));
	assert_null(strstr(t->err, "hunter22"));
	/* another port is another server */
	assert_int_equal(lock_dsn(t, "host=/tmp/x port=5434 dbname=a", &b), 0);
	lock_release(&b);
	/* the environment is where libpq looks for what the string leaves out */
	setenv("PGHOST", "/tmp/x", 1);
	setenv("PGPORT", "5433", 1);
	assert_int_equal(dsn_in_child(t, "dbname=c"), -EBUSY);
	assert_int_equal(dsn_in_child(t, "c"), -EBUSY);		/* a bare database name */
	unsetenv("PGHOST");
	unsetenv("PGPORT");
	lock_release(&a);
	assert_int_equal(lock_dsn(t, "port=5433 host=/tmp/x", &b), 0);
	lock_release(&b);
}

/* As root, a lock file in another user's folder is that user's. */
static void root_gives_file_to_owner(void **state)
{
	struct tmp *t = *state;
	struct lock l = LOCK_INIT;
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct stat st;

	if (geteuid() != 0)
		skip();
	snprintf(dir, sizeof(dir), "%s/owned", t->dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chown(dir, 65534, 65534), 0);
	assert_int_equal(lock_folder(dir, "root", &l, t->err, sizeof(t->err)), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_LOCK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 65534);
	assert_int_equal(st.st_gid, 65534);
	lock_release(&l);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(take_refuse_release_retake),
		T(registry_grants_held),
		T(symlink_not_followed),
		T(killed_holder),
		T(exec_does_not_inherit),
		T(managed_cluster),
		T(dsn_server),
		T(root_gives_file_to_owner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
