/*
 * stability: the answer's share over resampled rounds; see stability.h.
 */
#include "bench/judge/stability.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/rng.h"

int stability_agrees(const struct decision_input *in, const struct decision *d, size_t u)
{
	size_t a = d->answer;

	if (u == (size_t)-1 || a == (size_t)-1)
		return 0;
	if (u == a)
		return 1;
	if (!d->complete[u])
		return 0;
	for (size_t q = 0; q < in->nqueries; q++)
		if (!(isfinite(d->cell[q][u].est) && isfinite(d->cell[q][a].est) &&
		      d->cell[q][u].est <= d->cell[q][a].est * (1 + in->margin)))
			return 0;
	return 1;
}

int stability_of(const struct decision_input *in, const struct decision *d, size_t resamples,
		 unsigned long long seed, struct stability *out)
{
	size_t nr = in->nrounds, cells = in->nqueries * in->nvalues;
	struct decision_input r = *in;
	struct decision *e;
	size_t *pick;
	double *ms;
	struct rng g;

	memset(out, 0, sizeof(*out));
	out->share = NAN;
	if (d->answer == (size_t)-1)
		return -EINVAL;
	if (nr < 2 || resamples == 0)
		return 0;
	e = malloc(sizeof(*e));
	pick = malloc(nr * sizeof(*pick));
	ms = malloc(cells * nr * sizeof(*ms));
	if (!e || !pick || !ms) {
		free(e), free(pick), free(ms);
		return -ENOMEM;
	}
	rng_seed(&g, seed);
	r.ms = ms;
	for (size_t b = 0; b < resamples; b++) {
		for (size_t k = 0; k < nr; k++)
			pick[k] = rng_below(&g, nr);
		for (size_t c = 0; c < cells; c++)
			for (size_t k = 0; k < nr; k++)
				ms[c * nr + k] = in->ms[c * nr + pick[k]];
		if (decision_make(&r, e) < 0 || e->answer == (size_t)-1) {
			out->none++;
			continue;
		}
		out->count[e->answer]++;
		out->agree += stability_agrees(in, d, e->answer);
	}
	out->resamples = resamples;
	out->share = (double)out->agree / (double)resamples;
	out->stable = out->share >= STABILITY_STABLE;
	free(e), free(pick), free(ms);
	return 0;
}
