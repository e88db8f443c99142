/*
 * cmd_server: "eicbench server VERB": init, start, stop, restart, status and
 * cold for the managed cluster; status and cold also for a --dsn server.
 * Prints what each step did and how long it took.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/pg/settings.h"
#include "bench/pg/lock.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/pg/pgbin.h"
#include "bench/pg/server.h"
#include "bench/pg/serverinfo.h"
#include "io/clock.h"

struct server_opts {
	struct server_cfg srv;
	const char *checksums;
	bool json;
};

static const struct opt_desc server_table[] = {
	SERVER_OPTS(struct server_opts, srv),
	{ "checksums", OPT_STR, offsetof(struct server_opts, checksums), 0, 0, "on|off",
	  "the version's", "data checksums (init only; initdb's default is on from PostgreSQL 18, off before)" },
	{ "json", OPT_FLAG, offsetof(struct server_opts, json), 0, 0, NULL, NULL,
	  "print the result as one JSON object (status, cold)" },
	{ 0 }
};

#define USAGE "eicbench server init|start|stop|restart|status|cold [--datadir DIR] [options]"

void cmd_server_said_init(const struct server *s, const char *listen)
{
	char version[32];

	pgbin_version_str(server_bin_version(s), version, sizeof(version));
	printf("initialized %s (PostgreSQL %s, data checksums %s, server user %s, binaries %s, socket %s/.s.PGSQL.%d, %s)\n",
	       s->datadir, version, server_checksums(s) == 1 ? "on" : "off",
	       s->user, s->bindir, s->datadir, s->port,
	       listen ? "TCP as given by --listen" : "no TCP");
}

void cmd_server_said_start(const struct server *s, double ready_ms)
{
	printf("running: pid %d, ready after %.0f ms; connect with: psql -h %s -p %d -U %s %s\n",
	       (int)server_running_pid(s), ready_ms, s->datadir,
	       s->port, SERVER_SUPERUSER, SERVER_DBNAME);
}

static int do_init(struct server *s, const struct server_opts *o, char *err, size_t len)
{
	struct server_init_opts io = { .listen = o->srv.listen, .checksums = o->checksums };
	int ret = server_init(s, &io, err, len);

	if (ret == 0)
		cmd_server_said_init(s, o->srv.listen);
	return ret;
}

static int do_start(struct server *s, char *err, size_t len)
{
	double t0 = clock_now_ms();
	int ret = server_start(s, err, len);

	if (ret == 0)
		cmd_server_said_start(s, clock_now_ms() - t0);
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

/* The running server's facts (serverinfo), or NULL when it does not answer. */
static json_t *running_info(const struct server *s, pid_t pid)
{
	char err[1024];
	PGconn *c;
	json_t *info;

	if (!pid)
		return NULL;
	c = server_connect(s, "postgres", err, sizeof(err));
	if (!c)
		return NULL;
	info = serverinfo_read(c, err, sizeof(err));
	PQfinish(c);
	return info;
}

static json_t *checksums_json(int checksums)
{
	return checksums < 0 ? json_null() : json_boolean(checksums);
}

static void print_status_json(const struct server *s, pid_t pid, double free_gb,
			      int version, int checksums, json_t *info)
{
	char vstr[32] = "";
	json_t *j;
	char *text;

	if (version > 0)
		pgbin_version_str(version, vstr, sizeof(vstr));
	j = json_pack("{s:s, s:b, s:b, s:i, s:i, s:s, s:s, s:f, s:s, s:o, s:o}",
		      "datadir", s->datadir, "managed", server_is_managed(s),
		      "running", pid != 0, "pid", (int)pid, "port", s->port,
		      "user", s->user, "bindir", s->bindir, "free_gib", free_gb,
		      "version", vstr, "data_checksums", checksums_json(checksums),
		      "server", info ? json_incref(info) : json_null());
	text = json_dumps(j, JSON_COMPACT);
	printf("%s\n", text ? text : "{}");
	free(text);
	json_decref(j);
}

static void print_io(json_t *info)
{
	json_t *m = json_object_get(info, "io_method");

	if (!json_is_string(m))
		return;
	printf("io        io_method %s", json_string_value(m));
	if (!strcmp(json_string_value(m), "worker"))
		printf(" (%lld workers)", json_integer_value(json_object_get(info, "io_workers")));
	printf(", io_combine_limit %s, io_max_concurrency %lld\n",
	       json_string_value(json_object_get(info, "io_combine_limit")) ?: "?",
	       json_integer_value(json_object_get(info, "io_max_concurrency")));
}

static void print_status(const struct server *s, bool json)
{
	pid_t pid = server_running_pid(s);
	bool managed = server_is_managed(s);
	int version = server_bin_version(s), checksums = managed ? server_checksums(s) : -ENOENT;
	json_t *info = running_info(s, pid);
	struct statvfs vfs;
	double free_gb = -1;
	char vstr[32] = "?";

	if (statvfs(s->datadir, &vfs) == 0)
		free_gb = (double)vfs.f_bavail * vfs.f_frsize / (1 << 30);
	if (json) {
		print_status_json(s, pid, free_gb, version, checksums, info);
		json_decref(info);
		return;
	}
	if (version > 0)
		pgbin_version_str(version, vstr, sizeof(vstr));
	printf("datadir   %s (%s)\n", s->datadir,
	       managed ? "managed by eicbench" : "no eicbench cluster here");
	printf("server    %s", pid ? "running" : "stopped");
	if (pid)
		printf(", pid %d", (int)pid);
	printf("\nversion   PostgreSQL %s", vstr);
	if (checksums >= 0)
		printf(", data checksums %s", checksums ? "on" : "off");
	printf("\n");
	print_io(info);
	printf("socket    %s/.s.PGSQL.%d\n", s->datadir, s->port);
	printf("user      %s\nbinaries  %s\nfree      %.1f GiB on the data directory's file system\n",
	       s->user, s->bindir, free_gb);
	json_decref(info);
}

