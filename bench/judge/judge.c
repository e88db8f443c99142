/*
 * judge: loading, predicting and deciding in one place; see judge.h.
 */
#include "bench/judge/judge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int judge_predict(struct sweep_result *r)
{
	free(r->pred);
	free(r->pred_ok);
	r->pred = NULL;
	r->pred_ok = NULL;
	if (!r->companions || !json_array_size(r->companions) || !r->nseries)
		return 0;
	r->pred = calloc(r->nseries, sizeof(*r->pred));
	r->pred_ok = calloc(r->nseries, sizeof(*r->pred_ok));
	if (!r->pred || !r->pred_ok) {
		free(r->pred);
		free(r->pred_ok);
		r->pred = NULL;
		r->pred_ok = NULL;
		return -ENOMEM;
	}
	for (size_t s = 0; s < r->nseries; s++)
		r->pred_ok[s] = prediction_build(r, s, &r->pred[s]) == 0;
	return 0;
}

int judge_sweep(const char *dir, struct sweep_result *out, char *err, size_t errlen)
{
	int ret = result_load(dir, out, err, errlen);

	if (ret == 0 && (ret = judge_predict(out)) < 0)
		snprintf(err, errlen, "%s: out of memory", dir);
	return ret;
}

int judge_storage(const struct run_result *v, struct regret *g, char *err, size_t errlen)
{
	const struct sweep_result *reps[DECISION_MAX_QUERIES];
	const char *names[DECISION_MAX_QUERIES];
	size_t series[DECISION_MAX_QUERIES] = { 0 }, n = 0;

	for (int i = 0; i < v->nq && n < DECISION_MAX_QUERIES; i++)
		if (v->q[i].have_rep) {
			reps[n] = &v->q[i].rep;
			names[n++] = v->q[i].name;
		}
	return regret_build(reps, series, names, n, regret_margin_of(reps[0]), g, err, errlen);
}

int judge_loaded(struct judgement *j)
{
	int ret;

	regret_free(&j->storage);
	for (int i = 0; i < j->run.nq; i++)
		if (j->run.q[i].have_rep && (ret = judge_predict(&j->run.q[i].rep)) < 0)
			return ret;
	j->decided = judge_storage(&j->run, &j->storage, j->why_none, sizeof(j->why_none)) == 0;
	memset(&j->stability, 0, sizeof(j->stability));
	j->stability.share = NAN;
	if (j->decided && j->storage.d.answer != (size_t)-1 &&
	    (ret = stability_of(&j->storage.in, &j->storage.d, STABILITY_RESAMPLES, STABILITY_SEED,
				&j->stability)) == -ENOMEM)
		return ret;
	return 0;
}

int judge_run(const char *dir, struct judgement *j, char *err, size_t errlen)
{
	int ret;

	memset(j, 0, sizeof(*j));
	if ((ret = run_result_load(dir, &j->run, err, errlen)) < 0)
		return ret;
	if ((ret = judge_loaded(j)) < 0)
		snprintf(err, errlen, "%s: out of memory", dir);
	return ret;
}

void judge_free(struct judgement *j)
{
	regret_free(&j->storage);
	run_result_free(&j->run);
	memset(j, 0, sizeof(*j));
}

const char *judge_answer(const struct regret *g)
{
	return g->d.answer == (size_t)-1 ? NULL : g->values[g->d.answer];
}

const struct prediction *judge_prediction(const struct sweep_result *r, size_t s)
{
	return r->pred && s < r->nseries && r->pred_ok[s] ? &r->pred[s] : NULL;
}
