/*
 * tpcb_client: one client of a TPC-B run, a small state machine over one
 * libpq connection in nonblocking mode. Without a pipeline it sends a
 * transaction's statements one at a time, the next when the previous one's
 * result is in; with --pipeline N it keeps up to N transactions in flight,
 * each one's statements followed by a sync, in libpq's pipeline mode.
 * Serialization and deadlock failures are retried (--max-tries) with the
 * same values; a block left in error is rolled back first. Any other error,
 * a lost connection or a wait longer than the bound ends the client with a
 * message naming it; the thread's other clients go on. Nothing here blocks
 * once connected: the thread calls in when the socket is ready or a
 * scheduled start (-R) is due.
 */
#ifndef BENCH_TPCB_TPCB_CLIENT_H
#define BENCH_TPCB_TPCB_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "bench/pg/server.h"
#include "bench/tpcb/tpcb_script.h"
#include "bench/tpcb/tpcb_stats.h"

/* What a thread shares with its clients. */
struct tpcb_ctx {
	const struct tpcb_config *cfg;
	const struct tpcb_script *script;
	long long  scale;
	bool       ending;              /* time is up or stopped: start nothing new */
	uint64_t   end_ns;              /* -T: no scheduled start after this; 0: none */
	uint64_t   late_ns;             /* -L in ns; 0: none */
	struct tpcb_schedule *schedule; /* -R; NULL: start at once */
	struct tpcb_stats *stats;       /* per-statement sums go here */
	void     (*tally)(void *arg, const struct tpcb_done *d);
	void      *tally_arg;
};

enum tpcb_cstate { TPCB_C_RUN, TPCB_C_DONE, TPCB_C_ABORTED };

/* A transaction in flight, or waiting to be sent again. */
struct tpcb_tx {
	struct tpcb_params p;
	uint64_t sched_ns, start_ns, stmt_ns;
	int      tries;                 /* 1 on the first try */
	int      stmt;                  /* next statement whose result is due */
	int      fail_stmt;
	enum tpcb_fail fail;
	bool     failed, doomed;        /* doomed: never ran (an earlier one left an error) */
};

struct tpcb_client {
	PGconn   *conn;
	int       fd, id;
	enum tpcb_cstate state;
	struct tpcb_ctx *ctx;
	struct rng rng;
	struct tpcb_tx *ring;           /* in flight, oldest at head */
	struct tpcb_tx *replay;         /* to send again before new ones */
	int       depth, head, count, nreplay;
	uint64_t  started, finished;    /* new transactions begun; ended (log numbering) */
	uint64_t  slot_ns;              /* -R: its next scheduled start, when has_slot */
	uint64_t  busy_since_ns;        /* last send or result */
	bool      has_slot, expect_null, recovering, rolling_back, want_write;
	bool      watch_out, retired;   /* the thread's: EPOLLOUT armed; out of its loop */
	char      msg[512];             /* why it was aborted */
	char      sql[TPCB_STMT_MAX + 4 * TPCB_NUM_MAX];
};

/*
 * Connect client ID (prepare its statements with -M prepared, enter
 * pipeline mode with --pipeline) and seed its generator. 0 or -EIO with ERR.
 */
int tpcb_client_open(struct tpcb_client *c, struct tpcb_ctx *ctx, int id,
		     uint64_t seed, const struct server *s, char *err, size_t errlen);
void tpcb_client_close(struct tpcb_client *c);

/* Start whatever may start now (first call, a due -R slot, the end). */
void tpcb_client_kick(struct tpcb_client *c, uint64_t now);
/* The socket is readable: take the results in and act on them. */
void tpcb_client_input(struct tpcb_client *c, uint64_t now);
/* The socket is writable: push out what libpq still holds. */
void tpcb_client_output(struct tpcb_client *c);

/* When it wants a kick (its -R slot); 0 when it waits for nothing but the socket. */
uint64_t tpcb_client_wake_ns(const struct tpcb_client *c);

/* Abort it if it has waited for the server longer than BOUND_NS. */
void tpcb_client_check_wait(struct tpcb_client *c, uint64_t now, uint64_t bound_ns);

/* Give up on what is in flight (the run is being stopped). */
void tpcb_client_abandon(struct tpcb_client *c);

#endif
