/*
 * emulate: the emulator's life: the paths checked, the session made and
 * mounted (allow_other and default_permissions, so the server's user
 * reaches it and the kernel checks permissions), the kernel's readahead
 * set, the state file beside the mount written, the FUSE loop served by
 * its worker threads until a signal says stop, then unmounted and the last
 * counters written. Signals are taken by one thread with sigwait; the
 * others block them.
 */
#include "io/emulate/emu_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/errmsg.h"

#define DEFAULT_THREADS 16

void emulate_state_path(const char *mount, char *out, size_t len)
{
	size_t n = strlen(mount);

	while (n > 1 && mount[n - 1] == '/')
		n--;
	snprintf(out, len, "%.*s%s", (int)n, mount, EMULATE_STATE_SUFFIX);
}

/* ---- the paths ---- */

static bool is_empty_dir(const char *path)
{
	struct dirent *d;
	DIR *dp = opendir(path);
	bool empty = dp != NULL;

	while (dp && (d = readdir(dp)) != NULL)
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			empty = false;
	if (dp)
		closedir(dp);
	return empty;
}

/* Is A equal to B or inside it? */
static bool within(const char *a, const char *b)
{
	size_t n = strlen(b);

	return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/'));
}

int emulate_check_paths(const char *backing_given, const char *mount_given,
			char *backing, char *mount, size_t len, char *err, size_t errlen)
{
	struct stat b, m, parent;
	char up[PATH_MAX];

	if (!backing_given || stat(backing_given, &b) < 0 || !S_ISDIR(b.st_mode) ||
	    !realpath(backing_given, backing))
		return errmsg_set(err, errlen, -EINVAL, "--backing '%s': %s; give an existing folder whose files the emulated device serves",
				  backing_given ? backing_given : "", !backing_given ? "missing" :
				  stat(backing_given, &b) < 0 ? strerror(errno) : "not a folder");
	if (!mount_given || stat(mount_given, &m) < 0 || !S_ISDIR(m.st_mode) ||
	    !realpath(mount_given, mount))
		return errmsg_set(err, errlen, -EINVAL, "--mount '%s': %s; give an empty folder to mount the emulated device on",
				  mount_given ? mount_given : "", !mount_given ? "missing" :
				  stat(mount_given, &m) < 0 ? strerror(errno) : "not a folder");
	snprintf(up, sizeof(up), "%s/..", mount);
	if (stat(up, &parent) == 0 && parent.st_dev != m.st_dev)
		return errmsg_set(err, errlen, -EINVAL, "--mount '%s': something is mounted there already (unmount it first: umount %s, or fusermount3 -u %s)",
				  mount_given, mount, mount);
	if (!is_empty_dir(mount))
		return errmsg_set(err, errlen, -EINVAL, "--mount '%s': the folder is not empty; give an empty folder",
				  mount_given);
	if (within(mount, backing) || within(backing, mount))
		return errmsg_set(err, errlen, -EINVAL, "--mount '%s' and --backing '%s' overlap; give a mount point outside the backing folder",
				  mount_given, backing_given);
	(void)len;
	return 0;
}

/* ---- the model in words and as JSON ---- */

