/*
 * test_decision: the decision rule on simulated sweeps (seeded, 1,000 each)
 * and on hand-made tables. A simulated trial takes true ratio x base x
 * exp(round drift + noise), the drift N(0, 0.1) shared by a round's trials,
 * the noise N(0, sigma) per trial: sigma is the noise of one trial once the
 * round's drift is paired away. Prints the figures it measures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/judge/decision.h"
#include "io/rng.h"

#define SWEEPS 1000
#define DRIFT  0.1
#define MAXR   12

static const char *names[] = { "0", "1", "4", "16", "64", "256", "1000", "2", "8", "32" };

static double gauss(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

struct sim {
	size_t nv, nq, rounds;
	const double *truth;          /* [q][v] */
	double sigma;
	double ms[DECISION_MAX_QUERIES * 16 * MAXR];
	unsigned char dropped[16];
	struct decision_input in;
};

static void sim_init(struct sim *s, size_t nq, size_t nv, const double *truth, double sigma)
{
	memset(s, 0, sizeof(*s));
	s->nq = nq, s->nv = nv, s->truth = truth, s->sigma = sigma;
	for (size_t i = 0; i < sizeof(s->ms) / sizeof(s->ms[0]); i++)
		s->ms[i] = NAN;
	s->in = (struct decision_input){ .nvalues = nv, .nqueries = nq, .nrounds = MAXR,
					 .ms = s->ms, .margin = DECISION_MARGIN, .dropped = s->dropped };
	for (size_t v = 0; v < nv; v++)
		s->in.values[v] = names[v];
}

/* One round of every kept value in every query; returns the trials run. */
static size_t sim_round(struct sim *s, struct rng *r)
{
	size_t k = s->rounds++, n = 0;

	for (size_t q = 0; q < s->nq; q++) {
		double drift = DRIFT * gauss(r);

		for (size_t v = 0; v < s->nv; v++)
			if (!s->dropped[v]) {
				s->ms[(q * s->nv + v) * MAXR + k] = 1000 * s->truth[q * s->nv + v] *
								   exp(drift + s->sigma * gauss(r));
				n++;
			}
	}
	return n;
}

/* How often value V is called within the margin after ROUNDS rounds. */
static double within_rate(size_t nv, const double *truth, double sigma, size_t rounds, size_t v,
			  uint64_t seed)
{
	struct rng r;
	struct sim s;
	struct decision d;
	int within = 0;

	rng_seed(&r, seed);
	for (int i = 0; i < SWEEPS; i++) {
		sim_init(&s, 1, nv, truth, sigma);
		for (size_t k = 0; k < rounds; k++)
			sim_round(&s, &r);
		assert_int_equal(decision_make(&s.in, &d), 0);
		within += d.cell[0][v].hi <= 1 + DECISION_MARGIN;
	}
	return (double)within / SWEEPS;
}

static void t_quantiles(void **state)
{
	(void)state;
	assert_true(fabs(decision_t(0.95, 2) - 2.920) < 1e-9);
	assert_true(fabs(decision_t(0.99, 30) - 2.457) < 1e-9);
	/* the expansion past the table meets the table's last entries */
	assert_true(fabs(decision_t(0.95, 31) - 1.696) < 2e-3);
	assert_true(fabs(decision_t(0.99, 31) - 2.453) < 4e-3);
	assert_true(fabs(decision_t(0.95, 1e6) - 1.6449) < 1e-3);
	assert_true(isnan(decision_t(0.95, 0)));
	/* any other level by inverting the distribution: the tables again, and
	 * known quantiles (0.995: 63.657 at 1, 3.169 at 10) */
	assert_true(fabs(decision_t(0.9500001, 2) - 2.920) < 1e-3);
	assert_true(fabs(decision_t(0.9900001, 25) - 2.485) < 1e-3);
	assert_true(fabs(decision_t(0.995, 1) - 63.657) < 1e-2);
	assert_true(fabs(decision_t(0.995, 10) - 3.169) < 1e-3);
	assert_true(decision_t(0.99375, 20) > decision_t(0.99, 20));
	assert_true(isnan(decision_t(1.0, 10)));
	/* the looks share the error equally */
	assert_true(fabs(decision_look_level(8) - 0.99375) < 1e-12);
	assert_true(decision_look_level(1) == DECISION_LEVEL && decision_look_level(0) == DECISION_LEVEL);
}

