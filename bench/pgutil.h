/*
 * pgutil: small libpq helpers shared by the commands: run an embedded SQL
 * file statement by statement, run one statement with text parameters, and
 * fetch a single value. Errors return -EIO (or -EINVAL for a missing file)
 * and copy the server's message into ERR.
 */
#ifndef BENCH_PGUTIL_H
#define BENCH_PGUTIL_H

#include <stddef.h>

#include <libpq-fe.h>

/* Every statement of sql/NAME, each on its own (so VACUUM and ALTER SYSTEM work). */
int pgutil_exec_file(PGconn *c, const char *name, char *err, size_t errlen);

/* One statement with NPARAMS text parameters; the result is discarded. */
int pgutil_exec(PGconn *c, const char *sql, int nparams,
		const char *const *params, char *err, size_t errlen);

/* One statement whose result is wanted (tuples); NULL with ERR on error. */
PGresult *pgutil_query(PGconn *c, const char *sql, int nparams,
		       const char *const *params, char *err, size_t errlen);

/* Make sure database NAME exists (created from template0 if not). */
int pgutil_ensure_db(PGconn *c, const char *name, char *err, size_t errlen);

struct server;

/* The managed cluster started if it is not running, with the suite's
 * database made; nothing for a --dsn server. */
int pgutil_server_ready(struct server *s, char *err, size_t errlen);

#endif
