/*
 * server_priv: what the server*.c files share and nothing else includes:
 * the names of eicbench's files in the data directory, running a tool as
 * the server's user, reading and opening files in the data directory, and
 * the steps of a start that the cold cycle reuses. Functions return 0 or
 * -errno as in server.h. The public API is bench/pg/server.h.
 */
#ifndef BENCH_PG_SERVER_PRIV_H
#define BENCH_PG_SERVER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <libpq-fe.h>

#include "bench/pg/server.h"

#define SERVER_MARKER  "eicbench.json"        /* what init chose */
#define SERVER_LOGFILE "eicbench-server.log"  /* the postmaster's output */
#define SERVER_POLL_MS 5

#define SERVER_RUN_AS_USER  1	/* as the server's user (when invoked as root) */
#define SERVER_RUN_C_LOCALE 2	/* LC_ALL=C: output in English, to be read */
#define SERVER_RUN_WHOLE_ENV 4	/* eicbench's whole environment (the user's --restart-cmd) */

/* Take on the server's user when invoked as root (else nothing). 0 or -errno. */
int server_become_user(const struct server *s);

/* Run ARGV (a path, no shell) with FLAGS, its output into OUT, bounded by
 * TIMEOUT_S. Its exit status (0..255), or -errno. */
int server_run(const struct server *s, int flags, char *const argv[],
	       char *out, size_t outlen, double timeout_s);

/* DATADIR/NAME into OUT. */
void server_dpath(const struct server *s, const char *name, char *out, size_t len);

/* The first line of the data directory's file NAME into LINE ("" if none). */
void server_datadir_line(const struct server *s, const char *name, char *line, size_t len);

/* NAME in the data directory opened without following a link, a regular
 * file with one name. The descriptor, or -errno. */
int server_open_in_datadir(const struct server *s, const char *name, int flags);

/* Does the data directory hold a cluster (PG_VERSION)? */
bool server_is_cluster(const struct server *s);

/* -EINVAL with ERR unless S is a cluster eicbench made (not --dsn). */
int server_managed_or_error(const struct server *s, char *err, size_t errlen);

/* PROG itself when it holds a '/', else the first executable on PATH. */
int server_find_program(const char *prog, char *out, size_t len);

/* Is PID a live process (a zombie is not)? */
bool server_pid_alive(pid_t pid);

/* Whether S accepts connections (libpq's PQpingParams; server_conn.c). */
PGPing server_ping(const struct server *s);

/* Start the postmaster detached with SETTINGS as -c options; its pid or -errno. */
pid_t server_spawn_postmaster(const struct server *s, const char *const *settings);

/* Wait until the postmaster PID just started (or one that beat it) is ready. */
int server_wait_started(const struct server *s, pid_t pid, char *err, size_t errlen);

#endif
