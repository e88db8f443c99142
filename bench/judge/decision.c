/*
 * decision: the value + round model per query, the regret table, the
 * answer and the racing rule; see decision.h. Log times: a ratio of two
 * times is a difference. The model is fitted by backfitting (value effects,
 * then round effects, until they settle), which handles rounds where
 * racing left some values out. A round with one value carries no pair and
 * is left out of the fit. Two values paired in no round (their runs there
 * left out) are compared by the model's round-adjusted means.
 */
#include "bench/judge/decision.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define FIT_ITERATIONS 200

/* One-sided t quantiles for 1..30 degrees of freedom (standard tables). */
static const double t95[30] = {
	6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812,
	1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725,
	1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697,
};
static const double t99[30] = {
	31.821, 6.965, 4.541, 3.747, 3.365, 3.143, 2.998, 2.896, 2.821, 2.764,
	2.718, 2.681, 2.650, 2.624, 2.602, 2.583, 2.567, 2.552, 2.539, 2.528,
	2.518, 2.508, 2.500, 2.492, 2.485, 2.479, 2.473, 2.467, 2.462, 2.457,
};

/*
 * The regularized incomplete beta function I_x(a, b), by its continued
 * fraction (modified Lentz), on the side where it converges fast.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d, d = fabs(d) < tiny ? tiny : d, d = 1 / d;
		c = 1 + aa / c, c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d, d = fabs(d) < tiny ? tiny : d, d = 1 / d;
		c = 1 + aa / c, c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

static double beta_reg(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with DF degrees of freedom, t >= 0. */
static double t_cdf(double t, double df)
{
	return 1 - 0.5 * beta_reg(df / 2, 0.5, df / (df + t * t));
}

double decision_t(double level, double df)
{
	int hi = level > 0.97;
	double z = hi ? 2.326348 : 1.644854, lo_t = 0, hi_t = 1;

	if (!(df >= 1) || !(level > 0.5 && level < 1))
		return NAN;
	if (level != DECISION_LEVEL && level != DECISION_DROP_LEVEL) {
		/* any other level: the cdf inverted by bisection (1e-9) */
		while (t_cdf(hi_t, df) < level)
			lo_t = hi_t, hi_t *= 2;
		for (int i = 0; i < 200 && hi_t - lo_t > 1e-9; i++) {
			double mid = (lo_t + hi_t) / 2;

			*(t_cdf(mid, df) < level ? &lo_t : &hi_t) = mid;
		}
		return (lo_t + hi_t) / 2;
	}
	if (df <= 30) {
		int k = (int)floor(df);

		return (hi ? t99 : t95)[k - 1];
	}
	/* Cornish-Fisher expansion: within 1e-3 of the tables' value from 30 on */
	return z + (z * z * z + z) / (4 * df) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
}

double decision_look_level(int looks)
{
	return looks > 1 ? 1 - (1 - DECISION_LEVEL) / looks : DECISION_LEVEL;
}

/* ---- the model of one query ---- */

struct fit {
	size_t nv, nk;
	const double *ms;           /* this query's nv * nk times */
	unsigned char *use;         /* cell in the fit */
	double mu[DECISION_MAX_VALUES];
	double *beta;               /* per round */
};

static double y_of(const struct fit *f, size_t v, size_t k)
{
	return log(f->ms[v * f->nk + k]);
}

/* Which cells enter: a finite positive time in a round with two or more. */
static void mark(struct fit *f)
{
	for (size_t k = 0; k < f->nk; k++) {
		size_t n = 0;

		for (size_t v = 0; v < f->nv; v++) {
			double t = f->ms[v * f->nk + k];

			f->use[v * f->nk + k] = isfinite(t) && t > 0;
			n += f->use[v * f->nk + k];
		}
		if (n < 2)
			for (size_t v = 0; v < f->nv; v++)
				f->use[v * f->nk + k] = 0;
	}
}

static void backfit(struct fit *f)
{
	for (size_t k = 0; k < f->nk; k++)
		f->beta[k] = 0;
	for (int it = 0; it < FIT_ITERATIONS; it++) {
		for (size_t v = 0; v < f->nv; v++) {
			double s = 0;
			size_t n = 0;

			for (size_t k = 0; k < f->nk; k++)
				if (f->use[v * f->nk + k])
					s += y_of(f, v, k) - f->beta[k], n++;
			f->mu[v] = n ? s / (double)n : NAN;
		}
		for (size_t k = 0; k < f->nk; k++) {
			double s = 0;
			size_t n = 0;

			for (size_t v = 0; v < f->nv; v++)
				if (f->use[v * f->nk + k])
					s += y_of(f, v, k) - f->mu[v], n++;
			f->beta[k] = n ? s / (double)n : 0;
		}
	}
}

