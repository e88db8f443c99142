/*
 * race: the racing rule applied between rounds; see race.h. The decision
 * is the report's (bench/report/regret.h), made from the records as they
 * are on disk, so what the runner drops is what the report says.
 */
#include "bench/sweep/race.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record.h"
#include "bench/report/regret.h"
#include "bench/sweep/runner.h"

static json_t *racing(struct runner *r)
{
	return json_object_get(json_object_get(r->meta, "plan"), "racing");
}

int race_init(struct runner *r, char *err, size_t errlen)
{
	json_t *plan = json_object_get(r->meta, "plan");

	if (!r->cfg.race || racing(r))
		return 0;
	if (r->plan.grid.nsettings != 1 || strcmp(r->plan.grid.s[0].name, SWEEP_EIC) || r->plan.steps.nsteps) {
		snprintf(err, errlen, "racing sweeps effective_io_concurrency alone; this plan varies other settings too");
		return -EINVAL;
	}
	json_t *peers = json_array();

	for (int i = 0; i < r->cfg.npeers; i++)
		json_array_append_new(peers, json_string(r->cfg.peers[i]));
	json_object_set_new(plan, "racing", json_pack("{s:f, s:i, s:o, s:[], s:n}", "margin", r->cfg.margin,
						      "from_round", DECISION_FIRST_RACE, "peers", peers,
						      "dropped", "stopped"));
	return record_meta_write(r->dir, r->meta, err, errlen);
}

/* The round after which VALUE left the race, or 0. */
static int left_after(const json_t *rc, const char *value)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(rc, "dropped"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "value")) ?: "", value))
			return (int)json_integer_value(json_object_get(d, "after_round"));
	return 0;
}

int race_resume(struct runner *r)
{
	const json_t *peers = json_object_get(racing(r), "peers"), *p;
	size_t i;

	if (!racing(r))
		return 0;
	r->cfg.race = true;
	if (!r->cfg.npeers)
		json_array_foreach(peers, i, p)
			if (json_is_string(p) && r->npeer_names < DECISION_MAX_QUERIES - 1)
				r->peer_names[r->npeer_names++] = json_string_value(p);
	if (r->npeer_names) {
		r->cfg.peers = r->peer_names;
		r->cfg.npeers = r->npeer_names;
	}
	race_apply_drops(r);
	return 1;
}

void race_apply_drops(struct runner *r)
{
	const json_t *rc = racing(r);
	int k = 0;

	if (!rc)
		return;
	for (int i = 0; i < r->plan.ntrials; i++) {
		const struct sweep_trial *t = &r->plan.trials[i];
		int after = left_after(rc, sweep_value(&r->plan, t->combo, 0));

		if (!after || t->round <= after)
			r->plan.trials[k++] = *t;
	}
	r->plan.ntrials = k;
}

static void keys_to_meta(struct runner *r)
{
	json_t *keys = json_array();

	for (int i = 0; i < r->plan.ntrials; i++)
		json_array_append_new(keys, json_string(r->plan.trials[i].key));
	json_object_set_new(json_object_get(r->meta, "plan"), "trial_keys", keys);
}

void race_stopped(struct runner *r, const char *why)
{
	char err[256];
	json_t *rc = racing(r);

	if (!rc)
		return;
	json_object_set_new(rc, "stopped", json_string(why));
	record_meta_write(r->dir, r->meta, err, sizeof(err));
}

/* The peers' reports and this sweep's, loaded; N of them. */
static int load_all(struct runner *r, struct report *reps, const char **names, size_t *n,
		    char *err, size_t errlen)
{
	int ret = 0;

	*n = 0;
	for (int i = 0; ret == 0 && i < r->cfg.npeers && *n < DECISION_MAX_QUERIES - 1; i++) {
		ret = report_load(r->cfg.peers[i], &reps[*n], err, errlen);
		if (ret == 0)
			names[*n] = reps[*n].nqueries ? reps[*n].queries[0] : r->cfg.peers[i];
		(*n) += ret == 0;
	}
	if (ret == 0) {
		ret = report_load(r->dir, &reps[*n], err, errlen);
		if (ret == 0)
			names[*n] = reps[*n].nqueries ? reps[*n].queries[0] : "this sweep";
		(*n) += ret == 0;
	}
	return ret;
}

