/*
 * server: the managed cluster (initdb, start, stop, status, cold cycle) and
 * the external-server mode (--dsn plus an optional --restart-cmd).
 * The managed cluster listens on a Unix socket inside its own data directory
 * (mode 0700) and on no TCP address unless --listen names one. Invoked as
 * root, the server runs as an unprivileged user (default "postgres").
 * Functions return 0, -EINVAL for bad input (exit 2), or another -errno for a
 * failed run (exit 1), and fill a caller-owned message.
 */
#ifndef BENCH_PG_SERVER_H
#define BENCH_PG_SERVER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <libpq-fe.h>

#include "bench/cli/opts.h"

#define SERVER_DEFAULT_DATADIR "data/pg"
#define SERVER_DBNAME "eicbench"
#define SERVER_SUPERUSER "postgres"

struct server_cfg {
	const char *datadir;
	const char *pgbin;
	const char *user;
	const char *listen;
	const char *dsn;
	const char *restart_cmd;
	bool        no_record_cmd;  /* --no-record-cmd: the restart command kept out of records */
	long long   port;
	long long   pg;             /* --pg MAJOR, 0 when not given */
	double      timeout_s;
};

/* Table entries for the options every server-using command shares. */
#define SERVER_OPTS(type, m)						\
	{ "datadir", OPT_STR, offsetof(type, m.datadir), 0, 0, "DIR",	\
	  SERVER_DEFAULT_DATADIR, "data directory of the managed cluster, on the device under test" }, \
	{ "pgbin", OPT_STR, offsetof(type, m.pgbin), 0, 0, "DIR",	\
	  "pg_config --bindir", "directory holding initdb and postgres" }, \
	{ "pg", OPT_INT, offsetof(type, m.pg), 10, 99, "MAJOR",		\
	  NULL, "PostgreSQL major version: its binaries from the build cache (scripts/build-pg.sh MAJOR), else /usr/lib/postgresql/MAJOR/bin" }, \
	{ "user", OPT_STR, offsetof(type, m.user), 0, 0, "NAME",	\
	  "postgres", "unprivileged user the server runs as when invoked as root" }, \
	{ "port", OPT_INT, offsetof(type, m.port), 1, 65535, "N",	\
	  "5432", "port (names the Unix socket; TCP only with --listen); set at init" }, \
	{ "listen", OPT_STR, offsetof(type, m.listen), 0, 0, "ADDRS",	\
	  "none", "TCP listen_addresses for the managed cluster; set at init" }, \
	{ "dsn", OPT_STR, offsetof(type, m.dsn), 0, 0, "CONNINFO",	\
	  NULL, "use an existing server instead of the managed cluster" }, \
	{ "restart-cmd", OPT_STR, offsetof(type, m.restart_cmd), 0, 0, "CMD", \
	  NULL, "command that restarts the --dsn server (run as argv, no shell)" }, \
	{ "no-record-cmd", OPT_FLAG, offsetof(type, m.no_record_cmd), 0, 0, NULL, \
	  NULL, "keep the --restart-cmd out of every record and message (else what looks like a secret in it is masked)" }, \
	{ "timeout", OPT_SECONDS, offsetof(type, m.timeout_s), 0, 86400, "SECS", \
	  "120s", "bound on every wait for the server (at most 24h)" }

void server_cfg_defaults(struct server_cfg *cfg);

struct server {
	char   datadir[1024];     /* absolute; "" for an external server */
	char   bindir[1024];
	char   user[64];
	uid_t  uid;
	gid_t  gid;
	bool   drop_privileges;     /* invoked as root: run tools as user */
	bool   external;
	int    port;
	double timeout_s;
	const char *dsn;            /* external only */
	char   restart_cmd[1024];   /* external only */
};

/* Check options and find binaries, user and data directory. */
int server_resolve(const struct server_cfg *cfg, struct server *s,
		   char *err, size_t errlen);

/* Is DATADIR a cluster eicbench created? 1 yes, 0 no such cluster. */
int server_is_managed(const struct server *s);

/* The TCP listen_addresses init gave the managed cluster into OUT ("" for
 * none). 0, or -ENOENT when DATADIR holds no cluster eicbench made. */
int server_listen(const struct server *s, char *out, size_t len);

/* What init chooses beyond the server_cfg. */
struct server_init_opts {
	const char *listen;         /* TCP listen_addresses, NULL for none */
	const char *checksums;      /* "on", "off", or NULL: the version's default */
};

/*
 * initdb, the private configuration and the marker (eicbench.json), which
 * records the port, user, bindir, listen addresses, the version and whether
 * data checksums are on.
 */
int server_init(struct server *s, const struct server_init_opts *io,
		char *err, size_t errlen);

/* The version number of the bindir's postgres (180006 for 18.6), or -errno. */
int server_bin_version(const struct server *s);

/*
 * Are data checksums on in the managed cluster? 1 on, 0 off, -errno when
 * unknown. The marker says; for a cluster made before it did, pg_controldata.
 */
int server_checksums(const struct server *s);

/* "Data page checksum version" of pg_controldata's TEXT: 1 on, 0 off, or -EINVAL. */
int server_parse_checksums(const char *text);
int server_start(struct server *s, char *err, size_t errlen);

/* Start with SETTINGS ("name=value", NULL-terminated) given as -c options,
 * which override postgresql.auto.conf (to repair a value that stops start). */
int server_start_with(struct server *s, const char *const *settings,
		      char *err, size_t errlen);
int server_stop(struct server *s, char *err, size_t errlen);

/* The managed server started and the suite's database made when missing
 * (a --dsn server: nothing to do). 0 or -errno with ERR. */
int server_ready_db(struct server *s, char *err, size_t errlen);

/* Stop and start the managed server, or run a --dsn server's --restart-cmd
 * (refused without one); wait until it is ready. */
int server_restart(struct server *s, char *err, size_t errlen);

/* Running postmaster's pid, 0 when stopped. */
pid_t server_running_pid(const struct server *s);

/* The server's major version: the managed cluster's binaries, or the
 * --dsn server asked (read only); 0 when it cannot be told. */
int server_major_of(const struct server *s);

/* A connection to DBNAME (NULL: the suite's database), or NULL with ERR. */
PGconn *server_connect(const struct server *s, const char *dbname,
		       char *err, size_t errlen);

/* Wait until the server accepts connections, polling every 5 ms. */
int server_wait_ready(const struct server *s, pid_t pid, char *err, size_t errlen);

struct cold_times {
	double stop_ms, sync_ms, drop_ms, start_ms, ready_ms, total_ms;
	char   method[48];          /* "drop_caches", or "fadvise" (file by file) */
	long   evicted_files;
};

/* Stop, sync, drop page caches, start, wait ready. */
int server_cold(struct server *s, struct cold_times *t, char *err, size_t errlen);

/* The managed cluster's server log (in its data directory) into BUF. */
void server_log_path(const struct server *s, char *buf, size_t len);

/* Append the last lines of the server log to ERR (after a failed start). */
void server_log_tail(const struct server *s, char *err, size_t errlen, int lines);

/* Split CMD into words (quotes group, no shell expansion). Count or -EINVAL. */
int server_split_argv(char *cmd, char **argv, int max);

/* syncfs() of the file system holding DIR. 0 or -errno. */
int server_sync_dir(const char *dir);

#endif
