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

int judge_storage(const struct run_result *v, struct regret *g, int *counted, char *err, size_t errlen)
{
	const struct sweep_result *reps[DECISION_MAX_QUERIES];
	const char *names[DECISION_MAX_QUERIES];
	size_t series[DECISION_MAX_QUERIES] = { 0 }, n = 0;
	int any = 0, use[RESULT_MAX_QUERIES] = { 0 };

	for (int i = 0; i < v->nq; i++)
		any |= use[i] = v->q[i].have_rep && class_counts(&v->q[i].rep, v->q[i].name);
	for (int i = 0; i < v->nq && n < DECISION_MAX_QUERIES; i++) {
		if (!any)
			use[i] = v->q[i].have_rep;
		if (use[i]) {
			reps[n] = &v->q[i].rep;
			names[n++] = v->q[i].name;
		}
		if (counted)
			counted[i] = use[i];
	}
	if (!n) {
		memset(g, 0, sizeof(*g));
		snprintf(err, errlen, "no query has records to decide on");
		return -EINVAL;
	}
	return regret_build(reps, series, names, n, regret_margin_of(reps[0]), g, err, errlen);
}

/* Each class's own decision, and the overrides: the classes that count
 * whose regret at the storage's answer is above 1 + margin, with their own
 * answer where it differs. */
static int judge_classes(struct judgement *j)
{
	const struct regret *g = &j->storage;
	size_t a = g->d.answer;
	int col = 0;

	j->own = calloc(RESULT_MAX_QUERIES, sizeof(*j->own));
	if (!j->own)
		return -ENOMEM;
	for (int i = 0; i < j->run.nq; i++) {
		const struct sweep_result *rep = &j->run.q[i].rep;
		const char *name = j->run.q[i].name;
		size_t zero = 0;
		char err[256];

		j->column[i] = j->counted[i] ? col++ : -1;
		if (j->run.q[i].have_rep)
			j->own_ok[i] = regret_build(&rep, &zero, &name, 1, regret_margin_of(rep), &j->own[i],
						    err, sizeof(err)) == 0;
	}
	if (!j->decided || a == (size_t)-1 || !g->d.decided)
		return 0;	/* a provisional answer gets no overrides */
	for (int i = 0; i < j->run.nq; i++) {
		const struct regret *o = &j->own[i];
		const char *mine = j->own_ok[i] ? judge_answer(o) : NULL;
		double cost;

		if (j->column[i] < 0 || !mine || !strcmp(mine, g->values[a]))
			continue;
		cost = g->d.cell[j->column[i]][a].est;
		if (!(cost > 1 + g->in.margin))
			continue;
		j->over[j->nover] = (struct judge_override){ .q = i, .cost_at_answer = cost };
		snprintf(j->over[j->nover].value, sizeof(j->over[0].value), "%s", mine);
		j->nover++;
	}
	return 0;
}

static void free_own(struct judgement *j)
{
	for (int i = 0; j->own && i < RESULT_MAX_QUERIES; i++)
		regret_free(&j->own[i]);
	free(j->own);
	j->own = NULL;
	j->nover = 0;
	memset(j->own_ok, 0, sizeof(j->own_ok));
}

int judge_loaded(struct judgement *j)
{
	int ret;

	regret_free(&j->storage);
	free_own(j);
	for (int i = 0; i < j->run.nq; i++)
		if (j->run.q[i].have_rep && (ret = judge_predict(&j->run.q[i].rep)) < 0)
			return ret;
	j->decided = judge_storage(&j->run, &j->storage, j->counted, j->why_none, sizeof(j->why_none)) == 0;
	j->all_forced = 1;	/* none counts, and every one was forced */
	for (int i = 0; i < j->run.nq; i++)
		if (j->run.q[i].have_rep && (class_counts(&j->run.q[i].rep, j->run.q[i].name) ||
					     !class_forced(&j->run.q[i].rep)))
			j->all_forced = 0;
	if ((ret = judge_classes(j)) < 0)
		return ret;
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
	free_own(j);
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
