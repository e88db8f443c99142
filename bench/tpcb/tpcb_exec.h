/*
 * tpcb_exec: running a client's script commands: the meta-commands
 * without the server, an SQL command out with its variables (written into
 * the text, or as parameters), PREPARE once per connection, \gset/\aset
 * into variables, the time a \sleep asks for, -r's counts. Part of the
 * client (tpcb_client.c, tpcb_pipeline.c).
 */
#ifndef BENCH_TPCB_TPCB_EXEC_H
#define BENCH_TPCB_TPCB_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/tpcb/tpcb_cstate.h"

/* Why tpcb_exec_local stopped: at a command it does not run itself, at the
 * end of the script, or because the client was aborted. */
enum tpcb_stop { TPCB_AT_CMD, TPCB_AT_END, TPCB_AT_ABORT };

/* Run TX's meta-commands from tx->pc on until an SQL command, \sleep, a
 * pipeline command or the end. *NOW moves on when -r reads the clock. */
enum tpcb_stop tpcb_exec_local(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t *now);
/* Send TX's SQL command at tx->pc. False: the client was aborted. */
bool tpcb_exec_send(struct tpcb_client *c, struct tpcb_tx *tx, uint64_t now);
/* Prepare (blocking, once per connection) the commands of script SC from
 * FIRST to before LAST. False: the client was aborted. */
bool tpcb_exec_prepare(struct tpcb_client *c, const struct tpcb_script *sc, int first, int last);
/* \gset/\aset of command K from result R into the variables. False: aborted. */
bool tpcb_exec_store(struct tpcb_client *c, const struct tpcb_tx *tx, const struct tpcb_cmd *k,
		     const PGresult *r);
/* The time a \sleep of TX at tx->pc asks for, in µs: >= 0, or -1 (aborted). */
int64_t tpcb_exec_sleep_us(struct tpcb_client *c, const struct tpcb_tx *tx);
/* -r: count command PC of TX as ended at NOW (started at tx->cmd_ns). */
void tpcb_exec_count(struct tpcb_client *c, struct tpcb_tx *tx, int pc, uint64_t now);

#endif
