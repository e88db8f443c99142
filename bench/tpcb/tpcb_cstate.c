/*
 * tpcb_cstate: what every part of a client uses: its messages (pgbench's
 * wording for an aborted client), flushing, the per-command counts, and a
 * transaction's start and end (may one start now, -R's slots and skips,
 * the script drawn by weight, whether a failure may be tried again, the
 * tally record); see tpcb_cstate.h. It calls none of the client's other
 * parts.
 */
#include "bench/tpcb/tpcb_cstate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/clock.h"

/* ---- small things ----------------------------------------------------------- */

FILE *tpcb_c_messages(const struct tpcb_client *c)
{
	return c->ctx->cfg->messages ? c->ctx->cfg->messages : stderr;
}

void tpcb_c_first_line(const char *msg, char *out, size_t len)
{
	size_t n = msg ? strcspn(msg, "\n") : 0;

	snprintf(out, len, "%.*s", (int)n, n ? msg : "no message");
}

void tpcb_c_abort(struct tpcb_client *c, const char *fmt, ...)
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

void tpcb_c_lost(struct tpcb_client *c)
{
	char line[256];

	tpcb_c_first_line(c->conn ? PQerrorMessage(c->conn) : NULL, line, sizeof(line));
	tpcb_c_abort(c, "lost its connection: %s", line);
}

void tpcb_c_flush(struct tpcb_client *c)
{
	int r = PQflush(c->conn);

	if (r < 0)
		tpcb_c_lost(c);
	c->want_write = r > 0;
}

struct tpcb_stmt_stats *tpcb_c_stmt(struct tpcb_client *c, const struct tpcb_tx *tx, int pc)
{
	return &c->ctx->stats->stmt[tpcb_script_of(c, tx)->first + pc];
}

/* ---- transactions start and end ------------------------------------------------------- */

static void skipped(struct tpcb_client *c, uint64_t now)
{
	struct tpcb_done d = { .client = c->id, .script = -1, .tx_no = ++c->finished,
		.outcome = TPCB_SKIPPED, .sched_ns = c->slot_ns, .start_ns = now,
		.end_ns = now, .tries = 0 };

	c->ctx->tally(c->ctx->tally_arg, &d);
}

int tpcb_c_may_start(struct tpcb_client *c, uint64_t now, uint64_t *sched)
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
		c->started++;	/* already later than -L: skipped, as pgbench skips it */
		skipped(c, now);
	}
}

static int choose(struct tpcb_client *c)
{
	const struct tpcb_scripts *set = c->ctx->set;
	int64_t w;
	int i = 0;

	if (set->n == 1)
		return 0;
	w = tpcb_rand_uniform(c->ctx->choose, 0, set->total_weight - 1);
	do
		w -= set->s[i++].weight;
	while (w >= 0);
	return i - 1;
}

void tpcb_c_begin(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t sched, uint64_t now)
{
	tx->script = choose(c);
	tx->rng0 = c->rng;
	tx->sched_ns = sched;
	tx->start_ns = now;
	tx->tries = 1;
	tx->pc = 0;
	tx->failed = tx->doomed = false;
	tx->fail = TPCB_FAIL_NONE;
	c->started++;
	if (c->ctx->cfg->debug)
		fprintf(tpcb_c_messages(c), "client %d executing script \"%s\"\n", c->id,
			c->ctx->set->s[tx->script].name);
}

bool tpcb_c_can_retry(const struct tpcb_client *c, const struct tpcb_tx *tx, uint64_t now)
{
	const struct tpcb_ctx *x = c->ctx;
	int max = x->cfg->max_tries;

	return tx->fail != TPCB_FAIL_NONE && (max == 0 || tx->tries < max) &&
	       !(x->late_ns && now - tx->sched_ns > x->late_ns) && !x->ending;
}

void tpcb_c_verbose(const struct tpcb_client *c, const struct tpcb_tx *tx, bool retried, uint64_t now)
{
	const struct tpcb_config *cfg = c->ctx->cfg;
	FILE *f = tpcb_c_messages(c);

	if (!cfg->verbose_errors)
		return;
	fprintf(f, "client %d %s (try %d", c->id, retried ? "repeats the transaction after the error" :
		"ends the failed transaction", tx->tries);
	if (cfg->max_tries)
		fprintf(f, "/%d", cfg->max_tries);
	if (c->ctx->late_ns)
		fprintf(f, ", %.3f%% of the maximum time of tries was used",
			100.0 * (double)(now - tx->sched_ns) / (double)c->ctx->late_ns);
	fprintf(f, ")\n");
}

void tpcb_c_done(struct tpcb_client *c, const struct tpcb_tx *tx, uint64_t now, struct tpcb_done *d)
{
	*d = (struct tpcb_done){ .client = c->id, .script = tx->script, .tx_no = ++c->finished,
		.outcome = tx->failed ? TPCB_FAILED : TPCB_OK, .fail = tx->fail,
		.sched_ns = tx->sched_ns, .start_ns = tx->start_ns, .end_ns = now, .tries = tx->tries };
}