/* Residual sd and its degrees of freedom: cells - values - rounds + 1. */
static void residual(const struct fit *f, struct decision_query *q)
{
	size_t cells = 0, values = 0, rounds = 0;
	double ss = 0;

	for (size_t v = 0; v < f->nv; v++) {
		size_t n = 0;

		for (size_t k = 0; k < f->nk; k++)
			if (f->use[v * f->nk + k]) {
				double e = y_of(f, v, k) - f->mu[v] - f->beta[k];

				ss += e * e;
				n++;
			}
		cells += n;
		values += n > 0;
	}
	for (size_t k = 0; k < f->nk; k++)
		for (size_t v = 0; v < f->nv; v++)
			if (f->use[v * f->nk + k]) {
				rounds++;
				break;
			}
	q->df = (double)cells - (double)values - (double)rounds + 1;
	q->sigma = q->df >= 1 ? sqrt(ss / q->df) : NAN;
}

/* Value V against every other on their common rounds: the regret cell. */
static void compare(const struct fit *f, const struct decision_query *q, size_t v, double level,
		    struct decision_cell *c, float *pair_hi)
{
	double t = decision_t(DECISION_LEVEL, q->df);
	double t_drop = decision_t(fmax(DECISION_DROP_LEVEL, level), q->df), t_hi = decision_t(level, q->df);
	double est = -INFINITY, lo = -INFINITY, hi = -INFINITY, lo_drop = -INFINITY;

	memset(c, 0, sizeof(*c));
	for (size_t k = 0; k < f->nk; k++)
		c->runs += f->use[v * f->nk + k];
	for (size_t u = 0; u < f->nv; u++) {
		double s = 0, se;
		size_t n = 0, nu = 0;

		pair_hi[u] = INFINITY;
		if (u == v)
			continue;
		for (size_t k = 0; k < f->nk; k++) {
			nu += f->use[u * f->nk + k];
			if (f->use[v * f->nk + k] && f->use[u * f->nk + k])
				s += y_of(f, v, k) - y_of(f, u, k), n++;
		}
		if (!n && !nu)
			continue;
		if (n) {
			se = q->sigma * sqrt(2.0 / (double)n);
		} else {
			/* no round with both (runs left out): the model's
			 * round-adjusted means, each with its own runs */
			s = f->mu[v] - f->mu[u];
			n = 1;
			se = q->sigma * sqrt(1.0 / (double)c->runs + 1.0 / (double)nu);
		}
		if (isfinite(se))
			pair_hi[u] = (float)exp(s / (double)n + t_hi * se);
		est = fmax(est, s / (double)n);
		hi = fmax(hi, isfinite(se) ? s / (double)n + t_hi * se : INFINITY);
		lo = fmax(lo, isfinite(se) ? s / (double)n - t * se : 0);
		lo_drop = fmax(lo_drop, isfinite(se) ? s / (double)n - t_drop * se : 0);
	}
	if (!isfinite(est)) {
		c->runs = 0;
		c->est = c->lo = c->hi = c->lo_drop = NAN;
		return;
	}
	c->est = exp(fmax(est, 0));
	c->hi = exp(fmax(hi, 0));
	c->lo = exp(fmax(lo, 0));
	c->lo_drop = exp(fmax(lo_drop, 0));
}

