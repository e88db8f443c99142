/*
 * server_conn: connections to the server: the managed cluster through the
 * Unix socket in its data directory as the superuser, a --dsn server
 * through its connection string; readiness polled every 5 ms within
 * --timeout. libpq's messages pass through the redactor before they reach
 * ERR (they may echo a connection string).
 */
#include "bench/server_priv.h"

#include <errno.h>
#include <stdio.h>

#include "bench/record.h"
#include "io/clock.h"

static const char *const conn_keys[] = { "host", "port", "user", "dbname",
	"application_name", "connect_timeout", NULL };

static void conn_values(const struct server *s, const char *db, char *port,
			const char **vals)
{
	snprintf(port, 8, "%d", s->port);
	vals[0] = s->datadir;
	vals[1] = port;
	vals[2] = SERVER_SUPERUSER;
	vals[3] = db;
	vals[4] = "eicbench";
	vals[5] = "10";
	vals[6] = NULL;
}

static PGPing ping(const struct server *s)
{
	static const char *const ext_keys[] = { "dbname", "connect_timeout", NULL };
	const char *vals[7];
	char port[8];

	if (s->external) {
		const char *ev[] = { s->dsn, "10", NULL };

		return PQpingParams(ext_keys, ev, 1);
	}
	conn_values(s, "postgres", port, vals);
	return PQpingParams(conn_keys, vals, 0);
}

int server_wait_ready(const struct server *s, pid_t pid, char *err, size_t errlen)
{
	double deadline = clock_now_ms() + s->timeout_s * 1e3;

	for (;;) {
		PGPing r = ping(s);

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

static void quiet_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

PGconn *server_connect(const struct server *s, const char *dbname,
		       char *err, size_t errlen)
{
	const char *vals[7];
	char port[8];
	PGconn *c;

	if (s->external) {
		const char *ek[] = { "dbname", "dbname", "application_name", NULL };
		const char *ev[] = { s->dsn, dbname, "eicbench", NULL };

		if (!dbname)
			ek[1] = "application_name", ek[2] = NULL, ev[1] = "eicbench";
		c = PQconnectdbParams(ek, ev, 1);
	} else {
		conn_values(s, dbname ? dbname : SERVER_DBNAME, port, vals);
		c = PQconnectdbParams(conn_keys, vals, 0);
	}
	if (c && PQstatus(c) == CONNECTION_OK) {
		PQsetNoticeProcessor(c, quiet_notice, NULL);
		return c;
	}
	{
		char said[1024] = "out of memory";

		if (c)	/* libpq may echo the connection string, secrets and all */
			record_redact_message(PQerrorMessage(c), s->external ? s->dsn : NULL, said, sizeof(said));
		snprintf(err, errlen, "cannot connect: %s", said);
	}
	PQfinish(c);
	return NULL;
}
