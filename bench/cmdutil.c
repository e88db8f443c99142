/*
 * cmdutil: what every command shares (see cmd.h): exit codes from -errno,
 * the message on failure, and putting back settings a command left
 * changed. In the library, so that the runner and the tests can use it.
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "bench/cmd.h"
#include "bench/lock.h"
#include "bench/record.h"
#include "bench/settings.h"

int cmd_exit_code(int ret)
{
	if (ret == 0)
		return 0;
	return ret == -EINVAL ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
}

int cmd_fail(const char *cmd, int ret, const char *msg)
{
	fprintf(stderr, "eicbench %s: %s\n", cmd, msg);
	return cmd_exit_code(ret);
}

int cmd_recover(const char *cmd, struct server *s)
{
	char err[2048];
	int said = 0;

	if (!s->external && server_running_pid(s) <= 0)
		return 0;	/* a journal is restored when the server is next started */
	if (settings_recover(s, &said, err, sizeof(err)) < 0) {
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
		return -EIO;
	}
	if (said)
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
	return 0;
}

/* ---- locks ---- */

#define LOCKS_MAX 32

static char who[1024] = "eicbench";
static struct lock locks[LOCKS_MAX];    /* held until the process ends */
static int nlocks;

void cmd_set_line(int argc, char *const argv[])
{
	if (record_redact_cmdline(argc, argv, who, sizeof(who)) < 0 && !who[0])
		snprintf(who, sizeof(who), "eicbench");
}

static int taken(int ret)
{
	if (ret == -EBUSY || ret == -ELOOP || ret == -EMLINK || ret == -EINVAL)
		return -EINVAL;
	return ret;
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

int cmd_lock_cluster(const struct server *s, char *err, size_t errlen)
{
	char version[PATH_MAX + 16];
	struct lock *l;
	int ret;

	snprintf(version, sizeof(version), "%s/PG_VERSION", s->datadir);
	if (!s->external && access(version, F_OK) < 0)
		return 0;	/* no cluster there (yet): nothing to keep from others */
	l = next_lock(err, errlen);
	ret = l ? lock_cluster(s, who, l, err, errlen) : -ENOSPC;

	if (ret == 0 && l->fd >= 0)
		nlocks++;
	return taken(ret);
}

int cmd_lock_folder(const char *dir, char *err, size_t errlen)
{
	struct lock *l = next_lock(err, errlen);
	int ret = l ? lock_folder(dir, who, l, err, errlen) : -ENOSPC;

	if (ret == 0 && l->fd >= 0)
		nlocks++;
	return taken(ret);
}

/* ---- Ctrl-C ---- */

volatile sig_atomic_t cmd_stopped;

static void on_stop(int sig)
{
	(void)sig;
	cmd_stopped = 1;
}

void cmd_catch_stop(bool restart)
{
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = restart ? SA_RESTART : 0 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
