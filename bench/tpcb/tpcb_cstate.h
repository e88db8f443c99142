/*
 * tpcb_cstate: the parts of a client that the others share: its messages,
 * flushing, per-command counts, and a transaction's start and end; and
 * small inline helpers over the in-flight ring. Used by tpcb_client.c (one
 * transaction at a time), tpcb_exec.c (running commands) and
 * tpcb_pipeline.c (--pipeline); not for use outside the client.
 */
#ifndef BENCH_TPCB_TPCB_CSTATE_H
#define BENCH_TPCB_TPCB_CSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/tpcb/tpcb_client.h"

static inline bool tpcb_pipelined(const struct tpcb_client *c)
{
	return c->ctx->cfg->pipeline > 0;
}

static inline struct tpcb_tx *tpcb_tx_at(struct tpcb_client *c, int i)
{
	return &c->ring[(c->head + i) % c->depth];
}

static inline const struct tpcb_script *tpcb_script_of(const struct tpcb_client *c,
						       const struct tpcb_tx *tx)
{
	return &c->ctx->set->s[tx->script];
}

void tpcb_c_abort(struct tpcb_client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tpcb_c_lost(struct tpcb_client *c);
void tpcb_c_flush(struct tpcb_client *c);
void tpcb_c_first_line(const char *msg, char *out, size_t len);
FILE *tpcb_c_messages(const struct tpcb_client *c);
/* May a new transaction start now? 1 yes (*SCHED its scheduled start), 0
 * not yet (its -R slot is ahead), -1 never (limit reached or time up). */
int tpcb_c_may_start(struct tpcb_client *c, uint64_t now, uint64_t *sched);
/* A new transaction in TX: its script drawn by weight, the generator kept. */
void tpcb_c_begin(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t sched, uint64_t now);
/* The retry of TX that failed: may it be tried again? */
bool tpcb_c_can_retry(const struct tpcb_client *c, const struct tpcb_tx *tx, uint64_t now);
/* --verbose-errors' line for TX, about to be RETRIED or not. */
void tpcb_c_verbose(const struct tpcb_client *c, const struct tpcb_tx *tx, bool retried, uint64_t now);
/* The finished transaction TX as a tally record. */
void tpcb_c_done(struct tpcb_client *c, const struct tpcb_tx *tx, uint64_t now,
		 struct tpcb_done *d);
/* The statistics of command PC of TX's script. */
struct tpcb_stmt_stats *tpcb_c_stmt(struct tpcb_client *c, const struct tpcb_tx *tx, int pc);

#endif
