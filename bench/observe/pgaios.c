/*
 * pgaios: the pg_aios sampling thread, its samples and their summary; see
 * pgaios.h. The thread is an io/ticker.h one (a stop wakes it at once); it
 * runs each sample's query asynchronously, looking at the stop flag every
 * few ms and giving up after QUERY_LIMIT_MS.
 */
#include "bench/observe/pgaios.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/redact.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/record.h"
#include "io/clock.h"

#define QUERY_LIMIT_MS 2000    /* the server's statement_timeout is 1 s */
#define POLL_SLICE_MS  5

static const char *const state_names[PGAIOS_NSTATES] = {
	[PGAIOS_HANDED_OUT] = "HANDED_OUT",
	[PGAIOS_DEFINED] = "DEFINED",
	[PGAIOS_STAGED] = "STAGED",
	[PGAIOS_SUBMITTED] = "SUBMITTED",
	[PGAIOS_COMPLETED_IO] = "COMPLETED_IO",
	[PGAIOS_COMPLETED_SHARED] = "COMPLETED_SHARED",
	[PGAIOS_COMPLETED_LOCAL] = "COMPLETED_LOCAL",
	[PGAIOS_OTHER] = "OTHER",
};

enum pgaios_state pgaios_state_of(const char *name)
{
	for (int s = 0; s < PGAIOS_OTHER; s++)
		if (!strcmp(name, state_names[s]))
			return (enum pgaios_state)s;
	return PGAIOS_OTHER;
}

const char *pgaios_state_name(enum pgaios_state s)
{
	return s >= 0 && s < PGAIOS_NSTATES ? state_names[s] : "OTHER";
}

/* ---- samples ---- */

static struct pgaios_sample *new_sample(struct pgaios *a)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		void *p = realloc(a->samples, cap * sizeof(*a->samples));

		if (!p)
			return NULL;
		a->samples = p;
		a->cap = cap;
	}
	memset(&a->samples[a->n], 0, sizeof(a->samples[0]));
	return &a->samples[a->n];
}

int pgaios_add_sample(struct pgaios *a, uint64_t t_ns, const PGresult *r)
{
	int st = PQfnumber(r, "state"), len = PQfnumber(r, "length");
	struct pgaios_sample *x;

	if (st < 0 || len < 0)
		return -EPROTO;
	if (!(x = new_sample(a)))
		return -ENOMEM;
	x->t_ns = t_ns;
	for (int i = 0; i < PQntuples(r); i++) {
		enum pgaios_state s = pgaios_state_of(PQgetvalue(r, i, st));

		x->handles[s]++;
		if (s == PGAIOS_SUBMITTED && !PQgetisnull(r, i, len))
			x->bytes_in_flight += strtoull(PQgetvalue(r, i, len), NULL, 10);
	}
	if (a->n && t_ns - a->samples[a->n - 1].t_ns > a->max_gap_ns)
		a->max_gap_ns = t_ns - a->samples[a->n - 1].t_ns;
	a->n++;
	return 0;
}

/* ---- the thread ---- */

/* Wait for the query's result, bounded, giving up when stopped. */
static int await_result(struct pgaios *a, PGresult **out, char *err, size_t errlen)
{
	double deadline = clock_now_ms() + QUERY_LIMIT_MS;

	while (PQisBusy(a->conn)) {
		struct pollfd p = { .fd = PQsocket(a->conn), .events = POLLIN };

		poll(&p, 1, POLL_SLICE_MS);
		if (!PQconsumeInput(a->conn)) {
			snprintf(err, errlen, "pg_aios: %s", PQerrorMessage(a->conn));
			return -EIO;
		}
		if (ticker_stopping(&a->ticker))
			return -EINTR;
		if (clock_now_ms() > deadline) {
			snprintf(err, errlen, "pg_aios: no answer within %d ms", QUERY_LIMIT_MS);
			return -ETIMEDOUT;
		}
	}
	*out = PQgetResult(a->conn);
	for (PGresult *r; (r = PQgetResult(a->conn)) != NULL;)
		PQclear(r);
	return 0;
}

