/*
 * tpcb_client: the client's connection and one transaction at a time (no
 * --pipeline; tpcb_pipeline.c does that; the start and end of
 * transactions are tpcb_cstate.c's, running commands tpcb_exec.c's): run the
 * meta-commands, send an SQL command, wait for its results, go on; see
 * tpcb_client.h. The hot path (a result in, the next command out) reads
 * the clock once and sends before it counts a finished transaction, so the
 * server waits on the client as little as it can. A transaction that never
 * waited (a script of meta-commands only) hands the thread back before the
 * next one starts (c->ready), so a loop of them cannot starve the others.
 */
#include "bench/tpcb/tpcb_client.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/sqltext.h"
#include "bench/tpcb/tpcb_cstate.h"
#include "bench/tpcb/tpcb_exec.h"
#include "bench/tpcb/tpcb_pipeline.h"
#include "io/clock.h"

/* ---- connections ---------------------------------------------------------------- */

static int setup(struct tpcb_client *c, char *err, size_t errlen)
{
	memset(c->prepared, 0, (size_t)c->ctx->set->ncmds * sizeof(*c->prepared));
	if (PQsetnonblocking(c->conn, 1) != 0 ||
	    (tpcb_pipelined(c) && !PQenterPipelineMode(c->conn))) {
		snprintf(err, errlen, "client %d: cannot set up the connection: %s", c->id,
			 PQerrorMessage(c->conn));
		return -EIO;
	}
	c->fd = PQsocket(c->conn);
	c->registered = false;
	return 0;
}

/* --pipeline: every command prepared before the connection enters pipeline mode. */
static int prepare_all(struct tpcb_client *c, char *err, size_t errlen)
{
	const struct tpcb_scripts *set = c->ctx->set;

	for (int i = 0; i < set->n; i++)
		if (!tpcb_exec_prepare(c, &set->s[i], 0, set->s[i].ncmds)) {
			snprintf(err, errlen, "%s", c->msg);
			return -EIO;
		}
	return 0;
}

static int connect_client(struct tpcb_client *c, char *err, size_t errlen)
{
	char why[1024];

	c->conn = server_connect(c->ctx->srv, c->ctx->cfg->dbname, why, sizeof(why));
	if (!c->conn) {
		snprintf(err, errlen, "client %d %s", c->id, why);
		return -EIO;
	}
	if (tpcb_pipelined(c) && c->ctx->cfg->protocol == TPCB_PREPARED) {
		memset(c->prepared, 0, (size_t)c->ctx->set->ncmds * sizeof(*c->prepared));
		if (prepare_all(c, err, errlen) < 0)
			return -EIO;
		return PQsetnonblocking(c->conn, 1) == 0 && PQenterPipelineMode(c->conn) ?
		       (c->fd = PQsocket(c->conn), c->registered = false, 0) :
		       (snprintf(err, errlen, "client %d: cannot enter pipeline mode: %s", c->id,
				 PQerrorMessage(c->conn)), -EIO);
	}
	return setup(c, err, errlen);
}

/* -C: a new connection for the transaction about to start. False: aborted. */
static bool reconnect(struct tpcb_client *c)
{
	uint64_t t0 = clock_now_ns();
	char err[1024];

	if (connect_client(c, err, sizeof(err)) < 0) {
		PQfinish(c->conn);
		c->conn = NULL;
		tpcb_c_abort(c, "aborted while establishing connection: %s", err);
		return false;
	}
	c->ctx->connections_ns += (double)(clock_now_ns() - t0);
	return true;
}

static void disconnect(struct tpcb_client *c)
{
	uint64_t t0 = clock_now_ns();

	PQfinish(c->conn);
	c->conn = NULL;
	c->fd = -1;
	c->registered = false;
	c->ctx->connections_ns += (double)(clock_now_ns() - t0);
}

/* ---- one transaction at a time ------------------------------------------------------ */

static void advance_script(struct tpcb_client *c, uint64_t now);

/* The next transaction, if one may start now. */
static void start(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	uint64_t sched;
	int r = tpcb_c_may_start(c, now, &sched);

	if (r < 0) {
		c->state = TPCB_C_DONE;
		return;
	}
	if (r == 0)
		return;	/* its -R slot is ahead: the thread kicks it then */
	if (!c->conn && !reconnect(c))
		return;
	if (c->ctx->cfg->connect_each && !c->ctx->schedule)
		sched = now = clock_now_ns();	/* latency from after the connection, as pgbench */
	tpcb_c_begin(c, tx, sched, now);
	c->count = 1;
	c->waited = false;
	advance_script(c, now);
}

