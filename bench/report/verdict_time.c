/*
 * verdict_time: the times the verdict shows; see verdict_time.h.
 */
#include "bench/report/verdict_time.h"

#include <math.h>
#include <stdio.h>

#define NONE ((size_t)-1)

/* Group GR's median in the decision's unit: the whole query's where the
 * records are decided on it, else the measured time (the heap phase's). */
double verdict_unit_ms(const struct sweep_result *r, const struct result_group *gr)
{
	return !gr ? NAN : regret_whole_query(r) ? gr->exec_ms : gr->median_ms;
}

double verdict_median_ms(const struct regret *g, size_t q, size_t v)
{
	const struct sweep_result *r = g->reps[q];
	size_t gi;

	if (v == NONE)
		return NAN;
	gi = result_find(r, &r->groups[r->series[0].first], g->values[v]);
	return gi == RESULT_NONE ? NAN : verdict_unit_ms(r, &r->groups[gi]);
}

const char *verdict_secs(char *buf, size_t len, double ms)
{
	double s = ms / 1000;

	if (!isfinite(s))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, s < 10 ? "%.2fs" : s < 100 ? "%.1fs" : "%.0fs", s);
	return buf;
}