/* 3 paired rounds, sigma 0.2: a value truly 1.25x slower is rarely within. */
static void slow_value_rarely_within(void **state)
{
	static const double grid5[] = { 1.0, 1.25, 1.5, 2.0, 3.0 };
	static const double pair[] = { 1.0, 1.25 };
	double p5 = within_rate(5, grid5, 0.2, 3, 1, 11), p2 = within_rate(2, pair, 0.2, 3, 1, 12);

	(void)state;
	print_message("# 3 rounds, sigma 0.2, truly 1.25x: called within the margin in %.1f%% of %d sweeps (5 values), %.1f%% (2 values)\n",
		      p5 * 100, SWEEPS, p2 * 100);
	assert_true(p5 <= 0.05);
	assert_true(p2 <= 0.05);
}

/* 6 rounds, sigma 0.05: a value truly 1.02x is mostly within. */
static void close_value_mostly_within(void **state)
{
	static const double grid5[] = { 1.0, 1.02, 1.5, 2.0, 3.0 };
	static const double grid7[] = { 1.7, 2.5, 1.3, 1.0, 1.02, 1.3, 1.6 };
	static const double pair[] = { 1.0, 1.02 };
	double p5 = within_rate(5, grid5, 0.05, 6, 1, 21), p7 = within_rate(7, grid7, 0.05, 6, 4, 22);
	double p2 = within_rate(2, pair, 0.05, 6, 1, 23);
	static const double grid4[] = { 1.02, 1.0, 1.5, 2.0 };   /* run's first grid, 0 1 16 256 */
	double p4 = within_rate(4, grid4, 0.05, 6, 0, 24);

	(void)state;
	print_message("# 6 rounds, sigma 0.05, truly 1.02x: called within the margin in %.1f%% (5 values), %.1f%% (7 values), %.1f%% (4 values), %.1f%% (2 values: 5 degrees of freedom)\n",
		      p5 * 100, p7 * 100, p4 * 100, p2 * 100);
	/* over run's first grid and the seven values it may grow to; with fewer
	 * values the pooled variance has fewer degrees of freedom (the figures
	 * above say how much less) */
	assert_true(p4 >= 0.80);
	assert_true(p7 >= 0.80);
	assert_true(p5 >= 0.75);
}

/* A noisier value does not pass more often than a steady one. */
static void noisy_value_not_favoured(void **state)
{
	static const double grid[] = { 1.0, 1.25, 1.5, 2.0, 3.0 };
	struct rng r;
	struct sim s;
	struct decision d;
	int within = 0;

	(void)state;
	rng_seed(&r, 31);
	for (int i = 0; i < SWEEPS; i++) {
		sim_init(&s, 1, 5, grid, 0.1);
		for (size_t k = 0; k < 3; k++) {
			sim_round(&s, &r);
			/* value 1 three times as noisy as the others */
			s.ms[1 * MAXR + k] *= exp(0.2 * gauss(&r));
		}
		assert_int_equal(decision_make(&s.in, &d), 0);
		within += d.cell[0][1].hi <= 1 + DECISION_MARGIN;
	}
	print_message("# 3 rounds, a 1.25x value with sigma 0.22 among values with 0.1: within in %.1f%%\n",
		      100.0 * within / SWEEPS);
	assert_true(within <= SWEEPS / 20);
}

/* Two values that share no round are compared through the model: a value
 * far slower in its own rounds is still out, one alike is not shown within
 * from a single run. */
static void unpaired_values(void **state)
{
	/* 4 rounds of values 0, 1, 2; 1 left out in rounds 1-2, 2 in rounds 3-4 */
	double ms[3 * 4] = { 100, 102, 99, 101,  NAN, NAN, 100, 102,  300, 305, NAN, NAN };
	struct decision_input in = { .nvalues = 3, .nqueries = 1, .nrounds = 4, .ms = ms,
				     .margin = DECISION_MARGIN, .values = { "0", "1", "2" } };
	struct decision d;

	(void)state;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_true(isfinite(d.cell[0][1].hi));
	assert_true(d.cell[0][2].lo > 2.5);          /* 3x the others, though never beside 1 */
	assert_true(d.bad[2]);
	assert_true(d.cell[0][1].est < 1.05);
}

/*
 * A value racing dropped counts as out. One query, 4 rounds: 1 is the
 * fastest, 2 within 2% of it, and 0 1.10x, at the margin, so its lower bound
 * is not above it: 0 is neither within nor out, and the answer, 1, waits
 * for it unless racing dropped 0.
 */