/* The transaction ended (committed, or failed for good). */
static void finish(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	PGTransactionStatusType ts = PQtransactionStatus(c->conn);
	struct tpcb_done d;

	if (!tx->failed && ts != PQTRANS_IDLE) {
		tpcb_c_abort(c, ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR ?
			     "aborted: end of script reached without completing the last transaction" :
			     "aborted while receiving the transaction status");
		return;
	}
	tpcb_c_done(c, tx, now, &d);
	c->count = 0;
	c->phase = TPCB_P_IDLE;
	if (c->ctx->cfg->connect_each)
		disconnect(c);
	if (c->waited)
		start(c, now);	/* the next one goes out before this one is counted */
	else
		c->ready = true;
	c->ctx->tally(c->ctx->tally_arg, &d);
}

/* Retry or fail TX for good, its block rolled back already. */
static void decide(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	struct tpcb_stmt_stats *st = tpcb_c_stmt(c, tx, tx->fail_cmd);

	c->rolling_back = false;
	if (tpcb_c_can_retry(c, tx, now)) {
		tpcb_c_verbose(c, tx, true, now);
		st->retries++;
		tx->tries++;
		c->rng = tx->rng0;	/* the same random values again */
		tx->pc = 0;
		tx->failed = false;
		tx->fail = TPCB_FAIL_NONE;
		advance_script(c, now);
		return;
	}
	tpcb_c_verbose(c, tx, false, now);
	st->failures++;
	finish(c, now);
}

static void send_rollback(struct tpcb_client *c, uint64_t now)
{
	const char *sql = sql_text("tpcb/rollback.sql");

	c->rolling_back = true;
	c->phase = TPCB_P_ROLLBACK;
	c->busy_since_ns = now;
	if (!PQsendQuery(c->conn, sql)) {
		tpcb_c_lost(c);
		return;
	}
	tpcb_c_flush(c);
}

/* After a retryable failure, its command's results all in. */
static void failed(struct tpcb_client *c, uint64_t now)
{
	PGTransactionStatusType ts = PQtransactionStatus(c->conn);

	if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR)
		send_rollback(c, now);
	else if (ts == PQTRANS_IDLE)
		decide(c, now);
	else
		tpcb_c_abort(c, "aborted while receiving the transaction status");
}

/* \startpipeline at tx->pc: prepare what the pipeline holds, enter it. */
static bool open_pipeline(struct tpcb_client *c, struct tpcb_tx *tx)
{
	const struct tpcb_script *sc = tpcb_script_of(c, tx);
	int end = tx->pc;

	while (end < sc->ncmds && sc->cmd[end].kind != TPCB_ENDPIPE)
		end++;
	if (c->ctx->cfg->protocol == TPCB_PREPARED && !tpcb_exec_prepare(c, sc, tx->pc, end))
		return false;
	if (!PQenterPipelineMode(c->conn)) {
		tpcb_c_abort(c, "aborted in command %d (startpipeline) of script %d; failed to enter pipeline mode",
			     tx->pc, tx->script);
		return false;
	}
	tx->nsent = tx->next = 0;
	return true;
}

/* One command that is not a meta-command run locally; false: stop here. */
static bool send_command(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t now)
{
	const struct tpcb_cmd *k = &tpcb_script_of(c, tx)->cmd[tx->pc];
	bool in_pipe = PQpipelineStatus(c->conn) != PQ_PIPELINE_OFF;
	int64_t us;

	switch (k->kind) {
	case TPCB_SQL:
		if (!tpcb_exec_send(c, tx, now))
			return false;
		if (!in_pipe) {
			c->phase = TPCB_P_RESULT;
			c->nresults = 0;
			c->waited = true;
			tpcb_c_flush(c);
			return false;
		}
		tx->sent[tx->nsent++] = (uint16_t)tx->pc;
		break;
	case TPCB_SLEEP:
		if ((us = tpcb_exec_sleep_us(c, tx)) < 0)
			return false;
		c->wake_ns = now + (uint64_t)(us > 0 ? us : 0) * 1000;
		c->phase = TPCB_P_SLEEP;
		c->waited = true;
		return false;
	case TPCB_STARTPIPE:
		if (!open_pipeline(c, tx))
			return false;
		break;
	case TPCB_SYNCPIPE:
	case TPCB_ENDPIPE:
		if (!PQpipelineSync(c->conn)) {
			tpcb_c_lost(c);
			return false;
		}
		c->pipe_syncs++;
		if (k->kind == TPCB_SYNCPIPE)
			break;
		c->phase = TPCB_P_PIPE;
		c->waited = true;
		c->busy_since_ns = now;
		tpcb_c_flush(c);
		return false;
	default:
		break;
	}
	if (c->ctx->cfg->per_statement)
		tpcb_exec_count(c, tx, tx->pc, now = clock_now_ns());
	tx->pc++;
	return true;
}

