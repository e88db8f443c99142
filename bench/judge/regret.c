/*
 * regret: sweep records into the decision's table of times by column,
 * value and round; the disturbance rule; the racing history from
 * meta.json. See regret.h.
 */
#include "bench/judge/regret.h"
#include "bench/judge/classes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/semantics.h"

#define INDEX_MS "explain.bitmap.index_phase.total_ms"
#define EXEC_MS  "explain.execution_ms"

const char *regret_fmt_x(char *buf, size_t len, double x)
{
	if (!isfinite(x))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, x < 10 ? "%.2fx" : "%.1fx", x);
	return buf;
}

double regret_margin_of(const struct sweep_result *r)
{
	double m = record_num_at(r->meta, "plan.racing.margin");

	return m > 0 ? m : DECISION_MARGIN;
}

int regret_whole_query(const struct sweep_result *r)
{
	const char *unit = record_str_at(json_object_get(r->meta, "plan"), "decision_unit", NULL);

	return unit && !strcmp(unit, "execution");
}

int regret_looks_of(const struct sweep_result *r)
{
	const json_t *racing = json_object_get(json_object_get(r->meta, "plan"), "racing");
	double from = record_num_at(racing, "from_round"), max = record_num_at(r->meta, "plan.max_runs");
	int looks;

	if (!json_is_object(racing) || !(max >= 1))
		return 1;
	if (!(from >= 1))
		from = DECISION_FIRST_RACE;
	looks = (int)max - (int)from + 1;
	return looks > 1 ? looks : 1;
}

/* ---- which trial goes where ---- */

size_t regret_value_index(const struct regret *g, const char *value)
{
	for (size_t v = 0; value && v < g->in.nvalues; v++)
		if (!strcmp(g->values[v], value))
			return v;
	return (size_t)-1;
}

/* The setting in force where the records were made (the tablespace's own
 * value, else the server's) and the version's default, as value indices
 * for the decision's tie rule; "" and NULL when not recorded. */
const char *regret_current_of(const struct sweep_result *r, char *buf, size_t len)
{
	const json_t *ts = json_object_get(json_object_get(json_object_get(r->meta, "plan"), "tablespace"),
					   "effective_io_concurrency");
	const char *srv = result_server_setting(r, "effective_io_concurrency");

	buf[0] = '\0';
	if (json_is_integer(ts) && json_integer_value(ts) >= 0)
		snprintf(buf, len, "%lld", (long long)json_integer_value(ts));
	else if (json_is_string(ts) && strcmp(json_string_value(ts), "-1"))
		snprintf(buf, len, "%s", json_string_value(ts));
	else if (srv)
		snprintf(buf, len, "%s", srv);
	return buf[0] ? buf : NULL;
}

static void prefer(struct regret *g, const struct sweep_result *r)
{
	char cur[32];
	const char *c = regret_current_of(r, cur, sizeof(cur));
	const char *def = r->version_num ? semantics_default("effective_io_concurrency", (int)r->version_num) : NULL;

	g->in.has_prefer = 1;
	g->in.prefer[0] = c ? regret_value_index(g, c) : (size_t)-1;
	g->in.prefer[1] = def ? regret_value_index(g, def) : (size_t)-1;
}


/* The value index of trial T in column Q, or -1 when it does not count. */
static size_t trial_value(const struct regret *g, size_t q, const json_t *t, size_t *grp)
{
	const struct sweep_result *r = g->reps[q];
	size_t i = result_trial_group(r, t);

	*grp = i;
	if (i == RESULT_NONE || r->groups[i].series != g->series[q])
		return (size_t)-1;
	return regret_value_index(g, result_value(r, &r->groups[i], r->swept));
}

static double *cell(const struct regret *g, double *ms, size_t q, size_t v, int round)
{
	return &ms[(q * g->in.nvalues + v) * g->in.nrounds + (size_t)(round - 1)];
}

/* ---- the disturbance rule ---- */

static double median(double *x, size_t n)
{
	return n ? stats_median(x, n) : NAN;
}

/* The device's read wait per MiB read over the whole trial. */
static double ms_per_mib(const json_t *t)
{
	double bytes = record_num_at(t, "disk.read_bytes");

	if (!(bytes > 0))
		return NAN;
	return record_num_at(t, "disk.read_await_ms") * record_num_at(t, "disk.reads") / (bytes / 1048576);
}

static void flag(struct regret *g, size_t q, size_t v, int round, const char *fmt, double a, double b)
{
	struct regret_flag *f;

	for (size_t i = 0; i < g->nflags; i++)
		if (g->flags[i].q == q && g->flags[i].v == v && g->flags[i].round == round)
			return;	/* one reason is enough */
	if (g->nflags == REGRET_MAX_FLAGS)
		return;
	f = &g->flags[g->nflags++];
	f->q = q, f->v = v, f->round = round;
	snprintf(f->why, sizeof(f->why), fmt, a, a / b, b);
}

