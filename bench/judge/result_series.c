/*
 * report_series: a report's series (the groups that differ only in the
 * swept setting), each group's speedups over 0 and 1 (the median there over
 * its own, with a bootstrap interval), and each series' decision: the
 * fastest value and the smallest one within the margin of it, paired
 * within rounds (bench/judge/decision.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/judge/decision.h"
#include "bench/judge/result.h"
#include "io/stats.h"

#define SPEEDUP_SEED 1          /* bootstrap seed: the same report every time */

const char *result_value(const struct sweep_result *r, const struct result_group *g, size_t s)
{
	return r->settings[s].values[g->value[s]];
}

static int same_series(const struct sweep_result *r, const struct result_group *a,
		       const struct result_group *b)
{
	if (a->query != b->query)
		return 0;
	for (size_t s = 0; s < r->nsettings; s++)
		if (s != r->swept && a->value[s] != b->value[s])
			return 0;
	return 1;
}

/* Whether group A's swept value comes before B's: by number, else grid order. */
int result_before(const struct sweep_result *r, const struct result_group *a,
		  const struct result_group *b)
{
	const struct result_setting *s = &r->settings[r->swept];
	double x = s->num[a->value[r->swept]], y = s->num[b->value[r->swept]];

	if (!isnan(x) && !isnan(y) && x != y)
		return x < y;
	return a->value[r->swept] < b->value[r->swept];
}

/* The group of G's series whose swept value is VALUE, or RESULT_NONE. */
size_t result_find(const struct sweep_result *r, const struct result_group *g, const char *value)
{
	for (size_t i = 0; i < r->ngroups; i++)
		if (r->groups[i].series == g->series &&
		    !strcmp(result_value(r, &r->groups[i], r->swept), value))
			return i;
	return RESULT_NONE;
}

/* The median at VALUE over G's, with its bootstrap interval; NAN if absent. */
static double speedup(const struct sweep_result *r, const struct result_group *g, const char *value,
		      struct stats_interval *ci)
{
	size_t ref = r->swept_is_eic ? result_find(r, g, value) : RESULT_NONE;
	const struct result_group *x;
	double ratio = NAN;

	*ci = (struct stats_interval){ NAN, NAN, NAN };
	if (ref == RESULT_NONE || g->runs == 0)
		return NAN;
	x = &r->groups[ref];
	if (stats_ratio_interval(x->times, x->runs, g->times, g->runs, RESULT_LEVEL,
				 RESULT_RESAMPLES, SPEEDUP_SEED, &ratio, ci) < 0)
		return x->median_ms / g->median_ms;
	return ratio;
}

/* How G compares with the fastest F: the ratio of medians and its interval. */
static void versus_fastest(struct result_group *g, const struct result_group *f)
{
	double ratio;

	g->vs_fastest = g->median_ms / f->median_ms;
	g->ci_vs_fastest = (struct stats_interval){ NAN, NAN, NAN };
	if (g == f) {
		g->ci_vs_fastest = (struct stats_interval){ 1, 1, RESULT_LEVEL };
		g->indistinguishable = 1;
		return;
	}
	if (stats_ratio_interval(g->times, g->runs, f->times, f->runs, RESULT_LEVEL,
				 RESULT_RESAMPLES, SPEEDUP_SEED, &ratio, &g->ci_vs_fastest) < 0)
		g->ci_vs_fastest = (struct stats_interval){ g->vs_fastest, g->vs_fastest, NAN };
	g->indistinguishable = g->ci_vs_fastest.lo <= 1.0;
}

/*
 * The series' decision (bench/judge/decision.h): its values' times paired
 * within rounds. The recommendation is the smallest value within the
 * margin of the fastest; "separated" when that is decided; "all_overlap"
 * when no value is told apart (none shown outside the margin) and the
 * smallest is not shown within it.
 */