static void advance_script(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);

	c->phase = TPCB_P_IDLE;
	for (;;) {
		enum tpcb_stop s = tpcb_exec_local(c, tx, &now);

		if (s == TPCB_AT_ABORT)
			return;
		if (s == TPCB_AT_END) {
			finish(c, now);
			return;
		}
		if (!send_command(c, tx, now))
			return;
	}
}

/* ---- results, one transaction at a time ---------------------------------------------- */

static void sql_error(struct tpcb_client *c, struct tpcb_tx *tx, const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	char line[256];

	tpcb_c_first_line(PQresultErrorMessage(r), line, sizeof(line));
	if (state && (!strcmp(state, "40001") || !strcmp(state, "40P01"))) {
		if (!tx->failed) {
			tx->failed = true;
			tx->fail_cmd = tx->pc;
			tx->fail = state[2] == '0' ? TPCB_FAIL_SERIALIZATION : TPCB_FAIL_DEADLOCK;
		}
		if (c->ctx->cfg->verbose_errors)
			fprintf(tpcb_c_messages(c), "client %d got an error in command %d (SQL) of script %d; %s\n",
				c->id, tx->pc, tx->script, line);
		return;
	}
	tpcb_c_abort(c, "script %d aborted in command %d query %d: %s", tx->script, tx->pc,
		     c->nresults, line);
}

static void gset_result(struct tpcb_client *c, struct tpcb_tx *tx, const struct tpcb_cmd *k,
			PGresult *r)
{
	PQclear(c->kept);
	c->kept = NULL;
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		PQclear(r);
		return;
	}
	if (k->gset == TPCB_GSET) {
		c->kept = r;	/* the last one counts */
		return;
	}
	if (PQntuples(r) > 0)	/* \aset: every result, an empty one skipped */
		tpcb_exec_store(c, tx, k, r);
	PQclear(r);
}

/* A result of the command at tx->pc (no pipeline). */
static void one_result(struct tpcb_client *c, PGresult *r)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	const struct tpcb_cmd *k = &tpcb_script_of(c, tx)->cmd[tx->pc];

	switch (PQresultStatus(r)) {
	case PGRES_COMMAND_OK:
	case PGRES_EMPTY_QUERY:
	case PGRES_TUPLES_OK:
		if (k->gset != TPCB_NO_GSET && !tx->failed) {
			gset_result(c, tx, k, r);
			r = NULL;
		}
		break;
	case PGRES_COPY_IN:
	case PGRES_COPY_OUT:
	case PGRES_COPY_BOTH:
		tpcb_c_abort(c, "script %d aborted in command %d: COPY is not supported", tx->script, tx->pc);
		break;
	default:
		sql_error(c, tx, r);
	}
	c->nresults++;
	PQclear(r);
}

/* The end of the command's results (libpq's NULL). */
static void command_end(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	const struct tpcb_cmd *k = &tpcb_script_of(c, tx)->cmd[tx->pc];

	if (tx->failed) {
		PQclear(c->kept);
		c->kept = NULL;
		failed(c, now);
		return;
	}
	if (k->gset == TPCB_GSET) {
		int rows = c->kept ? PQntuples(c->kept) : 0;

		if (rows != 1) {
			tpcb_c_abort(c, "script %d command %d query %d: expected one row, got %d",
				     tx->script, tx->pc, c->nresults - 1, rows);
			return;
		}
		if (!tpcb_exec_store(c, tx, k, c->kept))
			return;
		PQclear(c->kept);
		c->kept = NULL;
	}
	if (c->ctx->cfg->per_statement)
		tpcb_exec_count(c, tx, tx->pc, now);
	tx->pc++;
	advance_script(c, now);
}

