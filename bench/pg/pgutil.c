/*
 * pgutil: libpq helpers; see pgutil.h.
 */
#include "bench/pg/pgutil.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "bench/pg/sqltext.h"

static void set_err(PGconn *c, const PGresult *r, const char *sql, char *err,
		    size_t errlen)
{
	const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
	size_t n = strcspn(sql, "\n");

	snprintf(err, errlen, "%s(while running: %.*s%s)", m && *m ? m : "no result\n",
		 (int)(n > 120 ? 120 : n), sql, n > 120 || sql[n] ? " ..." : "");
}

PGresult *pgutil_query(PGconn *c, const char *sql, int nparams,
		       const char *const *params, char *err, size_t errlen)
{
	PGresult *r = PQexecParams(c, sql, nparams, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(r);

	if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK)
		return r;
	set_err(c, r, sql, err, errlen);
	PQclear(r);
	return NULL;
}

int pgutil_exec(PGconn *c, const char *sql, int nparams,
		const char *const *params, char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql, nparams, params, err, errlen);

	if (!r)
		return -EIO;
	PQclear(r);
	return 0;
}

int pgutil_exec_file(PGconn *c, const char *name, char *err, size_t errlen)
{
	const char *text = sql_text(name);
	char stmt[8192];
	size_t pos = 0;
	int n;

	if (!text) {
		snprintf(err, errlen, "no SQL file sql/%s in this build", name);
		return -EINVAL;
	}
	while ((n = sql_next_statement(text, &pos, stmt, sizeof(stmt))) > 0)
		if (pgutil_exec(c, stmt, 0, NULL, err, errlen) < 0)
			return -EIO;
	if (n < 0) {
		snprintf(err, errlen, "a statement in sql/%s is longer than %zu bytes", name, sizeof(stmt));
		return -EINVAL;
	}
	return 0;
}

int pgutil_ensure_db(PGconn *c, const char *name, char *err, size_t errlen)
{
	const char *p[] = { name };
	char sql[256];
	PGresult *r;
	int found;

	r = pgutil_query(c, sql_text("server/db_exists.sql"), 1, p, err, errlen);
	if (!r)
		return -EIO;
	found = PQntuples(r) > 0;
	PQclear(r);
	if (found)
		return 0;
	/* CREATE DATABASE takes no parameters; NAME is the suite's own constant. */
	snprintf(sql, sizeof(sql), sql_text("server/create_db.sql"), name);
	return pgutil_exec(c, sql, 0, NULL, err, errlen);
}

/* The length of libpq's message M without its closing newline. */
static int text_len(const char *m)
{
	size_t n = strlen(m);

	while (n > 0 && m[n - 1] == '\n')
		n--;
	return (int)n;
}

static bool result_ok(const PGresult *r)
{
	return PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
}

/* Wait for C's results, cancelling its query when *STOP rises; into *OUT
 * the first that failed, else the first (the rest read and dropped: a text
 * of several statements fails when any of them does). true when cancelled. */
static bool wait_result(PGconn *c, const volatile sig_atomic_t *stop, PGresult **out)
{
	bool cancelled = false;

	for (;;) {
		struct pollfd p = { .fd = PQsocket(c), .events = POLLIN };

		poll(&p, 1, 100);
		if (!PQconsumeInput(c) || !PQisBusy(c))
			break;
		if (stop && *stop && !cancelled) {
			PGcancel *cn = PQgetCancel(c);
			char m[128];

			PQcancel(cn, m, sizeof(m));
			PQfreeCancel(cn);
			cancelled = true;
		}
	}
	*out = PQgetResult(c);
	for (PGresult *r; (r = PQgetResult(c)) != NULL;) {
		if (*out && result_ok(*out) && !result_ok(r)) {
			PQclear(*out);
			*out = r;
		} else
			PQclear(r);
	}
	return cancelled || (stop && *stop);
}

int pgutil_exec_cancellable(PGconn *c, const char *sql, const volatile sig_atomic_t *stop,
			    char *err, size_t errlen)
{
	PGresult *r = NULL;
	int ret = 0;

	if (!PQsendQuery(c, sql)) {
		snprintf(err, errlen, "cannot send %s: %s", sql, PQerrorMessage(c));
		return -EIO;
	}
	if (wait_result(c, stop, &r)) {
		snprintf(err, errlen, "interrupted");
		ret = -EINTR;
	} else if (!result_ok(r)) {
		snprintf(err, errlen, "%.*s", text_len(PQresultErrorMessage(r)), PQresultErrorMessage(r));
		ret = -EIO;
	}
	PQclear(r);
	return ret;
}

int pgutil_query_cancellable(PGconn *c, const char *sql, const volatile sig_atomic_t *stop,
			     PGresult **out, char *err, size_t errlen)
{

	if (!PQsendQuery(c, sql)) {
		snprintf(err, errlen, "cannot send the query: %s", PQerrorMessage(c));
		return -EIO;
	}
	if (wait_result(c, stop, out)) {
		PQclear(*out);
		*out = NULL;
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	if (PQresultStatus(*out) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "the query failed: %.*s", text_len(PQresultErrorMessage(*out)),
			 PQresultErrorMessage(*out));
		PQclear(*out);
		*out = NULL;
		return -EIO;
	}
	return 0;
}

