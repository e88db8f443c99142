/*
 * cmd_server: "eicbench server VERB": init, start, stop, restart, status and
 * cold for the managed cluster; status and cold also for a --dsn server.
 * Prints what each step did and how long it took.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bench/cmd.h"
#include "bench/server.h"
#include "io/clock.h"

struct server_opts {
	struct server_cfg srv;
	bool json;
};

static const struct opt_desc server_table[] = {
	SERVER_OPTS(struct server_opts, srv),
	{ "json", OPT_FLAG, offsetof(struct server_opts, json), 0, 0, NULL, NULL,
	  "print the result as one JSON object (status, cold)" },
	{ 0 }
};

#define USAGE "eicbench server init|start|stop|restart|status|cold [--datadir DIR] [options]"

static int do_init(struct server *s, const struct server_opts *o, char *err, size_t len)
{
	int ret = server_init(s, o->srv.listen, err, len);

	if (ret == 0)
		printf("initialized %s (server user %s, binaries %s, socket %s/.s.PGSQL.%d, %s)\n",
		       s->datadir, s->user, s->bindir, s->datadir, s->port,
		       o->srv.listen ? "TCP as given by --listen" : "no TCP");
	return ret;
}

static int do_start(struct server *s, char *err, size_t len)
{
	double t0 = clock_now_ms();
	int ret = server_start(s, err, len);

	if (ret == 0)
		printf("running: pid %d, ready after %.0f ms; connect with: psql -h %s -p %d -U %s %s\n",
		       (int)server_running_pid(s), clock_now_ms() - t0, s->datadir,
		       s->port, SERVER_SUPERUSER, SERVER_DBNAME);
	return ret;
}

static int do_stop(struct server *s, char *err, size_t len)
{
	double t0 = clock_now_ms();
	pid_t pid = s->external ? 0 : server_running_pid(s);
	int ret = server_stop(s, err, len);

	if (ret == 0)
		printf(pid ? "stopped (pid %d) in %.0f ms\n" : "not running\n",
		       (int)pid, clock_now_ms() - t0);
	return ret;
}

static void print_cold(const struct cold_times *t, bool json)
{
	if (json) {
		printf("{\"method\":\"%s\",\"stop_ms\":%.1f,\"sync_ms\":%.1f,\"drop_ms\":%.1f,"
		       "\"start_ms\":%.1f,\"ready_ms\":%.1f,\"total_ms\":%.1f}\n",
		       t->method, t->stop_ms, t->sync_ms, t->drop_ms, t->start_ms,
		       t->ready_ms, t->total_ms);
		return;
	}
	printf("stop      %8.1f ms\n", t->stop_ms);
	printf("sync      %8.1f ms\n", t->sync_ms);
	printf("drop      %8.1f ms  (%s%s)\n", t->drop_ms, t->method,
	       !strcmp(t->method, "fadvise") ? ": POSIX_FADV_DONTNEED on every file of the cluster" :
					       ": whole page cache, as root");
	printf("start     %8.1f ms\n", t->start_ms);
	printf("ready     %8.1f ms  (polled every 5 ms)\n", t->ready_ms);
	printf("total     %8.1f ms\n", t->total_ms);
}

static void print_status(const struct server *s, bool json)
{
	pid_t pid = server_running_pid(s);
	struct statvfs vfs;
	double free_gb = -1;

	if (statvfs(s->datadir, &vfs) == 0)
		free_gb = (double)vfs.f_bavail * vfs.f_frsize / (1 << 30);
	if (json) {
		printf("{\"datadir\":\"%s\",\"managed\":%s,\"running\":%s,\"pid\":%d,"
		       "\"port\":%d,\"user\":\"%s\",\"bindir\":\"%s\",\"free_gib\":%.1f}\n",
		       s->datadir, server_is_managed(s) ? "true" : "false",
		       pid ? "true" : "false", (int)pid, s->port, s->user, s->bindir, free_gb);
		return;
	}
	printf("datadir   %s (%s)\n", s->datadir,
	       server_is_managed(s) ? "managed by eicbench" : "no eicbench cluster here");
	printf("server    %s", pid ? "running" : "stopped");
	if (pid)
		printf(", pid %d", (int)pid);
	printf("\nsocket    %s/.s.PGSQL.%d\n", s->datadir, s->port);
	printf("user      %s\nbinaries  %s\nfree      %.1f GiB on the data directory's file system\n",
	       s->user, s->bindir, free_gb);
}

static int status_external(struct server *s, bool json)
{
	char err[1024];
	PGconn *c = server_connect(s, NULL, err, sizeof(err));

	if (!c)
		return cmd_fail("server status", -EIO, err);
	if (json)
		printf("{\"external\":true,\"running\":true,\"server_version\":%d}\n",
		       PQserverVersion(c));
	else
		printf("external server: accepting connections, version %d\n", PQserverVersion(c));
	PQfinish(c);
	return 0;
}

static int dispatch(const char *verb, struct server *s, const struct server_opts *o)
{
	char err[4096] = "";
	struct cold_times t;
	int ret;

	if (!strcmp(verb, "init"))
		ret = do_init(s, o, err, sizeof(err));
	else if (!strcmp(verb, "start"))
		ret = do_start(s, err, sizeof(err));
	else if (!strcmp(verb, "stop"))
		ret = do_stop(s, err, sizeof(err));
	else if (!strcmp(verb, "restart")) {
		ret = do_stop(s, err, sizeof(err));
		if (ret == 0)
			ret = do_start(s, err, sizeof(err));
	} else if (!strcmp(verb, "status")) {
		if (s->external)
			return status_external(s, o->json);
		print_status(s, o->json);
		return 0;
	} else {
		ret = server_cold(s, &t, err, sizeof(err));
		if (ret == 0)
			print_cold(&t, o->json);
	}
	if (ret < 0) {
		char name[32];

		snprintf(name, sizeof(name), "server %s", verb);
		return cmd_fail(name, ret, err);
	}
	return 0;
}

int cmd_server(int argc, char **argv)
{
	static const char *const verbs[] = { "init", "start", "stop", "restart",
		"status", "cold", NULL };
	struct server_opts o = { 0 };
	char err[1024];
	struct server s;
	int ret, i;

	server_cfg_defaults(&o.srv);
	if (argc < 1 || !strcmp(argv[0], "--help")) {
		opts_usage(argc < 1 ? stderr : stdout, USAGE, server_table);
		return argc < 1 ? EXIT_BAD_INPUT : 0;
	}
	for (i = 0; verbs[i] && strcmp(verbs[i], argv[0]); i++)
		;
	if (!verbs[i]) {
		fprintf(stderr, "eicbench server: unknown action '%s'; give one of init, start, stop, restart, status, cold\n",
			argv[0]);
		return EXIT_BAD_INPUT;
	}
	ret = opts_parse(server_table, &o, argc - 1, argv + 1, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, server_table);
		return 0;
	}
	if (ret < 0)
		return cmd_fail("server", ret, err);
	ret = server_resolve(&o.srv, &s, err, sizeof(err));
	if (ret < 0)
		return cmd_fail("server", ret, err);
	return dispatch(argv[0], &s, &o);
}