/* The series' index-phase median (13-17), and the value's ms per MiB median. */
static void disturbances(struct regret *g, size_t q)
{
	const struct sweep_result *r = g->reps[q];
	size_t n = json_array_size(r->trials), k = 0, grp;
	double *x = malloc((n + 1) * sizeof(*x)), index_med;
	int index_rule = r->version_num >= 130000 && r->version_num < 180000;
	const json_t *t;
	size_t i;

	if (!x)
		return;
	json_array_foreach(r->trials, i, t)
		if (trial_value(g, q, t, &grp) != (size_t)-1 && isfinite(record_num_at(t, INDEX_MS)))
			x[k++] = record_num_at(t, INDEX_MS);
	index_med = median(x, k);
	json_array_foreach(r->trials, i, t) {
		size_t v = trial_value(g, q, t, &grp), m = 0, j;
		int round = (int)json_integer_value(json_object_get(t, "round"));
		const json_t *o;
		double own = ms_per_mib(t), steal = record_num_at(t, "cpu.steal_pct");

		if (v == (size_t)-1 || round < 1)
			continue;
		if (index_rule && record_num_at(t, INDEX_MS) > REGRET_INDEX_X * index_med)
			flag(g, q, v, round, "its index phase took %.0f ms, %.2fx the series' median %.0f ms",
			     record_num_at(t, INDEX_MS), index_med);
		if (steal > REGRET_STEAL_PCT)
			flag(g, q, v, round, "steal time was %.1f%% of the CPUs, %.1fx the rule's %.0f%%",
			     steal, REGRET_STEAL_PCT);
		json_array_foreach(r->trials, j, o)
			if (trial_value(g, q, o, &grp) == v && isfinite(ms_per_mib(o)))
				x[m++] = ms_per_mib(o);
		if (m >= 3 && own > REGRET_MS_PER_MIB_X * median(x, m))
			flag(g, q, v, round, "the device took %.2f ms per MiB read, %.2fx the value's median %.2f",
			     own, median(x, m));
	}
	free(x);
}


/* Did leaving the flagged runs out leave no answer, or a value still in the
 * race (one the runs kept could compare) with no round to compare it in? */
static int lost_to_flags(const struct regret *g)
{
	if (g->d.answer == (size_t)-1)
		return 1;
	for (size_t v = 0; v < g->in.nvalues; v++)
		if (!g->dropped[v] && g->d_all.complete[v] && !g->d.complete[v])
			return 1;
	return 0;
}

/* ---- building ---- */

static int fill(struct regret *g, size_t q)
{
	const struct sweep_result *r = g->reps[q];
	int whole = regret_whole_query(r);
	const json_t *t;
	size_t i, grp;

	json_array_foreach(r->trials, i, t) {
		size_t v = trial_value(g, q, t, &grp);
		int round = (int)json_integer_value(json_object_get(t, "round"));

		if (v == (size_t)-1 || round < 1 || (size_t)round > g->in.nrounds)
			continue;
		*cell(g, g->ms_all, q, v, round) = whole ? record_num_at(t, EXEC_MS) : result_trial_ms(r, t);
		*cell(g, g->ms, q, v, round) = whole ? record_num_at(t, EXEC_MS) : result_trial_ms(r, t);
	}
	for (i = 0; i < g->nflags; i++)
		if (g->flags[i].q == q)
			*cell(g, g->ms, q, g->flags[i].v, g->flags[i].round) = NAN;
	return 0;
}

/* plan.racing's LIST ("dropped", "joined") into TO, *N of them. */
static void read_history(struct regret_drop *to, size_t *n, const struct sweep_result *r, const char *list,
			 const char *query)
{
	const json_t *a = json_object_get(json_object_get(json_object_get(r->meta, "plan"), "racing"), list), *o;
	size_t i;

	json_array_foreach(a, i, o) {
		struct regret_drop *d;

		if (*n == REGRET_MAX_DROPS)
			break;
		d = &to[(*n)++];
		snprintf(d->value, sizeof(d->value), "%s", record_str_at(o, "value", NULL) ?: "?");
		snprintf(d->query, sizeof(d->query), "%s", query);
		d->after_round = (int)json_integer_value(json_object_get(o, "after_round"));
		snprintf(d->why, sizeof(d->why), "%s", record_str_at(o, "why", NULL) ?: "");
	}
}

static void read_ladder(struct regret *g, const struct sweep_result *r)
{
	const json_t *a = json_object_get(json_object_get(json_object_get(r->meta, "plan"), "racing"), "refine"), *o;
	size_t i, used = 0;

	g->ladder[0] = 0;
	json_array_foreach(a, i, o)
		if (json_is_integer(o) && used < sizeof(g->ladder))
			used += (size_t)snprintf(g->ladder + used, sizeof(g->ladder) - used, "%s%lld", i ? ", " : "",
						 (long long)json_integer_value(o));
}

static int max_round(const struct sweep_result *r)
{
	const json_t *t;
	size_t i;
	int m = 0;

	json_array_foreach(r->trials, i, t)
		if (!result_trial_priming(t) && json_integer_value(json_object_get(t, "round")) > m)
			m = (int)json_integer_value(json_object_get(t, "round"));
	return m;
}