static int fit_query(const struct decision_input *in, size_t q, struct decision *d)
{
	unsigned char use[DECISION_MAX_VALUES * 64];
	double beta[64];
	unsigned char *use_p = use;
	double *beta_p = beta;
	struct fit f = { .nv = in->nvalues, .nk = in->nrounds,
			 .ms = in->ms + q * in->nvalues * in->nrounds };

	if (in->nrounds > 64) {	/* rare: long sweeps get room of their own */
		use_p = calloc(in->nvalues * in->nrounds, 1);
		beta_p = calloc(in->nrounds, sizeof(double));
		if (!use_p || !beta_p) {
			free(use_p), free(beta_p);
			return -ENOMEM;
		}
	}
	f.use = use_p;
	f.beta = beta_p;
	mark(&f);
	backfit(&f);
	residual(&f, &d->q[q]);
	d->q[q].fastest = NONE;
	for (size_t v = 0; v < in->nvalues; v++) {
		compare(&f, &d->q[q], v, in->level > 0 ? in->level : DECISION_LEVEL, &d->cell[q][v], d->pair_hi[q][v]);
		if (d->cell[q][v].runs && (d->q[q].fastest == NONE || f.mu[v] < f.mu[d->q[q].fastest]))
			d->q[q].fastest = v;
	}
	if (d->q[q].fastest != NONE)
		d->cell[q][d->q[q].fastest].fastest = 1;
	if (use_p != use) {
		free(use_p);
		free(beta_p);
	}
	return 0;
}

/* ---- across queries ---- */

/* Regret X of query Q as the worst case at a price counts it: by Q's
 * weight (the margin within holds in every query alike). */
static double weighed(const struct decision_input *in, size_t q, double x)
{
	return in->weight && in->weight[q] != 1 ? pow(x, in->weight[q]) : x;
}

/* Each value's worst case over the queries; by their weights when WEIGH. */
static void worst_case(const struct decision_input *in, struct decision *d, int weigh)
{
	const struct decision_input plain = { .weight = NULL };

	for (size_t v = 0; v < in->nvalues; v++) {
		d->complete[v] = in->nqueries > 0;
		d->worst[v] = d->worst_lo[v] = d->worst_hi[v] = 1;
		for (size_t q = 0; q < in->nqueries; q++) {
			const struct decision_cell *c = &d->cell[q][v];

			if (!c->runs) {
				d->complete[v] = 0;
				continue;
			}
			d->worst[v] = fmax(d->worst[v], weighed(weigh ? in : &plain, q, c->est));
			d->worst_lo[v] = fmax(d->worst_lo[v], weighed(weigh ? in : &plain, q, c->lo));
			d->worst_hi[v] = fmax(d->worst_hi[v], weighed(weigh ? in : &plain, q, c->hi));
		}
	}
}

/* The least worst case among complete values (point, bounds). */
static double least(const struct decision_input *in, const struct decision *d, const double *w)
{
	double m = INFINITY;

	for (size_t v = 0; v < in->nvalues; v++)
		if (d->complete[v] && w[v] < m)
			m = w[v];
	return m;
}

/* The smallest complete value flagged in OK, or NONE. */
static size_t smallest(const struct decision_input *in, const struct decision *d, const int *ok)
{
	for (size_t v = 0; v < in->nvalues; v++)
		if (d->complete[v] && ok[v])
			return v;
	return NONE;
}

/* The complete value of least worst-case regret (the smaller on a tie). */
static size_t argmin_worst(const struct decision_input *in, const struct decision *d)
{
	size_t best = NONE;

	for (size_t v = 0; v < in->nvalues; v++)
		if (d->complete[v] && (best == NONE || d->worst[v] < d->worst[best]))
			best = v;
	return best;
}

/* Out of the running: shown unacceptable, or dropped by racing (shown out
 * at the drop level when it left). */
static int out(const struct decision_input *in, const int *bad, size_t v)
{
	return bad[v] || (in->dropped && in->dropped[v]);
}

static int smaller_all_out(const struct decision_input *in, const struct decision *d, const int *bad, size_t a)
{
	for (size_t v = 0; v < a; v++)
		if (d->complete[v] && !out(in, bad, v))
			return 0;
	return 1;
}

/*
 * V's worst case is shown at most 1 + margin times U's: in every query
 * either V's regret there is at most that times U's worst-case lower bound,
 * or V's time is at most that times U's, paired within the query's rounds
 * (so V's regret there is at most that times U's regret there).
 */
static int cheap_against(const struct decision_input *in, const struct decision *d, size_t v, size_t u)
{
	double limit = 1 + in->margin;

	for (size_t q = 0; q < in->nqueries; q++)
		if (!(weighed(in, q, d->cell[q][v].hi) <= limit * d->worst_lo[u]) &&
		    !(weighed(in, q, d->pair_hi[q][v][u]) <= limit))
			return 0;
	return 1;
}