static const char *drop_words(const struct regret *g, size_t v, enum decision_drop why, size_t by,
			      char *buf, size_t len)
{
	char x[32], y[32];
	size_t q = 0;

	for (size_t k = 1; k < g->in.nqueries; k++)
		if (g->d.cell[k][v].lo_drop > g->d.cell[q][v].lo_drop)
			q = k;
	if (why == DECISION_ABOVE && g->d.regime == DECISION_PRICE)
		snprintf(buf, len, "above %s, the decision at a price: as cheap at worst as any value, with every smaller value out",
			 g->values[by]);
	else if (why == DECISION_ABOVE)
		snprintf(buf, len, "above %s, which is within the margin in every query with every smaller value out (the decision)",
			 g->values[by]);
	else {
		regret_fmt_x(y, sizeof(y), g->d.worst_hi[by]);
		snprintf(buf, len, "at least %s its best in %s (99%% lower bound), and %s is %s%s%s",
			 regret_fmt_x(x, sizeof(x), g->d.cell[q][v].lo_drop), g->names[q], g->values[by],
			 g->d.regime == DECISION_WITHIN ? "within the margin in every query" : "at most ",
			 g->d.regime == DECISION_WITHIN ? "" : y, g->d.regime == DECISION_WITHIN ? "" : " at worst");
	}
	return buf;
}

static void record_drops(struct runner *r, const struct regret *g, const enum decision_drop *why,
			 const size_t *by)
{
	json_t *list = json_object_get(racing(r), "dropped");
	char words[256];

	for (size_t v = 0; v < g->in.nvalues; v++) {
		if (why[v] == DECISION_KEEP || left_after(racing(r), g->values[v]))
			continue;
		drop_words(g, v, why[v], by[v], words, sizeof(words));
		json_array_append_new(list, json_pack("{s:s, s:i, s:s}", "value", g->values[v],
						      "after_round", r->plan.runs, "why", words));
		fprintf(stderr, "eicbench %s: %s leaves the race after round %d: %s\n", r->cfg.command,
			g->values[v], r->plan.runs, words);
	}
}

/* Rounds of this sweep holding a flagged run. */
static int flagged_rounds(const struct regret *g, size_t own)
{
	int n = 0;

	for (int k = 1; k <= g->rounds; k++)
		for (size_t i = 0; i < g->nflags; i++)
			if (g->flags[i].q == own && g->flags[i].round == k) {
				n++;
				break;
			}
	return n;
}

int race_after_round(struct runner *r, int *decided, int *flagged, char *err, size_t errlen)
{
	struct report reps[DECISION_MAX_QUERIES];
	const struct report *rp[DECISION_MAX_QUERIES];
	const char *names[DECISION_MAX_QUERIES];
	size_t series[DECISION_MAX_QUERIES] = { 0 }, n = 0, by[DECISION_MAX_VALUES];
	enum decision_drop why[DECISION_MAX_VALUES];
	unsigned char dropped[DECISION_MAX_VALUES] = { 0 };
	struct regret *g = calloc(1, sizeof(*g));
	char lerr[1024];
	int ret;

	*decided = *flagged = 0;
	if (!g)
		return -ENOMEM;
	memset(reps, 0, sizeof(reps));
	ret = load_all(r, reps, names, &n, lerr, sizeof(lerr));
	for (size_t i = 0; i < n; i++)
		rp[i] = &reps[i];
	if (ret == 0)
		ret = regret_build(rp, series, names, n, r->cfg.margin, g, lerr, sizeof(lerr));
	if (ret == 0) {
		*flagged = flagged_rounds(g, n - 1);
		*decided = g->d.decided;
		for (size_t v = 0; v < g->in.nvalues; v++)
			dropped[v] = left_after(racing(r), g->values[v]) > 0;
		g->in.dropped = dropped;
		if (r->plan.runs >= DECISION_FIRST_RACE && decision_race(&g->in, &g->d, why, by) > 0)
			record_drops(r, g, why, by);
		race_apply_drops(r);
		keys_to_meta(r);
		ret = record_meta_write(r->dir, r->meta, err, errlen);
	} else
		ret = 0;	/* nothing to decide by yet: racing waits */
	regret_free(g);
	free(g);
	for (size_t i = 0; i < n; i++)
		report_free(&reps[i]);
	return ret;
}
