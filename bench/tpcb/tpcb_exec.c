/*
 * tpcb_exec: running a script's commands for a client; see
 * tpcb_client_priv.h. Meta-commands run here without the server; an SQL
 * command goes out with its variables: written into the text for the
 * simple protocol (an unset variable stays ":name", as pgbench leaves it),
 * as text parameters otherwise (an unset one is NULL). -r reads the clock
 * around each command; without it the running path reads none here.
 */
#include "bench/tpcb/tpcb_exec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/clock.h"

static struct tpcb_eval eval_ctx(struct tpcb_client *c, const struct tpcb_tx *tx, char *err,
				 size_t errlen)
{
	return (struct tpcb_eval){ .vars = c->vars, .names = (const char *const *)c->ctx->set->names,
		.rng = &c->rng, .debug = tpcb_c_messages(c), .script = tx->script,
		.command = tx->pc + 1, .err = err, .errlen = errlen };
}

static const char *meta_name(enum tpcb_cmd_kind k)
{
	static const char *const names[] = { "SQL", "set", "sleep", "if", "elif", "else", "endif",
		"startpipeline", "syncpipeline", "endpipeline" };

	return names[k];
}

/* Evaluate command K's expression; false (aborted) on error, as pgbench's. */
static bool eval_cmd(struct tpcb_client *c, const struct tpcb_tx *tx, const struct tpcb_cmd *k,
		     struct tpcb_value *v)
{
	char why[256];
	struct tpcb_eval e = eval_ctx(c, tx, why, sizeof(why));

	if (tpcb_eval(&c->ctx->set->exprs, k->expr, &e, v) == 0)
		return true;
	tpcb_c_abort(c, "aborted in command %d (%s) of script %d; evaluation of meta-command failed: %s",
		     tx->pc, meta_name(k->kind), tx->script, why);
	return false;
}

void tpcb_exec_count(struct tpcb_client *c, struct tpcb_tx *tx, int pc, uint64_t now)
{
	struct tpcb_stmt_stats *st = tpcb_c_stmt(c, tx, pc);

	st->count++;
	st->sum_ns += (double)(now - tx->cmd_ns);
}

static void debug_meta(const struct tpcb_client *c, const struct tpcb_cmd *k)
{
	fprintf(tpcb_c_messages(c), "client %d executing %s\n", c->id, k->text);
}

/* A false condition's target T: evaluate \elif there, go past \else and \endif. */
static bool branch(struct tpcb_client *c, struct tpcb_tx *tx, const struct tpcb_script *sc,
		   int t, uint64_t *now)
{
	bool timed = c->ctx->cfg->per_statement;

	for (;;) {
		const struct tpcb_cmd *k = &sc->cmd[t];
		struct tpcb_value v;

		tx->pc = t;
		if (k->kind != TPCB_ELIF) {
			tx->pc = t + 1;
			return true;
		}
		if (timed)
			tx->cmd_ns = *now = clock_now_ns();
		if (!eval_cmd(c, tx, k, &v))
			return false;
		if (timed)
			tpcb_exec_count(c, tx, t, *now = clock_now_ns());
		if (tpcb_value_truth(&v)) {
			tx->pc = t + 1;
			return true;
		}
		t = k->jump;
	}
}

/* One meta-command at tx->pc; false when the client was aborted. */
static bool meta(struct tpcb_client *c, struct tpcb_tx *tx, const struct tpcb_script *sc,
		 const struct tpcb_cmd *k, uint64_t *now)
{
	struct tpcb_value v;

	if (c->ctx->cfg->debug)
		debug_meta(c, k);
	switch (k->kind) {
	case TPCB_SET:
		if (!eval_cmd(c, tx, k, &v))
			return false;
		tpcb_var_set(&c->vars[k->slot], v);
		break;
	case TPCB_IF:
		if (!eval_cmd(c, tx, k, &v))
			return false;
		if (!tpcb_value_truth(&v)) {
			if (c->ctx->cfg->per_statement)
				tpcb_exec_count(c, tx, tx->pc, *now = clock_now_ns());
			return branch(c, tx, sc, k->jump, now);
		}
		break;
	case TPCB_ELIF:
	case TPCB_ELSE:	/* reached after the branch before it ran: on to \endif */
		if (c->ctx->cfg->per_statement)
			tpcb_exec_count(c, tx, tx->pc, *now = clock_now_ns());
		tx->pc = k->end;
		return true;
	default:
		break;
	}
	if (c->ctx->cfg->per_statement)
		tpcb_exec_count(c, tx, tx->pc, *now = clock_now_ns());
	tx->pc++;
	return true;
}