/* One sample: the query, its round trip, the rows. */
static int sample_once(struct pgaios *a, char *err, size_t errlen)
{
	char pid[16];
	const char *p[] = { a->cfg.pid > 0 ? pid : NULL };
	uint64_t t0 = clock_now_ns(), t1;
	PGresult *r = NULL;
	int ret;

	snprintf(pid, sizeof(pid), "%d", (int)a->cfg.pid);
	if (!PQsendQueryParams(a->conn, sql_text("pgstats/aios.sql"), 1, NULL, p, NULL, NULL, 0)) {
		snprintf(err, errlen, "pg_aios: %s", PQerrorMessage(a->conn));
		return -EIO;
	}
	if ((ret = await_result(a, &r, err, errlen)) < 0)
		return ret;
	t1 = clock_now_ns();
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "pg_aios: %s", PQresultErrorMessage(r));
		ret = PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE) ?: "", "42501")
			? -EACCES : -EIO;
	} else {
		ret = pgaios_add_sample(a, t0 + (t1 - t0) / 2, r);
		if (t1 - t0 > a->max_query_ns)
			a->max_query_ns = t1 - t0;
	}
	PQclear(r);
	return ret;
}

/* One tick of the thread: nonzero ends it. */
static int tick(void *arg)
{
	struct pgaios *a = arg;
	int ret = sample_once(a, a->last_error, sizeof(a->last_error));

	if (ret == -EINTR)
		return ret;
	if (ret < 0)
		a->failed++;
	/* out of memory, a query still running, or no connection: the end */
	if (ret == -ENOMEM || ret == -ETIMEDOUT || PQstatus(a->conn) != CONNECTION_OK) {
		a->error = ret < 0 ? ret : -EIO;
		return a->error;
	}
	return 0;
}

/* The thread, once the connection answered a first sample. */
static int launch(struct pgaios *a, char *err, size_t errlen)
{
	int rc = ticker_start(&a->ticker, (uint64_t)a->cfg.interval_ms * 1000000u, tick, a);

	if (rc < 0)
		snprintf(err, errlen, "cannot start the pg_aios sampler: %s", strerror(-rc));
	return rc;
}

int pgaios_start(struct pgaios *a, PGconn *conn, const struct pgaios_cfg *cfg,
		 char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	if (a->cfg.interval_ms <= 0)
		a->cfg.interval_ms = PGAIOS_DEFAULT_INTERVAL_MS;
	if (!conn)
		return -EIO;
	a->conn = conn;
	a->version_num = PQserverVersion(conn);
	ret = pgstats_need_version(a->version_num, 180000, "pg_aios", err, errlen);
	if (ret == 0)
		ret = pgutil_exec_file(conn, "pgstats/aios_session.sql", err, errlen);
	if (ret == 0)
		ret = sample_once(a, err, errlen);
	if (ret == 0)
		ret = launch(a, err, errlen);
	if (ret != 0) {
		PQfinish(a->conn);
		a->conn = NULL;
	}
	return ret;
}

int pgaios_start_server(struct pgaios *a, const struct server *srv,
			const struct pgaios_cfg *cfg, char *err, size_t errlen)
{
	return pgaios_start(a, server_connect(srv, NULL, err, errlen), cfg, err, errlen);
}

int pgaios_start_dsn(struct pgaios *a, const char *conninfo,
		     const struct pgaios_cfg *cfg, char *err, size_t errlen)
{
	/* conninfo comes after the default timeout, so its own one wins */
	const char *keys[] = { "connect_timeout", "dbname", NULL };
	const char *vals[] = { "10", conninfo, NULL };
	PGconn *c = PQconnectdbParams(keys, vals, 1);

	if (!c || PQstatus(c) != CONNECTION_OK) {
		char msg[1024] = "out of memory";

		if (c)	/* libpq may echo the connection string */
			redact_message(PQerrorMessage(c), conninfo, msg, sizeof(msg));
		snprintf(err, errlen, "cannot connect for pg_aios: %s", msg);
		PQfinish(c);
		c = NULL;
	}
	return pgaios_start(a, c, cfg, err, errlen);
}

void pgaios_stop(struct pgaios *a)
{
	ticker_stop(&a->ticker);
	PQfinish(a->conn);
	a->conn = NULL;
}

void pgaios_free(struct pgaios *a)
{
	pgaios_stop(a);
	free(a->samples);
	a->samples = NULL;
	a->n = a->cap = 0;
}

/* ---- summary and JSON ---- */

static uint32_t handles_of(const struct pgaios_sample *x)
{
	uint32_t n = 0;

	for (int s = 0; s < PGAIOS_NSTATES; s++)
		n += x->handles[s];
	return n;
}

