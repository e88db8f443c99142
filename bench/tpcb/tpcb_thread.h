/*
 * tpcb_thread: one -j thread of a TPC-B run. It connects its share of the
 * clients, waits with the others until every thread is connected, then runs
 * an event loop: epoll over its clients' sockets, with a timeout that never
 * passes the next scheduled start (-R), the end of -T or the next check
 * (the stop flag, waits longer than the bound). Clients that ended a
 * transaction without waiting (meta-commands only) are kicked again before
 * the next wait, which then does not sleep. It counts into its own stats,
 * publishes live counters for -P and writes its pgbench_log file (sampled
 * with --sampling-rate from its own generator, as pgbench's). No locks on
 * the hot path; stats are merged after the join. --exit-on-abort: a client
 * aborted anywhere stops every thread.
 */
#ifndef BENCH_TPCB_TPCB_THREAD_H
#define BENCH_TPCB_TPCB_THREAD_H

#include <pthread.h>
#include <stdio.h>

#include "bench/tpcb/tpcb_client.h"

/*
 * What every thread of one run shares. The threads meet at a gate once
 * connected: the runner waits until all have arrived, sets the start, then
 * opens it. Read-only after that, but for the atomic counters.
 */
struct tpcb_shared {
	const struct tpcb_config *cfg;
	const struct server      *srv;
	long long          scale;
	int64_t            default_seed;
	int                abort_all;        /* atomic: --exit-on-abort and a client aborted */
	pthread_mutex_t    lock;
	pthread_cond_t     cond;
	int                arrived, open;    /* under lock */
	int                connect_failed;   /* under lock; fixed once open */
	int                finished;         /* atomic: threads done */
	uint64_t           start_ns, end_ns; /* end_ns: -T; 0 with -t */
	int64_t            epoch_offset_ns;  /* Unix time = monotonic + this */
};

struct tpcb_thread {
	int                 id;
	struct tpcb_shared *sh;
	struct tpcb_client *clients;
	int                 nclients, first_id, running;
	struct tpcb_ctx     ctx;
	struct tpcb_stats   stats;
	struct tpcb_live    live, live_own;  /* live: what -P reads */
	struct tpcb_schedule schedule;
	struct tpcb_prng    choose, throttle, sample;   /* pgbench's three per thread */
	const struct tpcb_prng *client_rng;   /* its clients' generators, in order */
	FILE               *log;
	struct tpcb_agg     agg;
	int                 epfd;
	bool                wakes;           /* clients may want a kick: -R, \sleep, meta-only scripts */
	uint64_t            end_ns, stop_deadline_ns, next_check_ns;
	int                 aborted;
	char                abort_msg[512];
	char                err[1024];
	int                 ret;
	pthread_t           tid;
};

/* Set up thread ID over clients FIRST .. FIRST+N-1 (LOG may be NULL);
 * RNG: the thread's generators (choose, throttle, sample), CLIENT_RNG the
 * clients' (all of the run's, by client id). 0 or -ENOMEM. */
int tpcb_thread_init(struct tpcb_thread *t, struct tpcb_shared *sh, int id,
		     struct tpcb_client *clients, int first, int n, FILE *log,
		     const struct tpcb_prng rng[3], const struct tpcb_prng *client_rng);
void tpcb_thread_free(struct tpcb_thread *t);

/* The thread's body, for pthread_create. */
void *tpcb_thread_main(void *arg);

#endif