enum tpcb_stop tpcb_exec_local(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t *now)
{
	const struct tpcb_script *sc = tpcb_script_of(c, tx);

	while (c->state == TPCB_C_RUN) {
		const struct tpcb_cmd *k;

		if (tx->pc >= sc->ncmds)
			return TPCB_AT_END;
		k = &sc->cmd[tx->pc];
		if (c->ctx->cfg->per_statement)
			tx->cmd_ns = *now = clock_now_ns();
		if (k->kind < TPCB_SET || k->kind == TPCB_SLEEP || k->kind >= TPCB_STARTPIPE)
			return TPCB_AT_CMD;
		if (!meta(c, tx, sc, k, now))
			break;
	}
	return TPCB_AT_ABORT;
}

/* ---- SQL ------------------------------------------------------------------------ */

static bool room(struct tpcb_client *c, size_t need)
{
	char *p;
	size_t cap = c->sqlcap ? c->sqlcap : 1024;

	if (need <= c->sqlcap)
		return true;
	while (cap < need)
		cap *= 2;
	if (!(p = realloc(c->sql, cap))) {
		tpcb_c_abort(c, "out of memory for an SQL command of %zu bytes", need);
		return false;
	}
	c->sql = p;
	c->sqlcap = cap;
	return true;
}

/* K's text with the variables written in, into c->sql. */
static bool render(struct tpcb_client *c, const struct tpcb_cmd *k)
{
	size_t used = 0;

	for (int i = 0; i < k->nsegs; i++) {
		const struct tpcb_seg *g = &k->seg[i];
		const char *src = k->text + g->off;
		size_t n = g->len;
		char buf[TPCB_NUM_MAX];

		if (g->slot >= 0 && c->vars[g->slot].set)
			src = tpcb_var_text(&c->vars[g->slot], buf, &n);
		if (used + n + 1 > c->sqlcap && !room(c, used + n + 1))
			return false;
		memcpy(c->sql + used, src, n);
		used += n;
	}
	if (!c->sql && !room(c, 1))
		return false;
	c->sql[used] = '\0';
	return true;
}

static void values(struct tpcb_client *c, const struct tpcb_cmd *k)
{
	for (int i = 0; i < k->nparams; i++) {
		const struct tpcb_var *v = &c->vars[k->param_slot[i]];
		size_t n;

		c->params[i] = v->set ? tpcb_var_text(v, c->ptext[i], &n) : NULL;
	}
}

bool tpcb_exec_prepare(struct tpcb_client *c, const struct tpcb_script *sc, int first, int last)
{
	for (int pc = first; pc < last; pc++) {
		const struct tpcb_cmd *k = &sc->cmd[pc];
		char line[256];
		PGresult *r;
		bool ok;

		if (k->kind != TPCB_SQL || c->prepared[sc->first + pc])
			continue;
		r = PQprepare(c->conn, k->prepname, k->param_sql, k->nparams, NULL);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		tpcb_c_first_line(PQresultErrorMessage(r), line, sizeof(line));
		PQclear(r);
		if (!ok) {
			tpcb_c_abort(c, "could not prepare command %d of script %d (%.100s): %s", pc,
				     (int)(sc - c->ctx->set->s), k->text, line);
			return false;
		}
		c->prepared[sc->first + pc] = true;
	}
	return true;
}

