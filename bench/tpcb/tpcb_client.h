/*
 * tpcb_client: one client of a TPC-B run: the script engine over one libpq
 * connection in nonblocking mode. A transaction is one run of a script
 * chosen by weight: meta-commands run here (\set, \if, \sleep ...), SQL
 * goes to the server with the variables substituted (simple protocol) or
 * as parameters (extended, prepared), and the client waits for each
 * result unless a \startpipeline of the script is open. With --pipeline N
 * (scripts that never wait on a result) up to N transactions are in flight
 * at once, each one's SQL followed by a sync, in libpq's pipeline mode.
 * Serialization and deadlock failures are retried (--max-tries) with the
 * same random values, as pgbench retries them; a block left in error is
 * rolled back first. Any other error, a failed expression, a lost
 * connection or a wait longer than the bound ends the client with
 * pgbench's message; the thread's other clients go on. Nothing here blocks
 * once connected but -C's connections and -M prepared's first PREPARE of
 * each command, as pgbench's.
 */
#ifndef BENCH_TPCB_TPCB_CLIENT_H
#define BENCH_TPCB_TPCB_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "bench/pg/server.h"
#include "bench/tpcb/tpcb.h"
#include "bench/tpcb/tpcb_stats.h"

/* What a thread shares with its clients. */
struct tpcb_ctx {
	const struct tpcb_config *cfg;
	const struct tpcb_scripts *set;
	const struct server *srv;
	long long  scale;               /* :scale */
	int64_t    default_seed;        /* :default_seed */
	bool       ending;              /* time is up or stopped: start nothing new */
	uint64_t   end_ns;              /* -T: no scheduled start after this; 0: none */
	uint64_t   late_ns;             /* -L in ns; 0: none */
	struct tpcb_schedule *schedule; /* -R; NULL: start at once */
	struct tpcb_prng *choose;       /* the thread's draw of scripts by weight */
	struct tpcb_stats *stats;       /* per-command sums go here */
	double     connections_ns;      /* -C: time spent connecting */
	void     (*tally)(void *arg, const struct tpcb_done *d);
	void      *tally_arg;
};

enum tpcb_cstate { TPCB_C_RUN, TPCB_C_DONE, TPCB_C_ABORTED };

/* Where a client's one running transaction is (no --pipeline). */
enum tpcb_phase {
	TPCB_P_IDLE,                    /* between transactions */
	TPCB_P_RESULT,                  /* an SQL command's results are due */
	TPCB_P_PIPE,                    /* the results of a script's pipeline are due */
	TPCB_P_SLEEP,                   /* \sleep */
	TPCB_P_ROLLBACK,                /* after a failure in a block */
};

/* A transaction in flight, or waiting to be sent again. */
struct tpcb_tx {
	int      script, pc;            /* pc: the command to run next */
	struct tpcb_prng rng0;          /* the client's generator at its start */
	uint64_t sched_ns, start_ns, cmd_ns;
	int      tries;                 /* 1 on the first try */
	int      nsent, next;           /* SQL commands sent; the next whose results are due */
	uint16_t *sent;                 /* their indexes in the script */
	int      fail_cmd;
	enum tpcb_fail fail;
	bool     failed, doomed;        /* doomed: never ran (an earlier one left an error) */
};

struct tpcb_client {
	PGconn   *conn;
	int       fd, id;
	enum tpcb_cstate state;
	enum tpcb_phase phase;
	struct tpcb_ctx *ctx;
	struct tpcb_prng rng;           /* random(), its draws (pgbench's cs_func_rs) */
	struct tpcb_var *vars;          /* by slot */
	bool     *prepared;             /* -M prepared: by command of the set */
	struct tpcb_tx *ring;           /* in flight, oldest at head */
	struct tpcb_tx *replay;         /* to send again before new ones */
	uint16_t *sent_mem;
	int       depth, head, count, nreplay, maxsql;
	uint64_t  started, finished;    /* new transactions begun; ended (log numbering) */
	uint64_t  slot_ns;              /* -R: its next scheduled start, when has_slot */
	uint64_t  wake_ns;              /* \sleep: until when */
	uint64_t  busy_since_ns;        /* last send or result */
	int       pipe_syncs;           /* a script's pipeline: syncs not yet answered */
	PGresult *kept;                 /* \gset: the last result of the command */
	int       nresults;             /* results of the current command */
	bool      has_slot, expect_null, recovering, rolling_back, want_write, ready;
	bool      waited;               /* the transaction waited on the server or a sleep */
	bool      watch_out, retired, registered;   /* the thread's */
	char      msg[512];             /* why it was aborted */
	char     *sql;                  /* the simple protocol's text */
	size_t    sqlcap;
	const char **params;
	char     (*ptext)[TPCB_NUM_MAX];
};

/*
 * Set up client ID (its variables, generator RNG; connect unless -C) and
 * prepare nothing yet. 0 or -EIO / -ENOMEM with ERR.
 */
int tpcb_client_open(struct tpcb_client *c, struct tpcb_ctx *ctx, int id,
		     const struct tpcb_prng *rng, char *err, size_t errlen);
void tpcb_client_close(struct tpcb_client *c);

/* Start whatever may start now (first call, a due -R slot or sleep, the end). */
void tpcb_client_kick(struct tpcb_client *c, uint64_t now);
/* The socket is readable: take the results in and act on them. */
void tpcb_client_input(struct tpcb_client *c, uint64_t now);
/* The socket is writable: push out what libpq still holds. */
void tpcb_client_output(struct tpcb_client *c);

/* When it wants a kick (an -R slot, the end of a \sleep); 0 when it waits
 * for nothing but the socket (or, c->ready, for nothing at all). */
uint64_t tpcb_client_wake_ns(const struct tpcb_client *c);

/* Abort it if it has waited for the server longer than BOUND_NS. */
void tpcb_client_check_wait(struct tpcb_client *c, uint64_t now, uint64_t bound_ns);

/* Give up on what is in flight (the run is being stopped). */
void tpcb_client_abandon(struct tpcb_client *c);

#endif