static void dropped_counts_as_out(void **state)
{
	double ms[3 * 4] = { 110, 112, 108, 111,  100, 101, 99, 100,  102, 103, 101, 102 };
	unsigned char dropped[3] = { 0 };
	struct decision_input in = { .nvalues = 3, .nqueries = 1, .nrounds = 4, .ms = ms,
				     .margin = DECISION_MARGIN, .values = { "0", "1", "2" }, .dropped = dropped };
	struct decision d;

	(void)state;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(d.regime, DECISION_WITHIN);
	assert_int_equal(d.answer, 1);
	assert_false(d.bad[0]);
	assert_false(d.decided);
	dropped[0] = 1;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(d.answer, 1);
	assert_true(d.decided);
}

/*
 * Refining a coarse grid: the leader is the answer, else the least worst
 * case among the kept values; its neighbours on the ladder that the grid
 * lacks join, the one above only when no answer is within the margin.
 */
static void neighbours_of_the_leader(void **state)
{
	static const int ladder[] = { 0, 1, 4, 16, 64, 256, 1000 };
	static const int coarse[] = { 0, 1, 16, 256 };
	/* one query: 16 fastest, 0 2x, 1 1.5x, 256 1.3x */
	double ms[4 * 4] = { 200, 202, 198, 201,  150, 151, 149, 150,  100, 101, 99, 100,  130, 131, 129, 130 };
	unsigned char dropped[4] = { 0 };
	struct decision_input in = { .nvalues = 4, .nqueries = 1, .nrounds = 4, .ms = ms, .margin = DECISION_MARGIN,
				     .values = { "0", "1", "16", "256" }, .dropped = dropped };
	struct decision d;
	int out[4];

	(void)state;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(decision_leader(&in, &d), 2);
	/* within the margin: only the one below may be a smaller answer */
	assert_int_equal(decision_neighbours(ladder, 7, 16, coarse, 4, 1, out), 1);
	assert_int_equal(out[0], 4);
	assert_int_equal(decision_neighbours(ladder, 7, 16, coarse, 4, 0, out), 2);
	assert_int_equal(out[0], 4);
	assert_int_equal(out[1], 64);
	/* 0 has no neighbour below, and 1 is in the grid already */
	assert_int_equal(decision_neighbours(ladder, 7, 0, coarse, 4, 0, out), 0);
	assert_int_equal(decision_neighbours(ladder, 7, 256, coarse, 4, 0, out), 2);
	assert_int_equal(out[0], 64);
	assert_int_equal(out[1], 1000);
	/* a leader off the ladder has none */
	assert_int_equal(decision_neighbours(ladder, 7, 8, coarse, 4, 0, out), 0);
	/* no answer yet: the least worst case among the values still in the
	 * race leads, a dropped one never */
	d.answer = (size_t)-1;
	d.worst[0] = 2.0, d.worst[1] = 1.5, d.worst[2] = 1.1, d.worst[3] = 1.3;
	assert_int_equal(decision_leader(&in, &d), 2);
	dropped[2] = 1;
	assert_int_equal(decision_leader(&in, &d), 3);
	d.complete[3] = 0;	/* figures in every query, or it cannot lead */
	assert_int_equal(decision_leader(&in, &d), 1);
}

/*
 * Decided at a price on a value whose worst case sits at the margin: blog
 * prefers 0, sparse 2; 2 costs blog 1.12x, which can be shown neither
 * within 1.10x nor above it, and 0 and 1 are far out in sparse. 2 is shown
 * as cheap at worst as 0 and 1, and decided at that price.
 */
static void price_at_the_margin(void **state)
{
	/* q0 (blog): 0 fastest, 1 1.30x, 2 1.12x; q1 (sparse): 0 2.5x, 1 1.4x, 2 fastest */
	double ms[2 * 3 * 6] = {
		100, 101, 99, 100, 102, 98,   130, 131, 129, 132, 128, 130,   106, 119.2, 106.9, 116, 112.2, 111.7,
		250, 252, 248, 251, 249, 250, 140, 141, 139, 142, 138, 140,   100, 101, 99, 100, 102, 98,
	};
	struct decision_input in = { .nvalues = 3, .nqueries = 2, .nrounds = 6, .ms = ms,
				     .margin = DECISION_MARGIN, .values = { "0", "1", "2" } };
	struct decision d;

	(void)state;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_true(d.cell[0][2].lo < 1 + DECISION_MARGIN);   /* not shown out */
	assert_true(d.cell[0][2].hi > 1 + DECISION_MARGIN);   /* not shown within */
	assert_int_equal(d.regime, DECISION_PRICE);
	assert_int_equal(d.answer, 2);
	assert_true(d.decided);
	assert_true(d.good[2]);
	assert_false(d.good[1]);
}

