/*
 * tpcb_pipeline: --pipeline N, up to N transactions of a client in flight
 * in libpq's pipeline mode; see tpcb_pipeline.h. A transaction's
 * meta-commands run as it is sent and its SQL goes out at once, followed
 * by a sync (its scripts never wait on a result: the config check refuses
 * \gset, \aset, \sleep and a script's own pipeline with --pipeline). A
 * failure in a pipeline dooms what was sent behind it in the same block:
 * those are sent again, with their own random values, after a ROLLBACK
 * when the block was left in error; a retried transaction gets its first
 * values back too.
 */
#include "bench/tpcb/tpcb_pipeline.h"

#include <stdio.h>
#include <string.h>

#include "bench/pg/sqltext.h"
#include "bench/tpcb/tpcb_exec.h"
#include "io/clock.h"

/* TX into DST, DST keeping its own list of sent commands. */
static void tx_copy(struct tpcb_tx *dst, const struct tpcb_tx *src)
{
	uint16_t *sent = dst->sent;

	*dst = *src;
	dst->sent = sent;
}

/* Run TX's script from the start, sending its SQL, then a sync. */
static void send_tx(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t now)
{
	tx->pc = tx->nsent = tx->next = 0;
	tx->failed = tx->doomed = false;
	tx->fail = TPCB_FAIL_NONE;
	c->rng = tx->rng0;
	c->busy_since_ns = now;
	for (;;) {
		enum tpcb_stop s = tpcb_exec_local(c, tx, &now);

		if (s == TPCB_AT_ABORT)
			return;
		if (s == TPCB_AT_END)
			break;
		if (!tpcb_exec_send(c, tx, now))
			return;
		tx->sent[tx->nsent++] = (uint16_t)tx->pc++;
	}
	tx->cmd_ns = now;
	if (!PQpipelineSync(c->conn)) {
		tpcb_c_lost(c);
		return;
	}
	tpcb_c_flush(c);
}

static void send_rollback(struct tpcb_client *c, uint64_t now)
{
	const char *sql = sql_text("tpcb/rollback.sql");

	c->rolling_back = true;
	c->busy_since_ns = now;
	if (!PQsendQueryParams(c->conn, sql, 0, NULL, NULL, NULL, NULL, 0) || !PQpipelineSync(c->conn)) {
		tpcb_c_lost(c);
		return;
	}
	tpcb_c_flush(c);
}

static void take_replay(struct tpcb_client *c, struct tpcb_tx *tx)
{
	tx_copy(tx, &c->replay[0]);
	c->nreplay--;
	for (int i = 0; i < c->nreplay; i++)
		tx_copy(&c->replay[i], &c->replay[i + 1]);
}

/* Time is up: what waits to be retried counts as failed; the rest is dropped. */
static void drop_replays(struct tpcb_client *c, uint64_t now)
{
	for (int i = 0; i < c->nreplay; i++) {
		struct tpcb_tx *tx = &c->replay[i];
		struct tpcb_done d;

		if (tx->doomed)
			continue;
		tx->tries--;	/* the retry that will not happen */
		tx->failed = true;
		tpcb_c_done(c, tx, now, &d);
		c->ctx->tally(c->ctx->tally_arg, &d);
	}
	c->nreplay = 0;
}

void tpcb_pipe_fill(struct tpcb_client *c, uint64_t now)
{
	int r = 1;

	if (c->ctx->ending && c->nreplay)
		drop_replays(c, now);
	while (c->state == TPCB_C_RUN && c->count < c->depth && !c->recovering && !c->rolling_back) {
		struct tpcb_tx *tx = tpcb_tx_at(c, c->count);
		uint64_t sched;

		if (c->nreplay)
			take_replay(c, tx);
		else if ((r = tpcb_c_may_start(c, now, &sched)) == 1)
			tpcb_c_begin(c, tx, sched, now);
		else
			break;
		c->count++;
		send_tx(c, tx, now);
	}
	if (r < 0 && c->count == 0 && !c->rolling_back && c->state == TPCB_C_RUN)
		c->state = TPCB_C_DONE;
}

