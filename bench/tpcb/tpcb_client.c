/*
 * tpcb_client: the per-client state machine; see tpcb_client.h. The hot
 * path (a result in, the next statement out) reads the clock once, draws
 * the next values and sends before it counts the finished transaction, so
 * the server waits as little as possible on the client.
 */
#include "bench/tpcb/tpcb_client.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/sqltext.h"

static const char *const stmt_names[TPCB_MAX_STMTS] = {
	"tpcb_0", "tpcb_1", "tpcb_2", "tpcb_3", "tpcb_4", "tpcb_5", "tpcb_6", "tpcb_7",
};

static bool pipelined(const struct tpcb_client *c)
{
	return c->ctx->cfg->pipeline > 0;
}

static struct tpcb_tx *tx_at(struct tpcb_client *c, int i)
{
	return &c->ring[(c->head + i) % c->depth];
}

/* First line of a libpq message, without its newline. */
static void first_line(const char *msg, char *out, size_t len)
{
	size_t n = msg ? strcspn(msg, "\n") : 0;

	snprintf(out, len, "%.*s", (int)n, n ? msg : "no message");
}

static void abort_client(struct tpcb_client *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->state != TPCB_C_RUN)
		return;
	n = snprintf(c->msg, sizeof(c->msg), "client %d ", c->id);
	va_start(ap, fmt);
	vsnprintf(c->msg + n, sizeof(c->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	c->state = TPCB_C_ABORTED;
}

static void lost(struct tpcb_client *c)
{
	char line[256];

	first_line(PQerrorMessage(c->conn), line, sizeof(line));
	abort_client(c, "lost its connection: %s", line);
}

/* libpq holds what the socket did not take: wait for it to be writable. */
static void flush(struct tpcb_client *c)
{
	int r = PQflush(c->conn);

	if (r < 0)
		lost(c);
	c->want_write = r > 0;
}

/* ---- sending ------------------------------------------------------------- */

static bool send_stmt(struct tpcb_client *c, const struct tpcb_tx *tx, int k)
{
	const struct tpcb_stmt *s = &c->ctx->script->stmt[k];
	const char *vals[TPCB_NVARS];
	int ok;

	switch (c->ctx->cfg->protocol) {
	case TPCB_SIMPLE:
		tpcb_stmt_render(s, &tx->p, c->sql, sizeof(c->sql));
		ok = PQsendQuery(c->conn, c->sql);
		break;
	case TPCB_EXTENDED:
		tpcb_stmt_values(s, &tx->p, vals);
		ok = PQsendQueryParams(c->conn, s->param_sql, s->nparams, NULL, vals,
				       NULL, NULL, 0);
		break;
	default:
		tpcb_stmt_values(s, &tx->p, vals);
		ok = PQsendQueryPrepared(c->conn, stmt_names[k], s->nparams, vals,
					 NULL, NULL, 0);
	}
	if (!ok)
		lost(c);
	return ok;
}

/* The whole transaction and a sync (pipeline), or its first statement. */
static void send_tx(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t now)
{
	tx->stmt = 0;
	tx->failed = tx->doomed = false;
	tx->fail = TPCB_FAIL_NONE;
	tx->stmt_ns = now;
	c->busy_since_ns = now;
	if (!pipelined(c)) {
		if (send_stmt(c, tx, 0))
			flush(c);
		return;
	}
	for (int k = 0; k < c->ctx->script->nstmts; k++)
		if (!send_stmt(c, tx, k))
			return;
	if (!PQpipelineSync(c->conn)) {
		lost(c);
		return;
	}
	flush(c);
}

static void send_rollback(struct tpcb_client *c, uint64_t now)
{
	const char *sql = sql_text("tpcb/rollback.sql");

	c->rolling_back = true;
	c->busy_since_ns = now;
	if (!PQsendQueryParams(c->conn, sql, 0, NULL, NULL, NULL, NULL, 0) ||
	    (pipelined(c) && !PQpipelineSync(c->conn))) {
		lost(c);
		return;
	}
	flush(c);
}

/* ---- starting ------------------------------------------------------------ */

static void skipped(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_done d = { .client = c->id, .tx_no = ++c->finished,
		.outcome = TPCB_SKIPPED, .sched_ns = c->slot_ns, .start_ns = now,
		.end_ns = now, .tries = 0 };

	c->ctx->tally(c->ctx->tally_arg, &d);
}

/*
 * May a new transaction start now? 1 yes (*SCHED its scheduled start),
 * 0 not yet (its -R slot is ahead), -1 never (limit reached or time up).
 * Slots already later than -L are skipped, as pgbench does.
 */
static int may_start(struct tpcb_client *c, uint64_t now, uint64_t *sched)
{
	const struct tpcb_ctx *x = c->ctx;
	long long limit = x->cfg->transactions;

	for (;;) {
		if (x->ending || (limit && c->started >= (uint64_t)limit))
			return -1;
		if (!x->schedule) {
			*sched = now;
			return 1;
		}
		if (!c->has_slot) {
			c->slot_ns = tpcb_schedule_next(x->schedule);
			c->has_slot = true;
		}
		if (x->end_ns && c->slot_ns > x->end_ns)
			return -1;
		if (c->slot_ns > now)
			return 0;
		c->has_slot = false;
		if (!x->late_ns || now - c->slot_ns <= x->late_ns) {
			*sched = c->slot_ns;
			return 1;
		}
		c->started++;
		skipped(c, now);
	}
}

static void take_replay(struct tpcb_client *c, struct tpcb_tx *tx)
{
	*tx = c->replay[0];
	c->nreplay--;
	memmove(c->replay, c->replay + 1, (size_t)c->nreplay * sizeof(*c->replay));
}

/* Time is up: what waits to be retried counts as failed; the rest is dropped. */
static void drop_replays(struct tpcb_client *c, uint64_t now)
{
	for (int i = 0; i < c->nreplay; i++) {
		struct tpcb_tx *tx = &c->replay[i];
		struct tpcb_done d = { .client = c->id, .outcome = TPCB_FAILED,
			.fail = tx->fail, .sched_ns = tx->sched_ns, .start_ns = tx->start_ns,
			.end_ns = now, .tries = tx->tries - 1 };

		if (tx->doomed)
			continue;
		d.tx_no = ++c->finished;
		c->ctx->tally(c->ctx->tally_arg, &d);
	}
	c->nreplay = 0;
}

/* Fill the pipeline (or start the one transaction) as far as allowed. */
static void fill(struct tpcb_client *c, uint64_t now)
{
	int r = 1;

	if (c->ctx->ending && c->nreplay)
		drop_replays(c, now);
	while (c->state == TPCB_C_RUN && c->count < c->depth && !c->recovering &&
	       !c->rolling_back) {
		struct tpcb_tx *tx = tx_at(c, c->count);
		uint64_t sched;

		if (c->nreplay) {
			take_replay(c, tx);
		} else if ((r = may_start(c, now, &sched)) == 1) {
			tpcb_draw(&c->rng, c->ctx->script, c->ctx->scale, &tx->p);
			tx->sched_ns = sched;
			tx->start_ns = now;
			tx->tries = 1;
			c->started++;
		} else {
			break;
		}
		c->count++;
		send_tx(c, tx, now);
	}
	if (r < 0 && c->count == 0 && !c->rolling_back && c->state == TPCB_C_RUN)
		c->state = TPCB_C_DONE;
}

/* ---- results ------------------------------------------------------------- */

static bool can_retry(const struct tpcb_client *c, const struct tpcb_tx *tx)
{
	return tx->fail != TPCB_FAIL_NONE && tx->tries < c->ctx->cfg->max_tries &&
	       !c->ctx->ending;
}

/*
 * The head transaction has ended. Decide what it was (done, to retry, to
 * send again) and pop it; *D is filled when it is to be counted.
 */
static bool settle(struct tpcb_client *c, uint64_t now, struct tpcb_done *d)
{
	struct tpcb_tx *tx = tx_at(c, 0);
	struct tpcb_stmt_stats *st = &c->ctx->stats->stmt[tx->fail_stmt];
	bool counted = false;

	if (tx->failed || tx->doomed)
		c->recovering = pipelined(c);
	if (tx->doomed) {
		c->replay[c->nreplay++] = *tx;
	} else if (tx->failed && can_retry(c, tx)) {
		st->retries++;
		tx->tries++;
		c->replay[c->nreplay++] = *tx;
	} else {
		*d = (struct tpcb_done){ .client = c->id, .tx_no = ++c->finished,
			.outcome = tx->failed ? TPCB_FAILED : TPCB_OK, .fail = tx->fail,
			.sched_ns = tx->sched_ns, .start_ns = tx->start_ns, .end_ns = now,
			.tries = tx->tries };
		st->failures += tx->failed;
		counted = true;
	}
	c->head = (c->head + 1) % c->depth;
	c->count--;
	return counted;
}

/* After a failure in a pipeline: once drained, roll back if needed, go on. */
static void recover(struct tpcb_client *c, uint64_t now)
{
	if (c->count > 0)
		return;
	if (PQtransactionStatus(c->conn) == PQTRANS_INERROR) {
		send_rollback(c, now);
		return;
	}
	c->recovering = false;
}

static void tx_end(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_done d;
	bool counted = settle(c, now, &d);

	if (c->recovering)
		recover(c, now);
	fill(c, now);
	if (counted)
		c->ctx->tally(c->ctx->tally_arg, &d);
}

static void stmt_ok(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t now)
{
	if (c->ctx->cfg->per_statement) {
		struct tpcb_stmt_stats *st = &c->ctx->stats->stmt[tx->stmt];

		st->count++;
		st->sum_ns += (double)(now - tx->stmt_ns);
		tx->stmt_ns = now;
	}
	tx->stmt++;
}

static void stmt_failed(struct tpcb_client *c, struct tpcb_tx *tx, const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	char line[256];

	tx->failed = true;
	tx->fail_stmt = tx->stmt++;
	if (state && !strcmp(state, "40001")) {
		tx->fail = TPCB_FAIL_SERIALIZATION;
	} else if (state && !strcmp(state, "40P01")) {
		tx->fail = TPCB_FAIL_DEADLOCK;
	} else if (state && !strcmp(state, "25P02") && pipelined(c) && tx->fail_stmt == 0) {
		tx->failed = false;	/* sent behind a failed one: it never ran */
		tx->doomed = true;
	} else {
		const char *sql = c->ctx->script->stmt[tx->fail_stmt].text;

		first_line(PQresultErrorMessage(r), line, sizeof(line));
		abort_client(c, "aborted in statement %d (%.100s%s): %s", tx->fail_stmt + 1, sql,
			     strlen(sql) > 100 ? "..." : "", line);
	}
}

static void rollback_result(struct tpcb_client *c, const PGresult *r, uint64_t now)
{
	ExecStatusType st = PQresultStatus(r);
	char line[256];

	if (st == PGRES_COMMAND_OK) {
		c->expect_null = true;
	} else if (st == PGRES_PIPELINE_SYNC) {
		c->rolling_back = c->recovering = false;
		fill(c, now);
	} else {
		first_line(PQresultErrorMessage(r), line, sizeof(line));
		abort_client(c, "could not roll back: %s", line);
	}
}

static void on_result(struct tpcb_client *c, const PGresult *r, uint64_t now)
{
	struct tpcb_tx *tx = tx_at(c, 0);

	c->busy_since_ns = now;
	if (c->rolling_back) {
		rollback_result(c, r, now);
		return;
	}
	switch (PQresultStatus(r)) {
	case PGRES_PIPELINE_SYNC:
		tx_end(c, now);
		return;
	case PGRES_PIPELINE_ABORTED:
		tx->stmt++;
		break;
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
		stmt_ok(c, tx, now);
		break;
	default:
		stmt_failed(c, tx, r);
	}
	c->expect_null = true;
}

/* The end of one statement's results (libpq's NULL). False: stop reading. */
static bool on_null(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tx_at(c, 0);

	if (!c->expect_null) {
		abort_client(c, "got results it did not expect; the protocol is out of step");
		return false;
	}
	c->expect_null = false;
	if (pipelined(c))
		return true;
	if (c->rolling_back) {
		c->rolling_back = false;
		tx_end(c, now);
	} else if (tx->failed && PQtransactionStatus(c->conn) == PQTRANS_INERROR) {
		send_rollback(c, now);
	} else if (!tx->failed && tx->stmt < c->ctx->script->nstmts) {
		if (send_stmt(c, tx, tx->stmt))
			flush(c);
	} else {
		tx_end(c, now);
	}
	return true;
}

static bool awaiting(const struct tpcb_client *c)
{
	return c->state == TPCB_C_RUN && (c->count > 0 || c->rolling_back);
}

void tpcb_client_input(struct tpcb_client *c, uint64_t now)
{
	if (!PQconsumeInput(c->conn)) {
		lost(c);
		return;
	}
	while (awaiting(c) && !PQisBusy(c->conn)) {
		PGresult *r = PQgetResult(c->conn);

		if (!r) {
			if (!on_null(c, now))
				return;
			continue;
		}
		on_result(c, r, now);
		PQclear(r);
	}
	if (c->state == TPCB_C_RUN && PQstatus(c->conn) == CONNECTION_BAD)
		lost(c);
}

void tpcb_client_output(struct tpcb_client *c)
{
	flush(c);
}

void tpcb_client_kick(struct tpcb_client *c, uint64_t now)
{
	if (c->state == TPCB_C_RUN)
		fill(c, now);
}

uint64_t tpcb_client_wake_ns(const struct tpcb_client *c)
{
	if (c->state != TPCB_C_RUN || !c->has_slot || c->count == c->depth ||
	    c->recovering || c->rolling_back)
		return 0;
	return c->slot_ns;
}

void tpcb_client_check_wait(struct tpcb_client *c, uint64_t now, uint64_t bound_ns)
{
	if (awaiting(c) && now - c->busy_since_ns > bound_ns)
		abort_client(c, "got no answer from the server within %.0f s",
			     (double)bound_ns / 1e9);
}

void tpcb_client_abandon(struct tpcb_client *c)
{
	if (c->state == TPCB_C_RUN)
		c->state = TPCB_C_DONE;
}

/* ---- connection ------------------------------------------------------------ */

static int prepare_all(struct tpcb_client *c, char *err, size_t errlen)
{
	const struct tpcb_script *s = c->ctx->script;

	for (int k = 0; k < s->nstmts; k++) {
		PGresult *r = PQprepare(c->conn, stmt_names[k], s->stmt[k].param_sql,
					s->stmt[k].nparams, NULL);
		bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		char line[256];

		first_line(PQresultErrorMessage(r), line, sizeof(line));
		PQclear(r);
		if (!ok) {
			snprintf(err, errlen, "client %d: cannot prepare '%s': %s", c->id,
				 s->stmt[k].text, line);
			return -EIO;
		}
	}
	return 0;
}

static int setup(struct tpcb_client *c, char *err, size_t errlen)
{
	if (c->ctx->cfg->protocol == TPCB_PREPARED && prepare_all(c, err, errlen) < 0)
		return -EIO;
	if (PQsetnonblocking(c->conn, 1) != 0 ||
	    (pipelined(c) && !PQenterPipelineMode(c->conn))) {
		snprintf(err, errlen, "client %d: cannot set up the connection: %s", c->id,
			 PQerrorMessage(c->conn));
		return -EIO;
	}
	c->fd = PQsocket(c->conn);
	return 0;
}

int tpcb_client_open(struct tpcb_client *c, struct tpcb_ctx *ctx, int id,
		     uint64_t seed, const struct server *s, char *err, size_t errlen)
{
	char why[1024];

	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	c->id = id;
	c->fd = -1;
	c->depth = ctx->cfg->pipeline > 0 ? ctx->cfg->pipeline : 1;
	rng_seed(&c->rng, seed);
	c->ring = calloc((size_t)c->depth, sizeof(*c->ring));
	c->replay = calloc((size_t)c->depth, sizeof(*c->replay));
	if (!c->ring || !c->replay) {
		snprintf(err, errlen, "client %d: out of memory", id);
		return -ENOMEM;
	}
	c->conn = server_connect(s, NULL, why, sizeof(why));
	if (!c->conn) {
		snprintf(err, errlen, "client %d %s", id, why);
		return -EIO;
	}
	return setup(c, err, errlen);
}

void tpcb_client_close(struct tpcb_client *c)
{
	PQfinish(c->conn);
	c->conn = NULL;
	free(c->ring);
	free(c->replay);
	c->ring = c->replay = NULL;
}
