/*
 * judge: the one entry point from records to a decision. A sweep's folder
 * is loaded into series with their decisions and, where it ran replay
 * trials, each series' prediction (judge_sweep); a run's folder is its
 * sweeps judged so, and the decision for the storage over its queries
 * (judge_run). Commands call it once per rendering and hand the result to
 * the renderers (bench/report/), which never decide; the runner's racing
 * rule calls the same decision after every round (bench/sweep/race.c). No
 * text beyond the error that says why nothing could be judged.
 */
#ifndef BENCH_JUDGE_JUDGE_H
#define BENCH_JUDGE_JUDGE_H

#include <stddef.h>

#include "bench/judge/classes.h"
#include "bench/judge/prediction.h"
#include "bench/judge/regret.h"
#include "bench/judge/result.h"
#include "bench/judge/run_result.h"
#include "bench/judge/stability.h"

/* A class the storage's answer costs more than the margin: the value
 * that serves it, for the role or session that runs it. */
struct judge_override {
	int    q;                     /* the run's query index */
	char   value[32];             /* its own answer */
	double cost_at_answer;        /* its regret at the storage's answer (point) */
};

/* A run judged: its records, the decision for the storage over the
 * classes that count (classes.h; series 0 of each sweep), each class's
 * own decision, the overrides for the classes the answer costs more than
 * the margin, and the answer's stability over resampled rounds
 * (bench/judge/stability.h). */
struct judgement {
	struct run_result run;
	struct regret storage;
	int    decided;               /* storage holds a decision */
	char   why_none[512];         /* when not: why none could be made */
	struct stability stability;   /* of the storage's answer (resamples 0: none made) */
	int    counted[RESULT_MAX_QUERIES];  /* per query: in the storage's decision */
	int    column[RESULT_MAX_QUERIES];   /* its column there, or -1 */
	int    all_forced;            /* every class's plan was forced and none counts: all stand */
	struct regret *own;           /* per query, its own decision (NULL when none) */
	int    own_ok[RESULT_MAX_QUERIES];
	struct judge_override over[RESULT_MAX_QUERIES];
	int    nover;
};

/*
 * Load sweep folder DIR into OUT (bench/judge/result.h) with each series'
 * prediction from its replay trials. 0 or -errno with ERR; free with
 * result_free(), also after a failure.
 */
int judge_sweep(const char *dir, struct sweep_result *out, char *err, size_t errlen);

/* The predictions of R's series from its replay trials (a folder loaded by
 * result_load): none (0) when it has no replay trials. 0 or -ENOMEM. */
int judge_predict(struct sweep_result *r);

/*
 * Load run folder DIR and judge it. A run whose sweeps give no decision
 * (too few figures) is judged all the same: J->decided is 0 and
 * J->why_none says why. 0 or -errno with ERR when the folder is not a
 * run's; free with judge_free(), also after a failure.
 */
int judge_run(const char *dir, struct judgement *j, char *err, size_t errlen);
void judge_free(struct judgement *j);

/* Judge J->run, loaded already (and perhaps changed since: a test's
 * edited records): its predictions and the storage's decision, made
 * again. 0 or -ENOMEM. */
int judge_loaded(struct judgement *j);

/* The decision over V's queries that count (series 0 of each sweep; all
 * of them when none does) into G, with COUNTED (may be NULL) set per
 * query. 0 or -errno with ERR; free G with regret_free(). */
int judge_storage(const struct run_result *v, struct regret *g, int *counted, char *err, size_t errlen);

/* Series S's prediction from its replay trials, as the judge made it, or
 * NULL (no replay trials, or R not judged). */
const struct prediction *judge_prediction(const struct sweep_result *r, size_t s);

/* The value the answer names, or NULL. */
const char *judge_answer(const struct regret *g);

#endif
