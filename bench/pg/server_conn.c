/*
 * server_conn: connections to the server: the managed cluster through the
 * Unix socket in its data directory as the superuser, a --dsn server
 * through its connection string (libpq and the PG* variables fill in what
 * it leaves out); a ping for readiness. "eicbench" is only the fallback
 * application name: the connection string's and PGAPPNAME win. libpq's
 * messages pass through the redactor before they reach ERR (they may echo
 * a connection string).
 */
#include "bench/pg/server_priv.h"

#include <errno.h>
#include <stdio.h>

#include "bench/cli/redact.h"
#include "bench/record/record.h"
#include "io/clock.h"

static const char *const conn_keys[] = { "host", "port", "user", "dbname",
	"fallback_application_name", "connect_timeout", NULL };

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

PGPing server_ping(const struct server *s)
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
		const char *ek[] = { "dbname", "dbname", "fallback_application_name", NULL };
		const char *ev[] = { s->dsn, dbname, "eicbench", NULL };

		if (!dbname)
			ek[1] = "fallback_application_name", ek[2] = NULL, ev[1] = "eicbench";
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
			redact_message(PQerrorMessage(c), s->external ? s->dsn : NULL, said, sizeof(said));
		snprintf(err, errlen, "cannot connect: %s", said);
	}
	PQfinish(c);
	return NULL;
}

int server_major_of(const struct server *s)
{
	char err[256];
	PGconn *c;
	int v;

	if (!s->external)
		return (v = server_bin_version(s)) > 0 ? v / 10000 : 0;
	if (!(c = server_connect(s, NULL, err, sizeof(err))))
		return 0;
	v = PQstatus(c) == CONNECTION_OK ? PQserverVersion(c) / 10000 : 0;
	PQfinish(c);
	return v;
}