static void set_values(struct regret *g, const struct sweep_result *r, size_t series)
{
	size_t idx[DECISION_MAX_VALUES * 4 + 1], n;

	if (r->ngroups > DECISION_MAX_VALUES * 4)
		return;
	n = result_series_groups(r, series, idx);
	for (size_t k = 0; k < n && g->in.nvalues < DECISION_MAX_VALUES; k++) {
		const char *v = result_value(r, &r->groups[idx[k]], r->swept);

		if (regret_value_index(g, v) != (size_t)-1)
			continue;
		snprintf(g->values[g->in.nvalues], sizeof(g->values[0]), "%s", v);
		g->in.values[g->in.nvalues] = g->values[g->in.nvalues];
		g->in.nvalues++;
	}
}

/* The columns' weights as their sweeps record them; in.weight only when
 * they differ (equal weights are the plain worst case). */
static void weigh(struct regret *g)
{
	double top = 0;
	int differ = 0;

	for (size_t q = 0; q < g->in.nqueries; q++) {
		g->weight[q] = class_weight(g->reps[q], g->names[q]);
		top = fmax(top, g->weight[q]);
		differ |= q && g->weight[q] != g->weight[0];
	}
	for (size_t q = 0; q < g->in.nqueries; q++)
		g->weight_rel[q] = top > 0 && g->weight[q] > 0 ? g->weight[q] / top : 1;
	g->in.weight = differ ? g->weight_rel : NULL;
}

int regret_build(const struct sweep_result *const *reps, const size_t *series, const char *const *names,
		 size_t n, double margin, struct regret *g, char *err, size_t errlen)
{
	size_t cells;
	int ret;

	memset(g, 0, sizeof(*g));
	if (!n || n > DECISION_MAX_QUERIES)
		return result_bad(err, errlen, "the decision takes 1 to %d queries, not %zu", DECISION_MAX_QUERIES, n);
	set_values(g, reps[0], series[0]);
	for (size_t q = 0; q < n; q++) {
		g->reps[q] = reps[q];
		g->series[q] = series[q];
		snprintf(g->names[q], sizeof(g->names[0]), "%s", names[q]);
		g->in.queries[q] = g->names[q];
		g->qrounds[q] = max_round(reps[q]);
		if (g->qrounds[q] > g->rounds)
			g->rounds = g->qrounds[q];
		g->priming += reps[q]->priming;
		read_history(g->drops, &g->ndrops, reps[q], "dropped", names[q]);
		if (q == 0) {	/* the same values join every query's sweep */
			read_history(g->joins, &g->njoins, reps[q], "joined", "");
			read_ladder(g, reps[q]);
		}
	}
	g->in.nqueries = n;
	weigh(g);
	g->in.nrounds = (size_t)(g->rounds > 0 ? g->rounds : 1);
	g->in.margin = margin;
	g->looks = regret_looks_of(reps[0]);
	g->in.level = decision_look_level(g->looks);
	prefer(g, reps[0]);
	if (g->in.nrounds > DECISION_MAX_ROUNDS)
		return result_bad(err, errlen, "%d rounds: the decision takes at most %d", g->rounds, DECISION_MAX_ROUNDS);
	cells = n * g->in.nvalues * g->in.nrounds;
	g->ms = malloc((cells + 1) * sizeof(double));
	g->ms_all = malloc((cells + 1) * sizeof(double));
	if (!g->ms || !g->ms_all)
		return -ENOMEM;
	for (size_t i = 0; i < cells; i++)
		g->ms[i] = g->ms_all[i] = NAN;
	for (size_t q = 0; q < n; q++)
		disturbances(g, q);
	for (size_t q = 0; q < n; q++)
		fill(g, q);
	for (size_t i = 0; i < g->ndrops; i++) {
		size_t v = regret_value_index(g, g->drops[i].value);

		if (v != (size_t)-1)
			g->dropped[v] = 1;
	}
	g->in.dropped = g->dropped;
	g->in.ms = g->ms_all;
	ret = decision_make(&g->in, &g->d_all);
	g->in.ms = g->ms;
	if (ret == 0)
		ret = decision_make(&g->in, &g->d);
	if (ret < 0)
		return result_bad(err, errlen, "no decision: %zu values, %zu rounds, margin %g", g->in.nvalues,
				  g->in.nrounds, margin);
	if (g->nflags && g->d_all.answer != (size_t)-1 && lost_to_flags(g)) {
		g->d = g->d_all;	/* left out, the flagged runs left no answer or a value uncompared: kept, and said */
		g->in.ms = g->ms_all;	/* and racing, which reads IN, sees what D saw */
		g->kept_flagged = 1;
	}
	g->differ = g->nflags && g->d.answer != g->d_all.answer;
	return 0;
}

void regret_free(struct regret *g)
{
	free(g->ms);
	free(g->ms_all);
	memset(g, 0, sizeof(*g));
}
