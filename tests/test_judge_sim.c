/*
 * test_judge_sim: the decision tested where it runs. Each simulated run is
 * written as records (a run's folder with one sweep per query: meta.json
 * and trials.jsonl, seeded, true medians and noise chosen per case), then
 * judged by the real path: the loader (bench/judge/result.c), the
 * disturbance rule and the decision (regret.c, decision.c), the stability
 * (stability.c), through judge_run. Against the truth it counts:
 *
 * - false "within" at the margin: 0 is 1.10x the fastest, and the run
 *   answers 0, decided;
 * - power: 0 is 1.02x the fastest, and the run answers 0, decided, after 6
 *   rounds;
 * - stability's calibration: of the runs that call their answer stable
 *   (at least 80% of the re-drawn rounds agree), the share that an
 *   independent repeat of the same case agrees with (its answer the same,
 *   or within the margin of it in every query by the true medians).
 *
 * Under five kinds of noise: log-normal, Student's t with 3 degrees of
 * freedom (heavy tails), 10% slow trials (1.5-3x), bimodal (half the trials
 * 1.3x) and drift within a round (a trend across its trials). These are
 * one look at a fixed design (6 rounds): racing's looks are
 * tests/test_decision.c's. JUDGE_SIM_RUNS sets the runs per cell (default
 * 40: make check); make bench-judge prints the table with 400.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/judge/judge.h"
#include "io/rng.h"

#define NV 3
#define ROUNDS 6

static const char *values[NV] = { "0", "16", "256" };

enum noise { LOGNORMAL, T3, SLOW, BIMODAL, DRIFT, NNOISE };
static const char *noise_name[NNOISE] = { "log-normal", "t(3)", "10% slow", "bimodal", "drift in a round" };

struct sim_case {
	const char *name;
	int nq;
	const char *queries[2];
	double truth[2][NV];          /* true medians, ms */
};

static double gauss(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* One trial's factor over its true median under noise N (sigma 0.05 of
 * log time where it applies); K: the trial's place in its round. */
static double noise(struct rng *r, enum noise n, int k, double round_drift)
{
	double z;

	switch (n) {
	case T3:	/* t(3) scaled to the same spread: z / sqrt(chi2_3 / 3) / sqrt(3) */
		z = gauss(r) / sqrt((pow(gauss(r), 2) + pow(gauss(r), 2) + pow(gauss(r), 2)) / 3) / sqrt(3);
		return exp(round_drift + 0.05 * z);
	case SLOW:
		return exp(round_drift + 0.05 * gauss(r)) * (rng_double(r) < 0.10 ? 1.5 + 1.5 * rng_double(r) : 1);
	case BIMODAL:
		return exp(round_drift + 0.03 * gauss(r)) * (rng_double(r) < 0.5 ? 1.3 : 1);
	case DRIFT:
		return exp(round_drift + 0.03 * k + 0.05 * gauss(r));
	default:
		return exp(round_drift + 0.05 * gauss(r));
	}
}

/* DIR/sweep-Q: meta.json and ROUNDS rounds of every value, each round in a
 * seeded order. */
static void write_sweep(const char *dir, const struct sim_case *c, int q, enum noise n, struct rng *r)
{
	char path[PATH_MAX + 32], sub[PATH_MAX];
	FILE *f;
	int order[NV];

	snprintf(sub, sizeof(sub), "%s/sweep-%s", dir, c->queries[q]);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/meta.json", sub);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"command\":\"sweep\",\"server\":{\"version_num\":150018,\"version\":\"15.18\",\"settings\":{}},"
		   "\"device\":{\"name\":\"sim\",\"read_ahead_kb\":128},\"dataset\":{\"rows\":1000,\"seed\":1,\"recipe\":\"fast\"},"
		   "\"plan\":{\"query\":\"%s\",\"query_text\":\"SELECT 1\",\"grid\":{\"effective_io_concurrency\":[\"0\",\"16\",\"256\"]},"
		   "\"grid_order\":[\"effective_io_concurrency\"],\"runs\":%d}}\n", c->queries[q], ROUNDS);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/trials.jsonl", sub);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int k = 1; k <= ROUNDS; k++) {
		double drift = 0.1 * gauss(r);

		for (int v = 0; v < NV; v++)
			order[v] = v;
		for (int v = NV - 1; v > 0; v--) {
			int j = (int)rng_below(r, (uint64_t)v + 1), t = order[v];

			order[v] = order[j], order[j] = t;
		}
		for (int i = 0; i < NV; i++) {
			int v = order[i];
			double ms = c->truth[q][v] * noise(r, n, i, drift);

			fprintf(f, "{\"trial_key\":\"round=%d effective_io_concurrency=%s\",\"round\":%d,"
				   "\"settings\":{\"effective_io_concurrency\":\"%s\"},\"query\":\"%s\",\"cold\":true,"
				   "\"explain\":{\"execution_ms\":%.3f,\"top_node\":\"Bitmap Heap Scan\",\"has\":{\"bitmap_heap_scan\":true}},"
				   "\"plan_check\":{\"ok\":true}}\n",
				k, values[v], k, values[v], c->queries[q], ms);
		}
	}
	assert_int_equal(fclose(f), 0);
}