static int cheap_at_worst(const struct decision_input *in, const struct decision *d, size_t v)
{
	if (!d->complete[v])
		return 0;
	for (size_t u = 0; u < in->nvalues; u++)
		if (u != v && d->complete[u] && !cheap_against(in, d, v, u))
			return 0;
	return 1;
}

/*
 * No value shown within the margin in every query. The margin then applies
 * to the worst case: a value is as cheap at worst when it is shown to cost
 * at most 1 + margin times every other value's worst case (cheap_against:
 * no value can cost less at worst by more than the margin), and costs more
 * when its worst-case lower bound is above 1 + margin times the least upper
 * bound. The answer is the smallest value as cheap at worst, else the least
 * worst case. It is decided at a price once it is as cheap at worst and
 * every smaller value is shown outside the margin in some query (BAD, the
 * rule within): none of them can be the answer within, and none costs less
 * at worst by more than the margin. 1 when it is, or when no value can be
 * within at all; 0 leaves the regime open.
 */
static int at_a_price(const struct decision_input *in, struct decision *d, const int *bad, size_t nbad,
		      size_t ncomplete)
{
	double limit = 1 + in->margin, bhi = least(in, d, d->worst_hi);
	int good[DECISION_MAX_VALUES], worse[DECISION_MAX_VALUES];
	size_t a;

	for (size_t v = 0; v < in->nvalues; v++) {
		good[v] = cheap_at_worst(in, d, v);
		worse[v] = d->complete[v] && d->worst_lo[v] > limit * bhi;
	}
	a = smallest(in, d, good);
	if (a == NONE)
		a = argmin_worst(in, d);
	d->decided = good[a] && smaller_all_out(in, d, bad, a);
	if (!d->decided && nbad < ncomplete)
		return 0;
	d->regime = DECISION_PRICE;
	d->best_worst = least(in, d, d->worst);
	d->answer = a;
	memcpy(d->good, good, sizeof(good));
	memcpy(d->bad, worse, sizeof(worse));
	return 1;
}

/* A preferred value that is not settled: it may still be shown within. */
static int open_value(const struct decision_input *in, const struct decision *d, size_t v)
{
	return v < in->nvalues && d->complete[v] && !d->good[v] && !out(in, d->bad, v);
}

/*
 * Several values may be within the margin in every query: a tie, broken by
 * a stated rule. The setting in force now when it is within (keep it),
 * else the version's default when it is, else the smallest. The rule's
 * answer is decided once nothing shown later could change it: the current
 * setting within decides at once; the default, once the current one is
 * settled (within it would win); the smallest, once every smaller value is
 * out and both preferred ones are settled.
 */
static void within_choice(const struct decision_input *in, struct decision *d)
{
	size_t cur = in->has_prefer ? in->prefer[0] : NONE, def = in->has_prefer ? in->prefer[1] : NONE;

	if (cur < in->nvalues && d->good[cur]) {
		d->answer = cur;
		d->chosen = DECISION_CURRENT;
		d->decided = 1;
	} else if (def < in->nvalues && d->good[def]) {
		d->answer = def;
		d->chosen = DECISION_DEFAULT;
		d->decided = !open_value(in, d, cur);
	} else {
		d->answer = smallest(in, d, d->good);
		d->chosen = DECISION_SMALLEST;
		d->decided = smaller_all_out(in, d, d->bad, d->answer) && !open_value(in, d, cur) &&
			     !open_value(in, d, def);
	}
}

static unsigned long made;

unsigned long decision_count(void)
{
	return made;
}

int decision_make(const struct decision_input *in, struct decision *d)
{
	double limit = 1 + in->margin;
	size_t ngood = 0, nbad = 0, ncomplete = 0;

	made++;
	memset(d, 0, sizeof(*d));
	d->answer = NONE;
	if (!in->nqueries || in->nqueries > DECISION_MAX_QUERIES || !in->nvalues ||
	    in->nvalues > DECISION_MAX_VALUES || in->nrounds > DECISION_MAX_ROUNDS || !(in->margin > 0))
		return -EINVAL;
	for (size_t q = 0; q < in->nqueries; q++) {
		int ret = fit_query(in, q, d);

		if (ret < 0)
			return ret;
	}
	worst_case(in, d, 0);
	for (size_t v = 0; v < in->nvalues; v++) {
		d->good[v] = d->complete[v] && d->worst_hi[v] <= limit;
		d->bad[v] = d->complete[v] && d->worst_lo[v] > limit;
		ngood += d->good[v];
		nbad += d->bad[v];
		ncomplete += d->complete[v];
	}
	if (!ncomplete)
		return 0;
	if (ngood) {
		d->regime = DECISION_WITHIN;
		d->ntied = ngood;
		within_choice(in, d);
	} else {
		int bad[DECISION_MAX_VALUES], near[DECISION_MAX_VALUES];

		memcpy(bad, d->bad, sizeof(bad));
		if (in->weight)
			worst_case(in, d, 1);
		if (at_a_price(in, d, bad, nbad, ncomplete))
			return 0;
		d->regime = DECISION_OPEN;
		for (size_t v = 0; v < in->nvalues; v++)
			near[v] = d->worst[v] <= limit;
		d->answer = smallest(in, d, near);
		if (d->answer == NONE)
			d->answer = argmin_worst(in, d);
	}
	return 0;
}