/*
 * The head transaction has ended. Decide what it was (done, to retry, to
 * send again) and pop it; *D is filled when it is to be counted.
 */
static bool settle(struct tpcb_client *c, uint64_t now, struct tpcb_done *d)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	bool counted = false;

	if (tx->failed || tx->doomed)
		c->recovering = true;
	if (tx->doomed) {
		tx_copy(&c->replay[c->nreplay++], tx);
	} else if (tx->failed && tpcb_c_can_retry(c, tx, now)) {
		tpcb_c_verbose(c, tx, true, now);
		tpcb_c_stmt(c, tx, tx->fail_cmd)->retries++;
		tx->tries++;
		tx_copy(&c->replay[c->nreplay++], tx);
	} else {
		if (tx->failed) {
			tpcb_c_verbose(c, tx, false, now);
			tpcb_c_stmt(c, tx, tx->fail_cmd)->failures++;
		}
		tpcb_c_done(c, tx, now, d);
		counted = true;
	}
	c->head = (c->head + 1) % c->depth;
	c->count--;
	return counted;
}

/* After a failure: once drained, roll back if needed, then go on. */
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
	tpcb_pipe_fill(c, now);
	if (counted)
		c->ctx->tally(c->ctx->tally_arg, &d);
}

static void stmt_failed(struct tpcb_client *c, struct tpcb_tx *tx, const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	int pc = tx->next < tx->nsent ? tx->sent[tx->next] : 0;
	char line[256];

	tpcb_c_first_line(PQresultErrorMessage(r), line, sizeof(line));
	if (state && (!strcmp(state, "40001") || !strcmp(state, "40P01"))) {
		tx->failed = true;
		tx->fail_cmd = pc;
		tx->fail = state[2] == '0' ? TPCB_FAIL_SERIALIZATION : TPCB_FAIL_DEADLOCK;
		if (c->ctx->cfg->verbose_errors)
			fprintf(tpcb_c_messages(c), "client %d got an error in command %d (SQL) of script %d; %s\n",
				c->id, pc, tx->script, line);
	} else if (state && !strcmp(state, "25P02") && tx->next == 0) {
		tx->doomed = true;	/* sent behind a failed one: it never ran */
	} else {
		tpcb_c_abort(c, "script %d aborted in command %d query 0: %s", tx->script, pc, line);
	}
	tx->next++;
}

static void rollback_result(struct tpcb_client *c, const PGresult *r, uint64_t now)
{
	ExecStatusType st = PQresultStatus(r);
	char line[256];

	if (st == PGRES_COMMAND_OK) {
		c->expect_null = true;
	} else if (st == PGRES_PIPELINE_SYNC) {
		c->rolling_back = c->recovering = false;
		tpcb_pipe_fill(c, now);
	} else {
		tpcb_c_first_line(PQresultErrorMessage(r), line, sizeof(line));
		tpcb_c_abort(c, "aborted while rolling back the transaction after an error; %s", line);
	}
}

void tpcb_pipe_result(struct tpcb_client *c, const PGresult *r, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);

	if (c->rolling_back) {
		rollback_result(c, r, now);
		return;
	}
	switch (PQresultStatus(r)) {
	case PGRES_PIPELINE_SYNC:
		tx_end(c, now);
		return;
	case PGRES_PIPELINE_ABORTED:
		tx->next++;
		break;
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
	case PGRES_EMPTY_QUERY:
		if (c->ctx->cfg->per_statement && tx->next < tx->nsent) {
			tpcb_exec_count(c, tx, tx->sent[tx->next], now);
			tx->cmd_ns = now;
		}
		tx->next++;
		break;
	default:
		stmt_failed(c, tx, r);
	}
	c->expect_null = true;
}

bool tpcb_pipe_null(struct tpcb_client *c, uint64_t now)
{
	(void)now;
	if (!c->expect_null) {
		tpcb_c_abort(c, "got results it did not expect; the protocol is out of step");
		return false;
	}
	c->expect_null = false;
	return true;
}