/* One simulated run judged: its answer (or -1), decided, stable. */
struct judged {
	int answer, decided, stable;
};

static struct judged simulate(const struct sim_case *c, enum noise n, struct rng *r)
{
	char dir[] = "/tmp/eicbench-judge-sim.XXXXXX", meta[PATH_MAX], err[1024], cmd[PATH_MAX + 64];
	struct judgement *j = calloc(1, sizeof(*j));
	struct judged out = { -1, 0, 0 };
	FILE *f;

	assert_non_null(j);
	assert_non_null(mkdtemp(dir));
	for (int q = 0; q < c->nq; q++)
		write_sweep(dir, c, q, n, r);
	snprintf(meta, sizeof(meta), "%s/meta.json", dir);
	f = fopen(meta, "w");
	assert_non_null(f);
	fprintf(f, "{\"command\":\"run\",\"sweeps\":{");
	for (int q = 0; q < c->nq; q++)
		fprintf(f, "%s\"%s\":\"sweep-%s\"", q ? "," : "", c->queries[q], c->queries[q]);
	fprintf(f, "}}\n");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(judge_run(dir, j, err, sizeof(err)), 0);
	if (j->decided && j->storage.d.answer != (size_t)-1) {
		out.answer = atoi(j->storage.values[j->storage.d.answer]) == 0 ? 0 :
			     atoi(j->storage.values[j->storage.d.answer]) == 16 ? 1 : 2;
		out.decided = j->storage.d.decided;
		out.stable = j->stability.stable;
	}
	judge_free(j);
	free(j);
	for (int q = 0; q < c->nq; q++) {
		snprintf(cmd, sizeof(cmd), "%s/sweep-%s/meta.json", dir, c->queries[q]);
		unlink(cmd);
		snprintf(cmd, sizeof(cmd), "%s/sweep-%s/trials.jsonl", dir, c->queries[q]);
		unlink(cmd);
		snprintf(cmd, sizeof(cmd), "%s/sweep-%s", dir, c->queries[q]);
		rmdir(cmd);
	}
	unlink(meta);
	assert_int_equal(rmdir(dir), 0);
	return out;
}

/* B agrees with A by the truth: the same value, or B within the margin of
 * A in every query (its true regret at most 1.10 times A's). */
static int agrees(const struct sim_case *c, int a, int b)
{
	if (a < 0 || b < 0)
		return 0;
	for (int q = 0; q < c->nq; q++) {
		double best = fmin(c->truth[q][0], fmin(c->truth[q][1], c->truth[q][2]));

		if (c->truth[q][b] / best > 1.10 * c->truth[q][a] / best)
			return 0;
	}
	return 1;
}

static int sim_runs(void)
{
	const char *e = getenv("JUDGE_SIM_RUNS");

	return e && atoi(e) > 0 ? atoi(e) : 40;
}

static const struct sim_case at_margin = { "0 at the margin", 1, { "scan" }, { { 1100, 1000, 1300 } } };
static const struct sim_case close_one = { "0 at 1.02x", 1, { "scan" }, { { 1020, 1000, 1300 } } };
static const struct sim_case opposite = { "opposite preferences", 2, { "dense", "scattered" },
					   { { 1000, 1250, 1300 }, { 1350, 1100, 1000 } } };

/* The table: per noise, false within, power, stability's calibration. */
static void error_rates(void **state)
{
	int n = sim_runs();
	(void)state;

	print_message("# %d simulated runs a cell, %d rounds, one look, through judge_run\n", n, ROUNDS);
	print_message("# %-18s %14s %14s %28s\n", "noise", "false within", "power 1.02x", "stable: repeat agrees");
	for (int k = 0; k < NNOISE; k++) {
		struct rng r;
		int fw = 0, pw = 0, stable = 0, agree = 0;

		rng_seed(&r, 1000 + (uint64_t)k);
		for (int i = 0; i < n; i++) {
			struct judged a = simulate(&at_margin, (enum noise)k, &r);
			struct judged p = simulate(&close_one, (enum noise)k, &r);
			struct judged s1 = simulate(&opposite, (enum noise)k, &r);
			struct judged s2 = simulate(&opposite, (enum noise)k, &r);

			fw += a.decided && a.answer == 0;
			pw += p.decided && p.answer == 0;
			if (s1.stable) {
				stable++;
				agree += agrees(&opposite, s1.answer, s2.answer);
			}
		}
		print_message("# %-18s %13.1f%% %13.1f%% %12.1f%% of %d stable\n", noise_name[k], 100.0 * fw / n,
			      100.0 * pw / n, stable ? 100.0 * agree / stable : NAN, stable);
		/* the rule's promise at one look, with room for the cell's own
		 * sampling error: 5% plus two standard errors */
		assert_true(fw <= n * 0.05 + 2 * sqrt(n * 0.05 * 0.95) + 0.5);
		if (k == LOGNORMAL)
			assert_true(pw >= n * 0.80 - 2 * sqrt(n * 0.2 * 0.8));
		if (stable >= 10)
			assert_true(agree >= stable * 0.80 - 2 * sqrt(stable * 0.2 * 0.8));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(error_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