/* ---- racing against the fixed design ---- */

struct outcome {
	size_t answer;
	int decided;
	size_t trials;
	size_t rounds;
	enum decision_regime regime;
};

static struct outcome run_design(const struct sim *proto, struct rng *r, size_t max_rounds, int race)
{
	struct sim s = *proto;

	if (race && !s.in.level)	/* the looks racing may make, as regret_build counts them */
		s.in.level = decision_look_level((int)max_rounds - DECISION_FIRST_RACE + 1);
	struct decision d;
	enum decision_drop why[16];
	size_t by[16];
	struct outcome o = { 0 };

	s.in.ms = s.ms;
	s.in.dropped = s.dropped;
	for (size_t k = 0; k < max_rounds; k++) {
		o.trials += sim_round(&s, r);
		assert_int_equal(decision_make(&s.in, &d), 0);
		if (!race || s.rounds < DECISION_FIRST_RACE)
			continue;
		decision_race(&s.in, &d, why, by);
		if (d.decided)
			break;
		for (size_t v = 0; v < s.nv; v++)
			s.dropped[v] |= why[v] != DECISION_KEEP;
	}
	o.answer = d.answer;
	o.decided = d.decided;
	o.rounds = s.rounds;
	o.regime = d.regime;
	return o;
}

static void race_scenario(const char *name, size_t nq, size_t nv, const double *truth,
			  double sigma, uint64_t seed, int asserted)
{
	struct rng r1, r2;
	struct sim proto;
	size_t same = 0, fixed_trials = 0, race_trials = 0, decided = 0;

	rng_seed(&r1, seed);
	rng_seed(&r2, seed + 1000);
	sim_init(&proto, nq, nv, truth, sigma);
	for (int i = 0; i < SWEEPS; i++) {
		struct outcome f = run_design(&proto, &r1, 10, 0), g = run_design(&proto, &r2, 10, 1);

		same += f.answer == g.answer;
		if (f.answer != g.answer && getenv("DECISION_DEBUG"))
			print_message("#   fixed %s (%s), racing %s (%s)\n", names[f.answer], f.decided ? "decided" : "open",
				      names[g.answer], g.decided ? "decided" : "open");
		decided += g.decided;
		fixed_trials += f.trials;
		race_trials += g.trials;
	}
	print_message("# racing, %s, sigma %.2f: the fixed design's answer (10 rounds) in %.1f%% of %d sweeps, with %.1f%% of its trials (decided in %.1f%%)\n",
		      name, sigma, 100.0 * same / SWEEPS, SWEEPS, 100.0 * race_trials / fixed_trials,
		      100.0 * decided / SWEEPS);
	if (!asserted)
		return;
	assert_true(same >= SWEEPS * 95 / 100);
	assert_true(race_trials <= fixed_trials * 60 / 100);
}

/* Over the coarse grid 0 1 4 16 64 256 1000. */
static void racing_matches_fixed(void **state)
{
	/* a sparse query bound by concurrency, a dense one flat (18) */
	static const double two[] = {
		1.70, 2.50, 1.30, 1.00, 1.02, 1.05, 1.08,
		1.02, 1.04, 1.03, 1.00, 1.01, 1.02, 1.04,
	};
	/* one query bound by readahead: 0 wins, prefetching costs 1.6x (15) */
	static const double readahead[] = { 1.00, 1.77, 1.63, 1.70, 1.70, 1.70, 1.70 };
	/* one query bound by concurrency: 16 and above within, 16 the smallest */
	static const double concurrency[] = { 1.70, 2.50, 1.30, 1.00, 1.02, 1.05, 1.08 };
	/* the presets disagree; 4 costs least at worst (1.3x), the others 1.5x and more */
	static const double disagree[] = {
		1.70, 2.50, 1.25, 1.00, 1.02, 1.05, 1.08,
		1.00, 1.77, 1.30, 1.50, 1.50, 1.50, 1.50,
	};

	(void)state;
	race_scenario("two queries, one value within in both", 2, 7, two, 0.05, 41, 1);
	race_scenario("one query bound by readahead", 1, 7, readahead, 0.05, 43, 1);
	race_scenario("one query bound by concurrency", 1, 7, concurrency, 0.05, 44, 1);
	race_scenario("two queries, one value within in both", 2, 7, two, 0.10, 45, 0);
	race_scenario("presets that disagree", 2, 7, disagree, 0.05, 42, 0);
}