static void decide(struct sweep_result *r, struct result_series *se, size_t id)
{
	size_t idx[r->ngroups + 1], n = result_series_groups(r, id, idx), nout = 0;
	struct decision_input in = { .nvalues = n, .nqueries = 1, .margin = r->margin };
	struct decision *d = calloc(1, sizeof(*d));
	double *ms;
	int rounds = 0;

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < r->groups[idx[k]].runs; i++)
			rounds = r->groups[idx[k]].rounds[i] > rounds ? r->groups[idx[k]].rounds[i] : rounds;
	in.nrounds = (size_t)(rounds > 0 ? rounds : 1);
	ms = malloc((n * in.nrounds + 1) * sizeof(*ms));
	if (!d || !ms || n > DECISION_MAX_VALUES || in.nrounds > DECISION_MAX_ROUNDS) {
		free(d), free(ms);
		return;	/* the old figures stand; nothing is recommended */
	}
	for (size_t i = 0; i < n * in.nrounds; i++)
		ms[i] = NAN;
	for (size_t k = 0; k < n; k++) {
		const struct result_group *g = &r->groups[idx[k]];

		in.values[k] = result_value(r, g, r->swept);
		for (size_t i = 0; i < g->runs; i++)
			if (g->rounds[i] >= 1)
				ms[k * in.nrounds + (size_t)(g->rounds[i] - 1)] = g->times[i];
	}
	in.ms = ms;
	se->nindist = 0;
	if (decision_make(&in, d) == 0 && d->answer != (size_t)-1) {
		for (size_t k = 0; k < n; k++) {
			struct result_group *g = &r->groups[idx[k]];

			g->regret = d->cell[0][k].est;
			g->regret_lo = d->cell[0][k].lo;
			g->regret_hi = d->cell[0][k].hi;
			g->indistinguishable = d->good[k];
			g->out = d->bad[k];
			se->nindist += d->good[k] && idx[k] != se->fastest;
			nout += d->bad[k];
		}
		se->recommended = idx[d->answer];
		se->decided = d->decided;
		se->df = d->q[0].df;
	}
	/* none told apart, unless the smallest value is shown within the margin:
	 * then every value is alike and the answer is decided */
	se->all_overlap = se->nvalues > 1 && nout == 0 && !se->decided;
	se->separated = se->decided;
	se->recommends = se->min_runs >= 2 && !se->all_overlap && se->recommended != RESULT_NONE;
	free(d);
	free(ms);
}

/* Fastest median; then the smallest value within the margin of it. */
static void pick(struct sweep_result *r, struct result_series *se, size_t id)
{
	struct result_group *g;
	size_t i;

	se->fastest = se->recommended = RESULT_NONE;
	se->min_runs = (size_t)-1;
	for (i = 0; i < r->ngroups; i++) {
		if (r->groups[i].series != id)
			continue;
		se->nvalues++;
		if (r->groups[i].runs < se->min_runs)
			se->min_runs = r->groups[i].runs;
		if (se->fastest == RESULT_NONE || r->groups[i].median_ms < r->groups[se->fastest].median_ms)
			se->fastest = i;
	}
	for (i = 0; i < r->ngroups; i++) {
		g = &r->groups[i];
		if (g->series != id)
			continue;
		versus_fastest(g, &r->groups[se->fastest]);
		if (!g->indistinguishable)
			continue;
		se->nindist += i != se->fastest;
		if (se->recommended == RESULT_NONE || result_before(r, g, &r->groups[se->recommended]))
			se->recommended = i;
	}
	decide(r, se, id);
}

int result_separated(const struct sweep_result *r)
{
	for (size_t s = 0; s < r->nseries; s++)
		if (!r->series[s].separated)
			return 0;
	return r->nseries > 0;
}

/* The series of R's groups, their speedups and each one's decision. */
int result_make_series(struct sweep_result *r)
{
	size_t i, s;

	r->series = calloc(r->ngroups + 1, sizeof(*r->series));
	if (!r->series)
		return -ENOMEM;
	for (i = 0; i < r->ngroups; i++) {
		for (s = 0; s < r->nseries; s++)
			if (same_series(r, &r->groups[r->series[s].first], &r->groups[i]))
				break;
		if (s == r->nseries)
			r->series[r->nseries++] = (struct result_series){
				.query = r->groups[i].query, .first = i };
		r->groups[i].series = s;
	}
	for (i = 0; i < r->ngroups; i++) {
		r->groups[i].speedup_vs_0 = speedup(r, &r->groups[i], "0", &r->groups[i].ci_vs_0);
		r->groups[i].speedup_vs_1 = speedup(r, &r->groups[i], "1", &r->groups[i].ci_vs_1);
	}
	for (s = 0; s < r->nseries; s++)
		pick(r, &r->series[s], s);
	return 0;
}

const char *result_series_label(const struct sweep_result *r, size_t s, char *buf, size_t len)
{
	const struct result_group *g = &r->groups[r->series[s].first];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->nsettings && used < len; i++)
		if (i != r->swept)
			used += snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "",
					 r->settings[i].name, result_value(r, g, i));
	return buf;
}

size_t result_series_groups(const struct sweep_result *r, size_t s, size_t *idx)
{
	size_t n = 0, i, j;

	for (i = 0; i < r->ngroups; i++) {
		if (r->groups[i].series != s)
			continue;
		for (j = n; j > 0 && result_before(r, &r->groups[i], &r->groups[idx[j - 1]]); j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		n++;
	}
	return n;
}
