/*
 * pgutil: small libpq helpers shared by the commands: run an embedded SQL
 * file statement by statement, run one statement with text parameters, and
 * fetch a single value. Errors return -EIO (or -EINVAL for a missing file)
 * and copy the server's message into ERR.
 */
#ifndef BENCH_PG_PGUTIL_H
#define BENCH_PG_PGUTIL_H

#include <signal.h>
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

/*
 * Send SQL and wait for its one result, cancelling the query when *STOP
 * rises (checked every 100 ms). 0 with *OUT the tuples; -EINTR when
 * cancelled; -EIO with the server's message in ERR.
 */
int pgutil_query_cancellable(PGconn *c, const char *sql, const volatile sig_atomic_t *stop,
			     PGresult **out, char *err, size_t errlen);

/* The same for a command (VACUUM, CREATE INDEX): 0, -EINTR, -EIO. */
int pgutil_exec_cancellable(PGconn *c, const char *sql, const volatile sig_atomic_t *stop,
			    char *err, size_t errlen);

/* Make sure database NAME exists (created from template0 if not). */
int pgutil_ensure_db(PGconn *c, const char *name, char *err, size_t errlen);



#endif