/* ---- racing ---- */

static int kept(const struct decision_input *in, size_t v)
{
	return !in->dropped || !in->dropped[v];
}

/* The worst case's lower bound at the drop level. */
static double worst_lo_drop(const struct decision_input *in, const struct decision *d, size_t v)
{
	double w = 1;

	for (size_t q = 0; q < in->nqueries; q++)
		w = fmax(w, d->cell[q][v].lo_drop);
	return w;
}

/* The kept complete value of least worst-case upper bound. */
static size_t surest(const struct decision_input *in, const struct decision *d)
{
	size_t best = NONE;

	for (size_t v = 0; v < in->nvalues; v++)
		if (kept(in, v) && d->complete[v] && (best == NONE || d->worst_hi[v] < d->worst_hi[best]))
			best = v;
	return best;
}

/* Surely slower than another value in every query: never a reference
 * another value's regret is measured against. */
static int never_best(const struct decision_input *in, const struct decision *d, size_t v)
{
	for (size_t q = 0; q < in->nqueries; q++)
		if (!(d->cell[q][v].lo_drop > 1) || d->cell[q][v].fastest)
			return 0;
	return 1;
}

size_t decision_race(const struct decision_input *in, const struct decision *d,
		     enum decision_drop *why, size_t *by)
{
	double limit = 1 + in->margin;
	size_t good = NONE, sure = surest(in, d), n = 0;

	for (size_t v = 0; v < in->nvalues; v++) {
		why[v] = DECISION_KEEP;
		by[v] = NONE;
		if (good == NONE && kept(in, v) && d->good[v] && d->regime == DECISION_WITHIN)
			good = v;
	}
	for (size_t v = 0; v < in->nvalues; v++) {
		double lo = worst_lo_drop(in, d, v);

		if (!kept(in, v) || !d->complete[v] || v == d->answer)
			continue;
		if (d->decided && v > d->answer) {
			why[v] = DECISION_ABOVE, by[v] = d->answer;
		} else if (lo > limit && never_best(in, d, v)) {
			if (good != NONE)
				why[v] = DECISION_OUT, by[v] = good;
			else if (sure != NONE && sure != v &&
				 lo > (d->regime == DECISION_PRICE ? limit : 1) * d->worst_hi[sure])
				why[v] = DECISION_OUT, by[v] = sure;
		}
		n += why[v] != DECISION_KEEP;
	}
	return n;
}

size_t decision_leader(const struct decision_input *in, const struct decision *d)
{
	size_t best = NONE;

	if (d->answer != NONE)
		return d->answer;
	for (size_t v = 0; v < in->nvalues; v++)
		if (kept(in, v) && d->complete[v] && (best == NONE || d->worst[v] < d->worst[best]))
			best = v;
	return best;
}

static int holds(const int *grid, size_t n, int x)
{
	for (size_t i = 0; i < n; i++)
		if (grid[i] == x)
			return 1;
	return 0;
}

size_t decision_neighbours(const int *ladder, size_t nladder, int leader, const int *grid, size_t ngrid,
			   int below_only, int *out)
{
	size_t n = 0;

	for (size_t i = 0; i < nladder; i++) {
		if (ladder[i] != leader)
			continue;
		if (i > 0 && !holds(grid, ngrid, ladder[i - 1]))
			out[n++] = ladder[i - 1];
		if (!below_only && i + 1 < nladder && !holds(grid, ngrid, ladder[i + 1]))
			out[n++] = ladder[i + 1];
		break;
	}
	return n;
}