static void bytes_words(uint64_t b, char *out, size_t len)
{
	if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
		snprintf(out, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(out, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(out, len, "%llu bytes", (unsigned long long)b);
}

void emulate_describe(const struct model_cfg *m, uint64_t ra, char *out, size_t len)
{
	char stripe[32], rab[32], bw[48] = "no bandwidth limit";
	size_t n;

	bytes_words(m->stripe_bytes, stripe, sizeof(stripe));
	bytes_words(ra, rab, sizeof(rab));
	if (m->bandwidth_bps)
		snprintf(bw, sizeof(bw), "%.0f MB/s per member", (double)m->bandwidth_bps / 1e6);
	n = (size_t)snprintf(out, len, "latency %g ms", (double)m->latency_ns / 1e6);
	if (m->jitter > 0 && n < len)
		n += (size_t)snprintf(out + n, len - n, " ± %g%%", m->jitter * 100);
	if (n < len)
		n += (size_t)snprintf(out + n, len - n, ", %u at once per member", m->parallel);
	if (m->members > 1 && n < len)
		n += (size_t)snprintf(out + n, len - n, ", %u members %s in %s stripes", m->members,
				      m->layout == MODEL_RAID10 ? "raid10" : "raid0", stripe);
	if (n < len)
		snprintf(out + n, len - n, ", %s, read-ahead %s", bw, ra ? rab : "off");
}

json_t *emulate_model_json(const struct emulate_cfg *cfg)
{
	const struct model_cfg *m = &cfg->model;
	char words[256];

	emulate_describe(m, cfg->read_ahead_bytes, words, sizeof(words));
	return json_pack("{s:s, s:f, s:f, s:i, s:i, s:s, s:I, s:I, s:I, s:I, s:s, s:s, s:s, s:{s:i, s:i, s:i}}",
			 "kind", "emulated", "latency_ms", (double)m->latency_ns / 1e6,
			 "jitter", m->jitter, "parallel", (int)m->parallel, "members", (int)m->members,
			 "layout", m->layout == MODEL_RAID10 ? "raid10" : "raid0",
			 "stripe_bytes", (json_int_t)m->stripe_bytes,
			 "bandwidth_bytes_per_s", (json_int_t)m->bandwidth_bps,
			 "read_ahead_kb", (json_int_t)(cfg->read_ahead_bytes / 1024),
			 "seed", (json_int_t)m->seed, "summary", words,
			 "backing", cfg->backing, "mount", cfg->mount,
			 "fuse", "max_background", (int)emulate_max_background(m),
			 "congestion_threshold", (int)emulate_max_background(m),
			 "threads", (int)(cfg->threads ? cfg->threads : DEFAULT_THREADS));
}

/* ---- the state file beside the mount ---- */

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Write the state file atomically: STATE "running" or "stopped". */
static int write_state(struct emu *e, const char *state, const char *started)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], *counters = ctl_counters_text(e), stamp[32];
	json_t *j = json_loads(e->model_text, 0, NULL), *o;
	int rc;

	utc_now(stamp, sizeof(stamp));
	o = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:s?, s:o, s:o}", "mount", e->cfg->mount,
		      "backing", e->cfg->backing, "state", state, "pid", (int)getpid(),
		      "started_utc", started, "written_utc", stamp, "command_line", e->cfg->command_line,
		      "model", j ? j : json_null(),
		      "counters", counters ? json_loads(counters, 0, NULL) : json_null());
	free(counters);
	emulate_state_path(e->cfg->mount, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	rc = json_dump_file(o, tmp, JSON_INDENT(2)) == 0 && rename(tmp, path) == 0 ? 0 : -errno;
	json_decref(o);
	if (rc < 0 && e->cfg->log)
		fprintf(e->cfg->log, "emulate: cannot write %s: %s\n", path, strerror(-rc));
	return rc;
}

/* ---- signals, readahead, readiness ---- */

struct control {
	struct emu *e;
	sigset_t    set;
	char        started[32];
};

/* Set the mount's readahead once the kernel's INIT is done (it takes the
 * smaller of the default and the daemon's max_readahead otherwise). */
