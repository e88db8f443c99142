/*
 * result_across: a sweep's series side by side. When a setting besides the
 * swept one was varied (io_method on PostgreSQL 18, say), each series has
 * its own fastest value; this compares those with the query's fastest,
 * with the same bootstrap interval of the ratio of medians as within a
 * series, and picks the series to recommend: among those indistinguishable
 * from the fastest, the one the server runs with now (or the version's
 * default), else the fastest.
 */
#include "bench/judge/result.h"

#include <math.h>
#include <string.h>

#include "bench/record/semantics.h"

#define ACROSS_SEED 1             /* bootstrap seed: the same report every time */

/* The one setting, besides the swept one, whose values differ between the
 * query's series; RESULT_NONE when none or several do. */
static size_t telling_setting(const struct sweep_result *r, const struct result_across *a)
{
	size_t found = RESULT_NONE;

	for (size_t i = 0; i < r->nsettings; i++) {
		const struct result_group *g0 = &r->groups[r->series[a->series[0]].first];
		int differs = 0;

		if (i == r->swept)
			continue;
		for (size_t k = 1; k < a->n && !differs; k++)
			differs = r->groups[r->series[a->series[k]].first].value[i] != g0->value[i];
		if (differs && found != RESULT_NONE)
			return RESULT_NONE;
		if (differs)
			found = i;
	}
	return found;
}

/* The value of setting I the server runs with when not told otherwise. */
static const char *own_value(const struct sweep_result *r, size_t i)
{
	const char *name = r->settings[i].name;
	const char *v = result_server_setting(r, name);

	return v ? v : semantics_default(name, (int)r->version_num);
}

int result_across(const struct sweep_result *r, size_t query, struct result_across *a)
{
	const char *own;

	memset(a, 0, sizeof(*a));
	a->best = a->pick = a->setting = RESULT_NONE;
	for (size_t s = 0; s < r->nseries && a->n < RESULT_MAX_ACROSS; s++)
		if (r->series[s].query == query && r->series[s].fastest != RESULT_NONE)
			a->series[a->n++] = s;
	if (a->n < 2)
		return 0;
	for (size_t k = 0; k < a->n; k++) {
		a->min_runs = k == 0 || r->series[a->series[k]].min_runs < a->min_runs ?
			      r->series[a->series[k]].min_runs : a->min_runs;
		if (a->best == RESULT_NONE || r->groups[r->series[a->series[k]].fastest].median_ms <
					       r->groups[r->series[a->series[a->best]].fastest].median_ms)
			a->best = k;
	}
	for (size_t k = 0; k < a->n; k++) {
		const struct result_group *g = &r->groups[r->series[a->series[k]].fastest];
		const struct result_group *f = &r->groups[r->series[a->series[a->best]].fastest];

		a->ratio[k] = g->median_ms / f->median_ms;
		a->ci[k] = (struct stats_interval){ 1, 1, RESULT_LEVEL };
		if (k != a->best && stats_ratio_interval(g->times, g->runs, f->times, f->runs, RESULT_LEVEL,
							 RESULT_RESAMPLES, ACROSS_SEED, &a->ratio[k], &a->ci[k]) < 0)
			a->ci[k] = (struct stats_interval){ a->ratio[k], a->ratio[k], NAN };
		a->indist[k] = a->ci[k].lo <= 1.0;
	}
	a->setting = telling_setting(r, a);
	if (a->min_runs < 2)
		return 0;	/* one run a value: no interval, no pick */
	a->pick = a->best;
	own = a->setting != RESULT_NONE ? own_value(r, a->setting) : NULL;
	for (size_t k = 0; own && k < a->n; k++)
		if (a->indist[k] && !strcmp(result_value(r, &r->groups[r->series[a->series[k]].first], a->setting), own)) {
			a->pick = k;
			a->kept_own = k != a->best;
		}
	return 0;
}
