/*
 * regret: the decision (bench/judge/decision.h) made from sweep records.
 * Each column is one series of a loaded sweep (a query, or a query with
 * other settings fixed): its trials' whole-query times (EXPLAIN's
 * execution time: what users wait for; the heap phase explains it in the
 * report) by value and round, priming trials and trials whose plan
 * differed left out. Records made before the unit was the whole query
 * (no plan.decision_unit) are judged on what they were decided on then,
 * the heap phase where every trial has one, so that a published verdict
 * recomputes the same. A disturbance rule fixed in advance
 * flags runs from figures the setting cannot change: on 13-17 the index
 * phase against its median over the series, steal time, and the device's
 * ms per MiB against the value's median. The answer is made without the
 * flagged runs, and again with them (and with them only, said so, when
 * leaving them out leaves no answer, or a value in the race with no round
 * to compare it in); the racing history is read from the
 * sweeps' meta.json, and a value that left a sweep's race counts as out in
 * the decision, as it did when it left. Reads records only.
 */
#ifndef BENCH_REPORT_REGRET_H
#define BENCH_REPORT_REGRET_H

#include <stddef.h>

#include "bench/judge/decision.h"
#include "bench/judge/result.h"

#define REGRET_INDEX_X     1.5    /* an index phase this many times its median */
#define REGRET_STEAL_PCT   10.0   /* steal time above this share of the CPUs */
#define REGRET_MS_PER_MIB_X 2.0   /* the device this many times slower per MiB than the value's median */
#define REGRET_MAX_FLAGS   64
#define REGRET_MAX_DROPS   DECISION_MAX_VALUES

struct regret_flag {
	size_t q, v;                  /* column and value */
	int    round;
	char   why[160];              /* "its index phase took 612 ms, 2.6x the median 235 ms" */
};

struct regret_drop {
	char   value[32];
	char   query[96];             /* the sweep it left */
	int    after_round;
	char   why[200];
};

struct regret {
	struct decision_input in;
	double *ms, *ms_all;          /* without and with the flagged runs */
	struct decision d;            /* without the flagged runs */
	struct decision d_all;        /* with them */
	int    differ;                /* the two answers differ */
	int    kept_flagged;          /* without the flagged runs there was no answer, or a value
					 in the race had no round left to compare it in: d is d_all */
	struct regret_flag flags[REGRET_MAX_FLAGS];
	size_t nflags;
	size_t priming;               /* priming trials left out */
	int    rounds;                /* the largest round recorded */
	int    qrounds[DECISION_MAX_QUERIES];   /* per column */
	struct regret_drop drops[REGRET_MAX_DROPS];
	size_t ndrops;
	struct regret_drop joins[REGRET_MAX_DROPS];   /* values that joined the race (query ""), the first column's */
	size_t njoins;
	char   ladder[256];           /* the refining ladder ("0, 1, 4, 16"), "" when none */
	int    looks;                 /* the looks racing could make at the records (1: one) */
	unsigned char dropped[DECISION_MAX_VALUES];   /* left some sweep's race: counts as out */
	char   values[DECISION_MAX_VALUES][32];
	char   names[DECISION_MAX_QUERIES][96];
	const struct sweep_result *reps[DECISION_MAX_QUERIES];
	size_t series[DECISION_MAX_QUERIES];
	double weight[DECISION_MAX_QUERIES];   /* each column's weight as recorded (classes.h) */
	double weight_rel[DECISION_MAX_QUERIES]; /* over the largest: in.weight when they differ */
};

/*
 * The decision over N columns: series SERIES[i] of REPS[i], named
 * NAMES[i], with MARGIN (0.10 for 10%). The values are those of the first
 * column's swept setting, by number. 0, -EINVAL with ERR, -ENOMEM. Free
 * with regret_free().
 */
/* The index of VALUE among G's values, or (size_t)-1 (VALUE NULL or not
 * swept). */
size_t regret_value_index(const struct regret *g, const char *value);

int regret_build(const struct sweep_result *const *reps, const size_t *series, const char *const *names,
		 size_t n, double margin, struct regret *out, char *err, size_t errlen);
void regret_free(struct regret *g);

/* 1 when R's records are decided on the whole query's time
 * (plan.decision_unit "execution", as every sweep writes now); 0: on the
 * measured time of older records (the heap phase where every trial has
 * one). */
int regret_whole_query(const struct sweep_result *r);

/* How many times racing could look at a folder's records and stop: from
 * its first racing round to --max-runs (plan.racing.from_round,
 * plan.max_runs); 1 without racing. The decision's bounds are widened for
 * them (decision_look_level). */
int regret_looks_of(const struct sweep_result *r);

/* The effective_io_concurrency in force where R's records were made: the
 * tablespace's own value, else the server's, into BUF; NULL when not
 * recorded. */
const char *regret_current_of(const struct sweep_result *r, char *buf, size_t len);

/* The margin a folder's records were run with (plan.racing.margin), else
 * DECISION_MARGIN. */
double regret_margin_of(const struct sweep_result *r);

/* "1.9x" style: a ratio as printed everywhere (2 decimals below 10). */
const char *regret_fmt_x(char *buf, size_t len, double x);

#endif