/* A result of a script's own pipeline. */
static void pipe_result(struct tpcb_client *c, PGresult *r, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);
	int pc = tx->pc;

	switch (PQresultStatus(r)) {
	case PGRES_PIPELINE_SYNC:
		if (--c->pipe_syncs > 0)
			return;
		PQexitPipelineMode(c->conn);
		if (tx->failed) {
			failed(c, now);
			return;
		}
		if (c->ctx->cfg->per_statement)
			tpcb_exec_count(c, tx, tx->pc, now);
		tx->pc++;
		advance_script(c, now);
		return;
	case PGRES_PIPELINE_ABORTED:
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
	case PGRES_EMPTY_QUERY:
		break;
	default:
		if (tx->next < tx->nsent)
			tx->pc = tx->sent[tx->next];
		sql_error(c, tx, r);
		tx->pc = pc;
	}
	c->expect_null = true;
}

static bool awaiting(const struct tpcb_client *c)
{
	return c->state == TPCB_C_RUN && (c->count > 0 || c->rolling_back) &&
	       (tpcb_pipelined(c) || c->phase == TPCB_P_RESULT || c->phase == TPCB_P_PIPE ||
		c->phase == TPCB_P_ROLLBACK);
}

/* One result (or libpq's NULL) in the running phase; false: stop reading. */
static bool take(struct tpcb_client *c, PGresult *r, uint64_t now)
{
	c->busy_since_ns = now;
	if (tpcb_pipelined(c)) {
		if (!r)
			return tpcb_pipe_null(c, now);
		tpcb_pipe_result(c, r, now);
		PQclear(r);
		return true;
	}
	switch (c->phase) {
	case TPCB_P_RESULT:
		if (r)
			one_result(c, r);
		else
			command_end(c, now);
		return true;
	case TPCB_P_PIPE:
		if (r) {
			pipe_result(c, r, now);
			PQclear(r);
		} else if (c->expect_null) {
			c->expect_null = false;
			tpcb_tx_at(c, 0)->next++;
		}
		return true;
	default:	/* the ROLLBACK */
		if (r) {
			if (PQresultStatus(r) != PGRES_COMMAND_OK)
				tpcb_c_abort(c, "aborted while rolling back the transaction after an error; %s",
					     PQresultErrorMessage(r));
			PQclear(r);
		} else {
			decide(c, now);
		}
		return true;
	}
}

void tpcb_client_input(struct tpcb_client *c, uint64_t now)
{
	if (!c->conn)
		return;
	if (!PQconsumeInput(c->conn)) {
		tpcb_c_lost(c);
		return;
	}
	while (awaiting(c) && !PQisBusy(c->conn)) {
		if (c->ctx->cfg->debug && !tpcb_pipelined(c))
			fprintf(tpcb_c_messages(c), "client %d receiving\n", c->id);
		if (!take(c, PQgetResult(c->conn), now))
			return;
	}
	if (c->state == TPCB_C_RUN && c->conn && PQstatus(c->conn) == CONNECTION_BAD)
		tpcb_c_lost(c);
}

void tpcb_client_output(struct tpcb_client *c)
{
	if (c->conn)
		tpcb_c_flush(c);
}

void tpcb_client_kick(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_tx *tx = tpcb_tx_at(c, 0);

	c->ready = false;
	if (c->state != TPCB_C_RUN)
		return;
	if (tpcb_pipelined(c)) {
		tpcb_pipe_fill(c, now);
		return;
	}
	if (c->phase == TPCB_P_SLEEP) {
		if (now < c->wake_ns)
			return;
		if (c->ctx->cfg->per_statement)
			tpcb_exec_count(c, tx, tx->pc, now);
		tx->pc++;
		advance_script(c, now);
	} else if (c->phase == TPCB_P_IDLE && c->count == 0) {
		start(c, now);
	}
}

uint64_t tpcb_client_wake_ns(const struct tpcb_client *c)
{
	if (c->state != TPCB_C_RUN)
		return 0;
	if (!tpcb_pipelined(c) && c->phase == TPCB_P_SLEEP)
		return c->wake_ns;
	if (!c->has_slot || c->count == c->depth || c->recovering || c->rolling_back)
		return 0;
	return c->slot_ns;
}

/* NOW may be older than the client's last send: with -r a command is timed
 * by a clock read after the loop's, so that send counts as just made. */
