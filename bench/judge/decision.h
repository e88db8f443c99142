/*
 * decision: which value to recommend, from times paired within rounds.
 * Input: per query, per value, per round one time in ms (NAN: no run, or a
 * run left out). Per query the log times are fitted by a value + round
 * model (rounds are blocks: the drift between rounds cancels), its residual
 * variance pooled over the values; each value is compared with every other
 * on the rounds both ran, with one-sided bounds from Student's t. A value's
 * regret in a query is its time over the best other value's: the largest
 * paired ratio. The answer is the smallest value whose regret's upper bound
 * is within 1 + margin in every query. When none is shown within, the
 * margin applies to the worst case: the smallest value whose worst-case
 * regret is shown within the margin of the least worst case, decided at
 * that price once every smaller value is shown outside the margin in some
 * query (or none can be within at all). A value racing dropped counts as
 * shown out. Racing drops the values that cannot be the answer. No I/O; ms
 * and ratios only.
 */
#ifndef BENCH_REPORT_DECISION_H
#define BENCH_REPORT_DECISION_H

#include <stddef.h>

#define DECISION_MAX_VALUES  64
#define DECISION_MAX_QUERIES 12
#define DECISION_MAX_ROUNDS  1000
#define DECISION_MARGIN      0.10   /* the default margin (--margin) */
#define DECISION_LEVEL       0.95   /* one-sided bounds of the answer */
#define DECISION_DROP_LEVEL  0.99   /* one-sided bounds of a racing drop (looked at every round) */
#define DECISION_FIRST_RACE  3      /* racing starts after this round */

enum decision_regime {
	DECISION_NONE = 0,    /* no value has figures in every query */
	DECISION_WITHIN,      /* a value is shown within the margin in every query */
	DECISION_OPEN,        /* none shown within yet, but some may be */
	DECISION_PRICE,       /* none can be, or none is and the price is shown: the least worst-case regret */
};

struct decision_input {
	size_t nvalues, nqueries, nrounds;
	const char *values[DECISION_MAX_VALUES];     /* ascending: the smaller first */
	const char *queries[DECISION_MAX_QUERIES];
	/* ms[(q * nvalues + v) * nrounds + k]: round k+1's time of value v in query q */
	const double *ms;
	double margin;                               /* 0.10 for 10% */
	/* The one-sided level of the upper bounds that show a value within the
	 * margin (cell hi, pair_hi): 0 for DECISION_LEVEL; stricter when the
	 * records were looked at more than once (decision_look_level). */
	double level;
	const unsigned char *dropped;                /* per value: no longer run (may be NULL) */
	/* Values to keep when several are within the margin in every query, in
	 * order: the setting in force now, then the version's default (value
	 * indices, (size_t)-1 for none; only when has_prefer). */
	size_t prefer[2];
	int    has_prefer;
	/* Per query, its weight over the largest, in (0, 1] (NULL: every query
	 * 1): where no value is within the margin in every query, a regret R
	 * counts as R^weight in the worst case (bench/judge/classes.h). */
	const double *weight;
};

/* Why the answer is the value it is, when it is within the margin. */
enum decision_choice {
	DECISION_SMALLEST = 0,        /* the smallest value within (or the regime's own rule) */
	DECISION_CURRENT,             /* the setting in force now is within: keep it */
	DECISION_DEFAULT,             /* the version's default is within (and the current one is not) */
};

/* A value's regret in one query: its time over the best other value's. */
struct decision_cell {
	size_t runs;                  /* runs paired with another value's */
	double est, lo, hi;           /* ratio (>= 1) and its 95% one-sided bounds */
	double lo_drop;               /* the lower bound at DECISION_DROP_LEVEL */
	int    fastest;               /* the query's fastest by the fitted model */
};

struct decision_query {
	double sigma;                 /* residual sd of log time, NAN when df < 1 */
	double df;                    /* its degrees of freedom */
	size_t fastest;               /* value index, or (size_t)-1 */
};