bool tpcb_exec_send(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t now)
{
	const struct tpcb_script *sc = tpcb_script_of(c, tx);
	const struct tpcb_cmd *k = &sc->cmd[tx->pc];
	int ok;

	switch (c->ctx->cfg->protocol) {
	case TPCB_SIMPLE:
		if (!render(c, k))
			return false;
		if (c->ctx->cfg->debug)
			fprintf(tpcb_c_messages(c), "client %d sending %s\n", c->id, c->sql);
		ok = PQsendQuery(c->conn, c->sql);
		break;
	case TPCB_EXTENDED:
		values(c, k);
		if (c->ctx->cfg->debug)
			fprintf(tpcb_c_messages(c), "client %d sending %s\n", c->id, k->param_sql);
		ok = PQsendQueryParams(c->conn, k->param_sql, k->nparams, NULL, c->params, NULL, NULL, 0);
		break;
	default:
		if (!c->prepared[sc->first + tx->pc] && !tpcb_exec_prepare(c, sc, tx->pc, tx->pc + 1))
			return false;
		values(c, k);
		if (c->ctx->cfg->debug)
			fprintf(tpcb_c_messages(c), "client %d sending %s\n", c->id, k->prepname);
		ok = PQsendQueryPrepared(c->conn, k->prepname, k->nparams, c->params, NULL, NULL, 0);
	}
	c->busy_since_ns = now;
	if (!ok) {
		tpcb_c_lost(c);
		return false;
	}
	return true;
}

/* ---- \gset, \aset, \sleep --------------------------------------------------------- */

bool tpcb_exec_store(struct tpcb_client *c, const struct tpcb_tx *tx, const struct tpcb_cmd *k,
		     const PGresult *r)
{
	int row = PQntuples(r) - 1;

	for (int f = 0; f < PQnfields(r); f++) {
		char name[256];
		int n = snprintf(name, sizeof(name), "%s%s", k->prefix, PQfname(r, f)), slot;

		if (n >= (int)sizeof(name) || !tpcb_valid_name(name, (size_t)n)) {
			tpcb_c_abort(c, "script %d command %d: error storing into variable %.100s: invalid variable name",
				     tx->script, tx->pc, name);
			return false;
		}
		slot = tpcb_scripts_find(c->ctx->set, name, (size_t)n);
		if (slot >= 0 && tpcb_var_set_text(&c->vars[slot], PQgetvalue(r, row, f),
						   (size_t)PQgetlength(r, row, f)) < 0) {
			tpcb_c_abort(c, "script %d command %d: out of memory storing into variable %s",
				     tx->script, tx->pc, name);
			return false;
		}
	}
	return true;
}

int64_t tpcb_exec_sleep_us(struct tpcb_client *c, const struct tpcb_tx *tx)
{
	const struct tpcb_cmd *k = &tpcb_script_of(c, tx)->cmd[tx->pc];
	const struct tpcb_var *v;
	char buf[TPCB_NUM_MAX];
	const char *s;
	size_t n;
	long long usec;

	if (k->sleep_slot < 0)
		return k->amount > 0 ? k->amount * k->unit_us : 0;
	v = &c->vars[k->sleep_slot];
	if (!v->set) {
		tpcb_c_abort(c, "aborted in command %d (sleep) of script %d; sleep: undefined variable \"%s\"",
			     tx->pc, tx->script, c->ctx->set->names[k->sleep_slot]);
		return -1;
	}
	s = tpcb_var_text(v, buf, &n);
	errno = 0;
	usec = strtoll(s, NULL, 10);
	if (usec == 0 && !isdigit((unsigned char)*s)) {
		tpcb_c_abort(c, "aborted in command %d (sleep) of script %d; sleep: invalid sleep time \"%.60s\" for variable \"%s\"",
			     tx->pc, tx->script, s, c->ctx->set->names[k->sleep_slot]);
		return -1;
	}
	if (usec <= 0)
		return 0;	/* a negative time: no sleep, as pgbench */
	if (errno == ERANGE || usec > TPCB_SLEEP_MAX_US / k->unit_us) {
		tpcb_c_abort(c, "aborted in command %d (sleep) of script %d (%.200s line %d); sleep: sleep time \"%.60s\" for variable \"%s\" out of range, at most %lld us",
			     tx->pc, tx->script, tpcb_script_of(c, tx)->name, k->line, s,
			     c->ctx->set->names[k->sleep_slot], (long long)TPCB_SLEEP_MAX_US);
		return -1;
	}
	return usec * k->unit_us;
}