static int status_external(struct server *s, bool json)
{
	char err[1024];
	PGconn *c = server_connect(s, NULL, err, sizeof(err));
	json_t *info, *j;
	char *text;

	if (!c)
		return cmd_fail("server status", -EIO, err);
	info = serverinfo_read(c, err, sizeof(err));
	if (!json) {
		printf("external server: accepting connections, version %d\n", PQserverVersion(c));
		print_io(info);
	} else {
		j = json_pack("{s:b, s:b, s:i, s:o}", "external", 1, "running", 1,
			      "server_version", PQserverVersion(c),
			      "server", info ? json_incref(info) : json_null());
		text = json_dumps(j, JSON_COMPACT);
		printf("%s\n", text ? text : "{}");
		free(text);
		json_decref(j);
	}
	json_decref(info);
	PQfinish(c);
	return 0;
}

static int dispatch(const char *verb, struct server *s, const struct server_opts *o)
{
	char err[4096] = "";
	struct cold_times t;
	int ret;

	if (o->checksums && strcmp(verb, "init")) {
		fprintf(stderr, "eicbench server %s: --checksums is chosen at init; a cluster keeps what init gave it\n", verb);
		return EXIT_BAD_INPUT;
	}
	/* init too: a cluster there already (PG_VERSION) is another command's
	 * while it holds it; a new one needs no lock until initdb made it */
	if (strcmp(verb, "status") && (ret = lock_hold_cluster(s, err, sizeof(err))) < 0)
		return cmd_fail("server", ret, err);
	if (!strcmp(verb, "init")) {
		ret = do_init(s, o, err, sizeof(err));
		if (ret == 0)
			ret = lock_hold_cluster(s, err, sizeof(err));	/* for what init goes on to do */
	} else if (!strcmp(verb, "start")) {
		/* first: a value a killed command left may keep it from starting */
		if (settings_recover_running("server", s) < 0)
			return EXIT_RUN_FAILED;
		ret = do_start(s, err, sizeof(err));
	} else if (!strcmp(verb, "stop")) {
		if (settings_recover_running("server", s) < 0)
			return EXIT_RUN_FAILED;
		ret = do_stop(s, err, sizeof(err));
	} else if (!strcmp(verb, "restart")) {
		if (settings_recover_running("server", s) < 0)
			return EXIT_RUN_FAILED;
		ret = do_stop(s, err, sizeof(err));
		if (ret == 0)
			ret = do_start(s, err, sizeof(err));
	} else if (!strcmp(verb, "status")) {
		if (s->external)
			return status_external(s, o->json);
		print_status(s, o->json);
		return 0;
	} else {
		if (settings_recover_running("server", s) < 0)
			return EXIT_RUN_FAILED;
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
	if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h") || !strcmp(argv[0], "-?")) {
		opts_usage(argc < 1 ? stderr : stdout, USAGE, server_table);
		return argc < 1 ? EXIT_BAD_INPUT : 0;
	}
	for (i = 0; verbs[i] && strcmp(verbs[i], argv[0]); i++)
		;
	if (!verbs[i]) {
		char shown[200];

		opts_escape(argv[0], shown, sizeof(shown));
		fprintf(stderr, "eicbench server: unknown action '%s'; give one of init, start, stop, restart, status, cold\n",
			shown);
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

static const struct man_form server_forms[] = { { NULL, USAGE, server_table }, { 0 } };

static const struct man_example server_examples[] = {
	{ "eicbench server init --datadir data/pg18 --pg 18",
	  "A managed cluster of PostgreSQL 18 (from the build cache: scripts/build-pg.sh 18 makes one) in data/pg18." },
	{ "eicbench server cold --datadir data/pg",
	  "Stop, sync, drop the page cache, start, and print each step's time." },
	{ "eicbench server status --datadir data/pg --json",
	  "The version, checksums, io settings and free space, as JSON." },
	{ 0 }
};

const struct man_page cmd_server_page = {
	.name = "server",
	.summary = "the managed cluster: init, start, stop, restart, status, cold",
	.forms = server_forms,
	.description =
	"The managed cluster, eicbench's embedded default: made with the installed PostgreSQL binaries (or those of --pg MAJOR from the build cache, or --pgbin) in a data directory you name, on the device under test. It listens on a Unix socket inside its own data directory (mode 0700) and on no TCP address unless --listen is given. Run as root, the server runs as --user (postgres).\n\n"
	"init makes it; start, stop and restart do what they say; status shows the version, data checksums and, on 18, how it reads (io_method, io_workers, io_combine_limit); cold stops it (fast shutdown), syncs, drops the page cache (drop_caches as root, else POSIX_FADV_DONTNEED on every file of the cluster), starts it and polls readiness every 5 ms.\n\n"
	"An existing server is used with --dsn. eicbench never restarts a server it did not start, and never drops caches for one, unless --restart-cmd gives the command that restarts it (run as a list of words, never through a shell). One command at a time holds a cluster: a second is refused with exit status 2, naming the holder.",
	.examples = server_examples,
	.files = "DATADIR/eicbench.json\tthe cluster's marker: version, binaries, checksums\n"
		 "DATADIR/eicbench.lock\tthe cluster's lock: who holds it (pid, command, since)",
	.see_also = "load sweep run",
	.guide = "eicbench server",
};