struct decision {
	struct decision_cell cell[DECISION_MAX_QUERIES][DECISION_MAX_VALUES];
	struct decision_query q[DECISION_MAX_QUERIES];
	/* pair_hi[q][v][u]: the 95% upper bound of v's time over u's in query q,
	 * paired within rounds (INFINITY when there is none) */
	float  pair_hi[DECISION_MAX_QUERIES][DECISION_MAX_VALUES][DECISION_MAX_VALUES];
	double worst[DECISION_MAX_VALUES], worst_lo[DECISION_MAX_VALUES], worst_hi[DECISION_MAX_VALUES];
	int    complete[DECISION_MAX_VALUES];   /* has paired runs in every query */
	int    good[DECISION_MAX_VALUES];       /* shown acceptable under the regime */
	int    bad[DECISION_MAX_VALUES];        /* shown unacceptable under the regime */
	enum decision_regime regime;
	size_t answer;                          /* value index, or (size_t)-1 */
	int    decided;                         /* the answer is shown and every smaller value out (or dropped) */
	enum decision_choice chosen;            /* WITHIN: by which rule among the values within */
	size_t ntied;                           /* WITHIN: how many values are shown within */
	double best_worst;                      /* PRICE: the least worst-case regret (point) */
};

/* The one-sided Student's t quantile at LEVEL (in (0.5, 1)) for DF >= 1:
 * 0.95 and 0.99 from the standard tables, any other by inverting the
 * distribution function (the regularized incomplete beta). */
double decision_t(double level, double df);

/*
 * The level of the bounds that show a value within the margin when a run
 * may look at its records LOOKS times and stop at the first look that
 * decides (racing: from round DECISION_FIRST_RACE to --max-runs): each
 * look spends an equal share of the error, 1 - (1 - DECISION_LEVEL) /
 * LOOKS (a union bound over the looks: the chance of calling a value at
 * the margin within at any of them is at most 1 - DECISION_LEVEL).
 * DECISION_LEVEL for one look.
 */
double decision_look_level(int looks);

/* Decide from IN into OUT. 0, or -EINVAL (sizes out of range, margin <= 0). */
int decision_make(const struct decision_input *in, struct decision *out);

/* How many decisions this process has made (calls of decision_make): the
 * judge makes them, the renderers only read them (tests/test_verdict.c
 * counts them across a rendering). */
unsigned long decision_count(void);

/* Why a value left the race. */
enum decision_drop {
	DECISION_KEEP = 0,
	DECISION_ABOVE,          /* a smaller kept value is within the margin everywhere */
	DECISION_OUT,            /* shown outside the margin, and another value is shown better */
};

/*
 * Racing after a round: for each value not yet dropped, whether it can no
 * longer be the answer, into WHY[v] (DECISION_KEEP when it stays) and BY[v]
 * (the value that beats it, or (size_t)-1). D from decision_make on the same
 * input. Returns how many values it drops.
 */
size_t decision_race(const struct decision_input *in, const struct decision *d,
		     enum decision_drop *why, size_t *by);

/*
 * The leading value: the answer when there is one, else the kept complete
 * value of least worst-case regret (the smaller on a tie); (size_t)-1 when
 * no value has figures in every query.
 */
size_t decision_leader(const struct decision_input *in, const struct decision *d);

/*
 * Refining a coarse grid: the values of LADDER (NLADDER of them, ascending)
 * next to LEADER in it that the grid (GRID, NGRID values) lacks, into OUT;
 * the one below it only, when BELOW_ONLY (an answer within the margin in
 * every query: a larger value cannot be the smallest such). None when
 * LEADER is not on the ladder. Returns how many.
 */
size_t decision_neighbours(const int *ladder, size_t nladder, int leader, const int *grid, size_t ngrid,
			   int below_only, int *out);

#endif