/* The true worst-case regret of value V over the truth table (queries NQ). */
static double true_worst(const double *truth, size_t nq, size_t nv, size_t v)
{
	double w = 1;

	for (size_t q = 0; q < nq; q++) {
		double best = INFINITY;

		for (size_t u = 0; u < nv; u++)
			best = fmin(best, truth[q * nv + u]);
		w = fmax(w, truth[q * nv + v] / best);
	}
	return w;
}

/*
 * No value within the margin in both queries, one close to it: the heap
 * phases of the full data set's make run of 2026-12-02 (blog's fastest 0,
 * the kernel's readahead; sparse's 256; 256 at blog's figure, 1.12x), whose
 * 20 rounds ended open with 256's bound in blog at 1.09-1.16x. Racing decides at a price, on a value
 * whose true worst case is within the margin of the least.
 */
static void price_decided(void **state)
{
	static const double full[] = {
		1.00, 2.03, 1.21, 1.22, 1.195, 1.12, 1.16,
		2.28, 6.38, 2.44, 1.28, 1.127, 1.00, 1.013,
	};
	double best = INFINITY;
	struct rng r;
	struct sim proto;
	size_t decided = 0, price = 0, by6 = 0, near = 0, rounds = 0, on[7] = { 0 };

	(void)state;
	for (size_t v = 0; v < 7; v++)
		best = fmin(best, true_worst(full, 2, 7, v));
	rng_seed(&r, 51);
	sim_init(&proto, 2, 7, full, 0.06);
	for (int i = 0; i < SWEEPS; i++) {
		struct outcome o = run_design(&proto, &r, 10, 1);

		if (!o.decided)
			continue;
		decided++;
		price += o.regime == DECISION_PRICE;
		by6 += o.rounds <= 6;
		rounds += o.rounds;
		on[o.answer]++;
		near += true_worst(full, 2, 7, o.answer) <= (1 + DECISION_MARGIN) * best;
	}
	print_message("# the full run's medians, sigma 0.06: decided in %.1f%% of %d sweeps (%zu at a price; %.1f%% by round 6, %.1f rounds on average), on 64 %zu, 256 %zu, 1000 %zu times; the answer's true worst case within the margin of the least in %.1f%% of those decided\n",
		      100.0 * decided / SWEEPS, SWEEPS, price, 100.0 * by6 / SWEEPS, decided ? (double)rounds / decided : 0,
		      on[4], on[5], on[6], decided ? 100.0 * near / decided : 0);
	/* with the looks' bounds (decision_look_level): 76.8% by round 6, 5.1
	 * rounds on average, where one look's bounds decided 88.1% by round 6
	 * (4.2 rounds) and were wrong more often at the margin */
	assert_true(by6 >= SWEEPS * 75 / 100);
	assert_true(near >= decided * 95 / 100);
}

/*
 * Racing looks at the records after every round from the third to the
 * tenth and stops at the first look that decides. 0 is 1.10x the fastest
 * (at the margin) and must be called within at most 5% of the time over
 * all the looks; with the bounds of one look each time it is called within
 * about three times that. The price: a 1.02x value decided less often.
 */
static size_t margin_called_within(double sigma, double level, uint64_t seed, size_t *power_rounds,
				   double *power)
{
	static const double at_margin[] = { 1.10, 1.00, 1.30, 1.60 };
	static const double close[] = { 1.02, 1.00, 1.30, 1.60 };
	struct rng r;
	struct sim proto;
	size_t within = 0, decided = 0, rounds = 0;

	rng_seed(&r, seed);
	sim_init(&proto, 1, 4, at_margin, sigma);
	proto.in.level = level;
	for (int i = 0; i < SWEEPS; i++) {
		struct outcome o = run_design(&proto, &r, 10, 1);

		within += o.decided && o.answer == 0;
	}
	sim_init(&proto, 1, 4, close, sigma);
	proto.in.level = level;
	for (int i = 0; i < SWEEPS; i++) {
		struct outcome o = run_design(&proto, &r, 10, 1);

		decided += o.decided && o.answer == 0;
		rounds += o.rounds;
	}
	*power = (double)decided / SWEEPS;
	*power_rounds = rounds;
	return within;
}