/* The last sample at or before T (T is at or after the first). */
static size_t at(const struct pgaios *a, uint64_t t)
{
	size_t lo = 0, hi = a->n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (a->samples[mid].t_ns <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Sample K's values, weighted by W ns, into the sums of OUT. */
static void add_weighted(struct pgaios_summary *out, double sums[3],
			 const struct pgaios_sample *x, double w)
{
	uint32_t inf = x->handles[PGAIOS_SUBMITTED], h = handles_of(x);

	sums[0] += w * inf;
	sums[1] += w * (double)x->bytes_in_flight;
	sums[2] += w * h;
	if (inf > 0)
		out->busy_share += w;
	if (inf > out->in_flight_max)
		out->in_flight_max = inf;
	if (x->bytes_in_flight > out->bytes_max)
		out->bytes_max = x->bytes_in_flight;
	if (h > out->handles_max)
		out->handles_max = h;
	out->samples++;
}

int pgaios_summarize(const struct pgaios *a, uint64_t t0, uint64_t t1,
		     struct pgaios_summary *out)
{
	double sums[3] = { 0 }, span;
	size_t k0, k1;

	memset(out, 0, sizeof(*out));
	if (a->n == 0)
		return -ENOENT;
	if (t0 < a->samples[0].t_ns)
		t0 = a->samples[0].t_ns;
	if (t1 > a->samples[a->n - 1].t_ns)
		t1 = a->samples[a->n - 1].t_ns;
	if (t1 < t0)
		return -ERANGE;
	k0 = at(a, t0);
	k1 = at(a, t1);
	span = (double)(t1 - t0);
	for (size_t k = k0; k <= k1; k++) {
		uint64_t from = k == k0 ? t0 : a->samples[k].t_ns;
		uint64_t to = k == k1 ? t1 : a->samples[k + 1].t_ns;

		add_weighted(out, sums, &a->samples[k], span > 0 ? (double)(to - from) / span : 1.0);
	}
	out->span_ms = span / 1e6;
	out->in_flight_mean = sums[0];
	out->bytes_mean = sums[1];
	out->handles_mean = sums[2];
	return 0;
}

json_t *pgaios_summary_json(const struct pgaios_summary *s)
{
	return json_pack("{s:I, s:f, s:f, s:I, s:f, s:I, s:f, s:I, s:f}",
			 "samples", (json_int_t)s->samples, "span_ms", s->span_ms,
			 "in_flight_mean", s->in_flight_mean, "in_flight_max", (json_int_t)s->in_flight_max,
			 "bytes_in_flight_mean", s->bytes_mean, "bytes_in_flight_max", (json_int_t)s->bytes_max,
			 "handles_mean", s->handles_mean, "handles_max", (json_int_t)s->handles_max,
			 "busy_share", s->busy_share);
}

json_t *pgaios_window_json(const struct pgaios *a, uint64_t t0, uint64_t t1)
{
	struct pgaios_summary s;

	if (pgaios_summarize(a, t0, t1, &s) < 0)
		return json_null();
	return pgaios_summary_json(&s);
}

static json_t *timeline_json(const struct pgaios *a, uint64_t zero_ns)
{
	json_t *t = json_array(), *inf = json_array(), *bytes = json_array(), *h = json_object();

	for (size_t k = 0; k < a->n; k++) {
		const struct pgaios_sample *x = &a->samples[k];

		json_array_append_new(t, json_real(((double)x->t_ns - (double)zero_ns) / 1e6));
		json_array_append_new(inf, json_integer(x->handles[PGAIOS_SUBMITTED]));
		json_array_append_new(bytes, json_integer((json_int_t)x->bytes_in_flight));
	}
	for (int s = 0; s < PGAIOS_NSTATES; s++) {
		json_t *c = json_array();
		bool seen = false;

		for (size_t k = 0; k < a->n; k++) {
			seen |= a->samples[k].handles[s] > 0;
			json_array_append_new(c, json_integer(a->samples[k].handles[s]));
		}
		if (seen)
			json_object_set_new(h, state_names[s], c);
		else
			json_decref(c);
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "t_ms", t, "in_flight", inf,
			 "bytes_in_flight", bytes, "handles", h);
}

json_t *pgaios_json(const struct pgaios *a, uint64_t zero_ns)
{
	return json_pack("{s:b, s:i, s:o, s:I, s:f, s:f, s:i, s:s?, s:o, s:o}",
			 "available", 1, "interval_ms", a->cfg.interval_ms,
			 "pid", a->cfg.pid > 0 ? json_integer(a->cfg.pid) : json_null(),
			 "samples", (json_int_t)a->n, "max_gap_ms", (double)a->max_gap_ns / 1e6,
			 "max_query_ms", (double)a->max_query_ns / 1e6, "failed_samples", (int)a->failed,
			 "last_error", a->failed ? a->last_error : NULL,
			 "summary", a->n ? pgaios_window_json(a, 0, UINT64_MAX) : json_null(),
			 "timeline", timeline_json(a, zero_ns));
}