void tpcb_client_check_wait(struct tpcb_client *c, uint64_t now, uint64_t bound_ns)
{
	if (awaiting(c) && now > c->busy_since_ns && now - c->busy_since_ns > bound_ns)
		tpcb_c_abort(c, "got no answer from the server within %.0f s", (double)bound_ns / 1e9);
}

void tpcb_client_abandon(struct tpcb_client *c)
{
	if (c->state == TPCB_C_RUN)
		c->state = TPCB_C_DONE;
}

/* ---- set up and tear down ------------------------------------------------------------ */

static int max_params(const struct tpcb_scripts *set, int *maxsql)
{
	int n = 1;

	*maxsql = 1;
	for (int i = 0; i < set->n; i++) {
		int nsql = 0;

		for (int k = 0; k < set->s[i].ncmds; k++) {
			if (set->s[i].cmd[k].nparams > n)
				n = set->s[i].cmd[k].nparams;
			nsql += set->s[i].cmd[k].kind == TPCB_SQL;
		}
		if (nsql > *maxsql)
			*maxsql = nsql;
	}
	return n;
}

/* Each client's own variables: -D, then the run's own unless -D gave them. */
static int init_vars(struct tpcb_client *c)
{
	const struct tpcb_scripts *set = c->ctx->set;
	const int64_t builtin[4] = { c->ctx->scale, c->id, (int64_t)c->ctx->cfg->seed,
		c->ctx->default_seed };
	const int slots[4] = { set->slot_scale, set->slot_client_id, set->slot_random_seed,
		set->slot_default_seed };

	for (int i = 0; i < set->ndefs; i++)
		if (tpcb_var_set_text(&c->vars[set->defs[i].slot], set->defs[i].value,
				      strlen(set->defs[i].value)) < 0)
			return -ENOMEM;
	for (int i = 0; i < 4; i++)
		if (!c->vars[slots[i]].set)
			tpcb_var_set(&c->vars[slots[i]], tpcb_int(builtin[i]));
	return 0;
}

int tpcb_client_open(struct tpcb_client *c, struct tpcb_ctx *ctx, int id,
		     const struct tpcb_prng *rng, char *err, size_t errlen)
{
	const struct tpcb_scripts *set = ctx->set;
	int np;

	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	c->id = id;
	c->fd = -1;
	c->rng = *rng;
	c->depth = ctx->cfg->pipeline > 0 ? ctx->cfg->pipeline : 1;
	np = max_params(set, &c->maxsql);
	c->ring = calloc((size_t)c->depth, sizeof(*c->ring));
	c->replay = calloc((size_t)c->depth, sizeof(*c->replay));
	c->sent_mem = calloc((size_t)c->depth * 2 * (size_t)c->maxsql, sizeof(*c->sent_mem));
	c->vars = calloc((size_t)set->nslots, sizeof(*c->vars));
	c->prepared = calloc((size_t)set->ncmds + 1, sizeof(*c->prepared));
	c->params = calloc((size_t)np, sizeof(*c->params));
	c->ptext = calloc((size_t)np, sizeof(*c->ptext));
	if (!c->ring || !c->replay || !c->sent_mem || !c->vars || !c->prepared || !c->params ||
	    !c->ptext || init_vars(c) < 0) {
		snprintf(err, errlen, "client %d: out of memory", id);
		return -ENOMEM;
	}
	for (int i = 0; i < c->depth; i++) {
		c->ring[i].sent = c->sent_mem + (size_t)i * (size_t)c->maxsql;
		c->replay[i].sent = c->sent_mem + (size_t)(c->depth + i) * (size_t)c->maxsql;
	}
	if (ctx->cfg->connect_each)
		return 0;	/* -C: each transaction connects */
	return connect_client(c, err, errlen);
}

void tpcb_client_close(struct tpcb_client *c)
{
	PQclear(c->kept);
	PQfinish(c->conn);
	c->conn = NULL;
	for (int i = 0; c->vars && i < c->ctx->set->nslots; i++)
		tpcb_var_free(&c->vars[i]);
	free(c->vars);
	free(c->prepared);
	free(c->params);
	free(c->ptext);
	free(c->ring);
	free(c->replay);
	free(c->sent_mem);
	free(c->sql);
	c->vars = NULL;
	c->ring = c->replay = NULL;
}