static void looks_keep_the_error(void **state)
{
	double p_one, p_all;
	size_t r_one, r_all;
	size_t one = margin_called_within(0.05, 0.95, 51, &r_one, &p_one);
	size_t all = margin_called_within(0.05, 0, 51, &r_all, &p_all);
	(void)state;

	print_message("# racing over 8 looks, sigma 0.05: 0 at the margin called within in %.1f%% of %d sweeps with one look's bounds, %.1f%% with the looks' (at most 5%%); a 1.02x 0 decided in %.1f%% (%.1f rounds) and %.1f%% (%.1f rounds)\n",
		      100.0 * one / SWEEPS, SWEEPS, 100.0 * all / SWEEPS, 100 * p_one, (double)r_one / SWEEPS,
		      100 * p_all, (double)r_all / SWEEPS);
	assert_true(one > SWEEPS / 20);		/* uncorrected, the looks inflate the error */
	assert_true(all <= SWEEPS / 20);
}

/*
 * A tie: 1, 16 and 64 are all about as fast (within the margin everywhere),
 * 0 is 1.5x. The answer is the setting in force when it is among them,
 * else the version's default, else the smallest; said as a tie of three.
 */
static void ties_broken_by_the_rule(void **state)
{
	/* 6 rounds of 0, 1, 16, 64; a little noise, the same in every run */
	double ms[4 * 6];
	static const double base[4] = { 1500, 1000, 1010, 1005 };
	static const double wiggle[6] = { 1.00, 1.01, 0.99, 1.02, 0.98, 1.00 };
	struct decision_input in = { .nvalues = 4, .nqueries = 1, .nrounds = 6, .ms = ms,
				     .margin = DECISION_MARGIN, .values = { "0", "1", "16", "64" } };
	struct decision d;
	(void)state;

	for (size_t v = 0; v < 4; v++)
		for (size_t k = 0; k < 6; k++)
			ms[v * 6 + k] = base[v] * wiggle[(k + v) % 6];
	/* no rule given: the smallest within */
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(d.regime, DECISION_WITHIN);
	assert_int_equal(d.ntied, 3);
	assert_int_equal(d.answer, 1);
	assert_int_equal(d.chosen, DECISION_SMALLEST);
	assert_true(d.decided);
	/* the current setting 16 is among them: keep it */
	in.has_prefer = 1;
	in.prefer[0] = 2, in.prefer[1] = 1;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(d.answer, 2);
	assert_int_equal(d.chosen, DECISION_CURRENT);
	assert_true(d.decided);
	/* the current setting 0 is out, the default 64 within */
	in.prefer[0] = 0, in.prefer[1] = 3;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(d.answer, 3);
	assert_int_equal(d.chosen, DECISION_DEFAULT);
	assert_true(d.decided);
	/* neither measured: the smallest */
	in.prefer[0] = (size_t)-1, in.prefer[1] = (size_t)-1;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_int_equal(d.answer, 1);
	assert_int_equal(d.chosen, DECISION_SMALLEST);
	/* the default within while the current one is still open: not decided */
	for (size_t k = 0; k < 6; k++)
		ms[0 * 6 + k] = 1000 * (k % 2 ? 1.25 : 0.97);	/* 0: 1.10x on average, noisy */
	in.prefer[0] = 0, in.prefer[1] = 3;
	assert_int_equal(decision_make(&in, &d), 0);
	assert_false(d.good[0]);
	assert_false(d.bad[0]);
	assert_int_equal(d.answer, 3);
	assert_false(d.decided);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_quantiles),
		cmocka_unit_test(slow_value_rarely_within),
		cmocka_unit_test(close_value_mostly_within),
		cmocka_unit_test(noisy_value_not_favoured),
		cmocka_unit_test(unpaired_values),
		cmocka_unit_test(dropped_counts_as_out),
		cmocka_unit_test(neighbours_of_the_leader),
		cmocka_unit_test(price_at_the_margin),
		cmocka_unit_test(racing_matches_fixed),
		cmocka_unit_test(price_decided),
		cmocka_unit_test(looks_keep_the_error),
		cmocka_unit_test(ties_broken_by_the_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
