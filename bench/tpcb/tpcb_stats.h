/*
 * tpcb_stats: what one thread counts while it runs, merged after the join:
 * transactions by outcome, retries, the latency histogram (ns, from the
 * scheduled start), the schedule lag, per-statement sums. Also the live
 * counters that -P reads from another thread (relaxed atomic stores and
 * loads, no locks), the --aggregate-interval accumulator (microseconds, as
 * pgbench's log), and -R's schedule (pgbench's Poisson gaps in µs).
 */
#ifndef BENCH_TPCB_TPCB_STATS_H
#define BENCH_TPCB_TPCB_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/tpcb/tpcb.h"
#include "bench/tpcb/tpcb_random.h"
#include "io/hist.h"

enum tpcb_outcome { TPCB_OK, TPCB_FAILED, TPCB_SKIPPED };
enum tpcb_fail { TPCB_FAIL_NONE, TPCB_FAIL_SERIALIZATION, TPCB_FAIL_DEADLOCK };

/* A finished transaction, as its client reports it. */
struct tpcb_done {
	int      client, script;
	uint64_t tx_no;                 /* 1, 2, ... per client */
	enum tpcb_outcome outcome;
	enum tpcb_fail fail;
	uint64_t sched_ns, start_ns, end_ns;   /* sched_ns == start_ns without -R */
	int      tries;
};

struct tpcb_stmt_stats {
	uint64_t count, failures, retries;
	double   sum_ns;
};

/* A script's transactions (several scripts: pgbench reports each). */
struct tpcb_script_stats {
	uint64_t committed, failed, ser_failures, dl_failures, skipped, retried, retries;
	double   lat_sum_ns, lat_sum2_ns;
};

struct tpcb_stats {
	uint64_t committed, failed, ser_failures, dl_failures;
	uint64_t retried, retries, skipped, late;
	uint64_t lag_count, lag_max_ns;
	double   lag_sum_ns;
	struct hist latency;
	int      ncmds, nscripts;
	struct tpcb_stmt_stats *stmt;          /* by command, all scripts' */
	struct tpcb_script_stats *script;
};

/* Zeroed, with room for NCMDS commands and NSCRIPTS scripts: 0 or -ENOMEM. */
int tpcb_stats_init(struct tpcb_stats *s, int ncmds, int nscripts);
void tpcb_stats_free(struct tpcb_stats *s);

/* Count D. LATE_NS: the -L limit (0: none); THROTTLED: -R is on (lag counts). */
void tpcb_stats_add(struct tpcb_stats *s, const struct tpcb_done *d,
		    uint64_t late_ns, bool throttled);
void tpcb_stats_merge(struct tpcb_stats *dst, const struct tpcb_stats *src);

/* Running totals for -P; one thread writes, another reads. */
struct tpcb_live {
	uint64_t committed, failed, skipped, retried, retries;
	double   lat_sum_ms, lat_sum2_ms, lag_sum_ms;
};

/* Count D in OWN (the writer's copy) and publish OWN to PUB. */
void tpcb_live_add(struct tpcb_live *pub, struct tpcb_live *own,
		   const struct tpcb_done *d);
/* Add what PUB holds now to ACC. */
void tpcb_live_gather(struct tpcb_live *acc, const struct tpcb_live *pub);
/* -P figures for the interval between snapshots PREV and CUR. */
void tpcb_live_progress(const struct tpcb_live *prev, const struct tpcb_live *cur,
			double interval_s, double elapsed_s, struct tpcb_progress *out);

/* One --aggregate-interval line's sums; latencies and lags in µs. */
struct tpcb_agg {
	int64_t  start_s;               /* Unix time of the interval's start */
	uint64_t count, skipped, retried, retries, ser_failures, dl_failures;
	double   lat_sum, lat_sum2, lat_min, lat_max;
	double   lag_sum, lag_sum2, lag_min, lag_max;
};

void tpcb_agg_reset(struct tpcb_agg *a, int64_t start_s);
void tpcb_agg_add(struct tpcb_agg *a, const struct tpcb_done *d, bool throttled);

/* -R: start times of a Poisson process of RATE per second, as pgbench
 * draws them (gaps of whole microseconds from the thread's generator). */
struct tpcb_schedule {
	struct tpcb_prng rng;
	double     mean_us;
	uint64_t   next_ns;
};

void tpcb_schedule_init(struct tpcb_schedule *s, const struct tpcb_prng *rng, double rate,
			uint64_t start_ns);
/* The next scheduled start. */
uint64_t tpcb_schedule_next(struct tpcb_schedule *s);

#endif