static void set_read_ahead(struct emu *e)
{
	char path[128], val[32];
	struct stat st;
	int fd;

	for (int i = 0; i < 2000; i++) {
		bool done;

		pthread_mutex_lock(&e->lock);
		done = e->initialized;
		pthread_mutex_unlock(&e->lock);
		if (done)
			break;
		clock_sleep_ms(1);
	}
	if (stat(e->cfg->mount, &st) < 0)
		return;
	snprintf(path, sizeof(path), "/sys/class/bdi/%u:%u/read_ahead_kb", major(st.st_dev), minor(st.st_dev));
	snprintf(val, sizeof(val), "%llu\n", (unsigned long long)(e->cfg->read_ahead_bytes / 1024));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if ((fd < 0 || write(fd, val, strlen(val)) < 0) && e->cfg->log)
		fprintf(e->cfg->log, "emulate: cannot set the mount's read-ahead in %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* Tell whoever waits for the mount (--daemon's parent) how it went, once. */
static void say_ready(struct emu *e, const char *line)
{
	if (e->cfg->ready_fd >= 0 && !e->ready_said) {
		ssize_t n = write(e->cfg->ready_fd, line, strlen(line));

		(void)n;
		close(e->cfg->ready_fd);
	}
	e->ready_said = true;
}

/* Unmount: plainly when nothing uses it, else detached (it goes when the
 * last user lets go, and is served until then). */
static void unmount(struct emu *e)
{
	if (umount2(e->cfg->mount, 0) == 0)
		return;
	if (errno == EBUSY && e->cfg->log)
		fprintf(e->cfg->log, "emulate: %s is busy; detached, and served until its last user lets go\n",
			e->cfg->mount);
	if (umount2(e->cfg->mount, MNT_DETACH) < 0 && errno != EINVAL && e->cfg->log)
		fprintf(e->cfg->log, "emulate: cannot unmount %s: %s\n", e->cfg->mount, strerror(errno));
}

static void *control_thread(void *arg)
{
	struct control *c = arg;
	int sig = 0;

	set_read_ahead(c->e);
	write_state(c->e, "running", c->started);
	say_ready(c->e, "ok\n");
	for (;;) {
		if (sigwait(&c->set, &sig) != 0)
			continue;
		if (sig == SIGUSR1) {
			write_state(c->e, "running", c->started);
			continue;
		}
		if (c->e->cfg->log)
			fprintf(c->e->cfg->log, "emulate: %s: unmounting %s\n", strsignal(sig), c->e->cfg->mount);
		unmount(c->e);
		return NULL;
	}
}

/* ---- the session ---- */

static struct fuse_session *make_session(struct emu *e, char *err, size_t errlen)
{
	char opts[256];
	const char *argv[] = { "eicbench", "-o", opts, NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, (char **)argv);
	struct fuse_session *se;

	snprintf(opts, sizeof(opts), "fsname=eicbench,subtype=eicbench,default_permissions%s",
		 geteuid() == 0 ? ",allow_other" : "");
	se = fuse_session_new(&args, &emu_ops, sizeof(emu_ops), e);
	if (!se)
		errmsg_set(err, errlen, -EIO, "cannot start a FUSE session (is /dev/fuse there, and the fuse module loaded?)");
	return se;
}

static int setup(struct emu *e, const struct emulate_cfg *cfg, char *err, size_t errlen)
{
	json_t *model;
	int rc;

	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_init(&e->nodes_lock, NULL);
	ctl_setup(e);
	rc = model_init(&e->model, &cfg->model, err, errlen);
	if (rc < 0)
		return rc;
	counters_init(&e->counters, cfg->model.members, clock_now_ns());
	model = emulate_model_json(cfg);
	e->model_text = json_dumps(model, JSON_INDENT(2));
	if (asprintf(&e->model_line, "eicbench emulated device: %s\n",
		     json_string_value(json_object_get(model, "summary"))) < 0)
		e->model_line = NULL;
	json_decref(model);
	e->root.fd = open(cfg->backing, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (e->root.fd < 0)
		return errmsg_set(err, errlen, -errno, "--backing '%s': %s", cfg->backing, strerror(errno));
	e->root.nlookup = 2;
	return serve_start(e) == 0 ? 0 : errmsg_set(err, errlen, -EAGAIN, "cannot start the completion thread");
}

static void teardown(struct emu *e)
{
	serve_stop(e);
	for (size_t b = 0; b < NODE_BUCKETS; b++)
		while (e->buckets[b]) {
			struct node *n = e->buckets[b];

			e->buckets[b] = n->next;
			close(n->fd);
			free(n);
		}
	if (e->root.fd > 0)
		close(e->root.fd);
	model_free(&e->model);
	free(e->heap);
	free(e->model_text);
	free(e->model_line);
}

static int serve_loop(struct emu *e, struct control *c, char *err, size_t errlen)
{
	struct fuse_loop_config *lc = fuse_loop_cfg_create();
	unsigned threads = e->cfg->threads ? e->cfg->threads : DEFAULT_THREADS;
	pthread_t ctl;
	int rc;

	fuse_loop_cfg_set_max_threads(lc, threads);
	fuse_loop_cfg_set_idle_threads(lc, threads);
	if (pthread_create(&ctl, NULL, control_thread, c) != 0) {
		fuse_loop_cfg_destroy(lc);
		return errmsg_set(err, errlen, -EAGAIN, "cannot start the control thread");
	}
	rc = fuse_session_loop_mt(e->se, lc);
	fuse_loop_cfg_destroy(lc);
	/* the loop ends when the kernel lets go: stop the control thread too */
	pthread_kill(ctl, SIGTERM);
	pthread_join(ctl, NULL);
	return rc < 0 ? errmsg_set(err, errlen, rc, "the FUSE loop failed: %s", strerror(-rc)) : 0;
}

int emulate_run(const struct emulate_cfg *cfg, char *err, size_t errlen)
{
	struct emu e;
	struct control c = { .e = &e };
	int rc;

	sigemptyset(&c.set);
	sigaddset(&c.set, SIGUSR1), sigaddset(&c.set, SIGTERM);
	sigaddset(&c.set, SIGINT), sigaddset(&c.set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &c.set, NULL);
	signal(SIGPIPE, SIG_IGN);
	utc_now(c.started, sizeof(c.started));
	rc = setup(&e, cfg, err, errlen);
	if (rc == 0 && !(e.se = make_session(&e, err, errlen)))
		rc = -EIO;
	if (rc == 0 && fuse_session_mount(e.se, cfg->mount) != 0)
		rc = errmsg_set(err, errlen, -EIO, "cannot mount on '%s' (as root, or with fusermount3 and user_allow_other in /etc/fuse.conf)",
				cfg->mount);
	if (rc == 0) {
		rc = serve_loop(&e, &c, err, errlen);
		fuse_session_unmount(e.se);
	}
	if (e.se)
		fuse_session_destroy(e.se);
	serve_stop(&e);
	if (e.model_text)
		write_state(&e, rc == 0 ? "stopped" : "failed", c.started);
	if (rc < 0) {
		char line[1100];

		snprintf(line, sizeof(line), "%s\n", err);
		say_ready(&e, line);
	}
	teardown(&e);
	return rc;
}
