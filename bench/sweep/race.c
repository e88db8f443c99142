/*
 * race: the racing rule applied between rounds; see race.h. The decision
 * is the report's (bench/judge/regret.h), made from the records as they
 * are on disk, so what the runner drops is what the report says.
 */
#include "bench/sweep/race.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record.h"
#include "bench/judge/classes.h"
#include "bench/judge/regret.h"
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
	json_t *peers = json_array(), *rc;
	int n = 0;

	if (r->cfg.refine && (n = sweep_eic_ladder("--refine", r->cfg.refine, r->ladder, err, errlen)) < 0) {
		json_decref(peers);
		return n;
	}
	r->nladder = n;
	for (int i = 0; i < r->cfg.npeers; i++)
		json_array_append_new(peers, json_string(r->cfg.peers[i]));
	rc = json_pack("{s:f, s:i, s:o, s:[], s:n, s:b, s:b}", "margin", r->cfg.margin, "from_round", DECISION_FIRST_RACE,
		       "peers", peers, "dropped", "stopped", "include_forced", r->cfg.include_forced,
		       "replay_all", r->cfg.companion_all);
	if (rc && r->cfg.weights)
		json_object_set_new(rc, "weights", class_weights_json(r->cfg.weights));
	if (n) {
		json_t *ladder = json_array();

		for (int k = 0; k < n; k++)
			json_array_append_new(ladder, json_integer(r->ladder[k]));
		json_object_set_new(rc, "refine", ladder);
		json_object_set_new(rc, "joined", json_array());
	}
	json_object_set_new(plan, "racing", rc);
	return record_meta_write(r->dir, r->meta, err, errlen);
}

/* The round after which VALUE is in LIST ("dropped": left the race,
 * "joined": joined it), or 0. */
static int listed_after(const json_t *rc, const char *list, const char *value)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(rc, list), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "value")) ?: "", value))
			return (int)json_integer_value(json_object_get(d, "after_round"));
	return 0;
}

static int left_after(const json_t *rc, const char *value)
{
	return listed_after(rc, "dropped", value);
}

int race_resume(struct runner *r)
{
	const json_t *peers = json_object_get(racing(r), "peers"), *p, *rung;
	size_t i;

	if (!racing(r))
		return 0;
	r->cfg.race = true;
	r->nladder = 0;
	json_array_foreach(json_object_get(racing(r), "refine"), i, rung)
		if (json_is_integer(rung) && r->nladder < SWEEP_MAX_VALUES)
			r->ladder[r->nladder++] = (int)json_integer_value(rung);
	if (!r->cfg.npeers)
		json_array_foreach(peers, i, p)
			if (json_is_string(p) && r->npeer_names < DECISION_MAX_QUERIES - 1)
				r->peer_names[r->npeer_names++] = json_string_value(p);
	if (r->npeer_names) {
		r->cfg.peers = r->peer_names;
		r->cfg.npeers = r->npeer_names;
	}
	/* the folder's own rule; one made before it put a replay beside every trial */
	{
		const json_t *ra = json_object_get(racing(r), "replay_all");

		r->cfg.companion_all = ra ? json_is_true(ra) : true;
	}
	r->nfollow = 0;
	json_array_foreach(json_object_get(racing(r), "replay_values"), i, rung)
		if (json_is_integer(rung) && r->nfollow < (int)(sizeof(r->follow) / sizeof(r->follow[0])))
			r->follow[r->nfollow++] = (int)json_integer_value(rung);
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
		const char *v = sweep_value(&r->plan, t->combo, 0);
		int after = left_after(rc, v), joined = listed_after(rc, "joined", v);

		if ((!after || t->round <= after) && t->round > joined)
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
static int load_all(struct runner *r, struct sweep_result *reps, const char **names, size_t *n,
		    char *err, size_t errlen)
{
	int ret = 0;

	*n = 0;
	for (int i = 0; ret == 0 && i < r->cfg.npeers && *n < DECISION_MAX_QUERIES - 1; i++) {
		ret = result_load(r->cfg.peers[i], &reps[*n], err, errlen);
		if (ret == 0)
			names[*n] = reps[*n].nqueries ? reps[*n].queries[0] : r->cfg.peers[i];
		(*n) += ret == 0;
	}
	if (ret == 0) {
		ret = result_load(r->dir, &reps[*n], err, errlen);
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

/* VALUE joined the race and has run fewer than DECISION_FIRST_RACE rounds since. */
static int young(struct runner *r, const char *value)
{
	int j = listed_after(racing(r), "joined", value);

	return j && r->plan.runs - j < DECISION_FIRST_RACE;
}

/* The leading value's neighbours on the ladder that the grid lacks, into
 * JOIN; how many. */
static size_t neighbours(struct runner *r, const struct regret *g, int *join, int *leader)
{
	const struct sweep_setting *st = &r->plan.grid.s[0];
	size_t lead = decision_leader(&g->in, &g->d);
	int grid[SWEEP_MAX_VALUES];

	if (lead == (size_t)-1)
		return 0;
	for (int k = 0; k < st->nvalues; k++)
		grid[k] = atoi(st->values[k]);
	*leader = atoi(g->values[lead]);
	return decision_neighbours(r->ladder, (size_t)r->nladder, *leader, grid, (size_t)st->nvalues,
				   g->d.regime == DECISION_WITHIN && g->d.answer != (size_t)-1, join);
}

/* The values whose companions run in the next rounds: 0, the leading
 * value and its nearest rival (of the values not dropped before this
 * decision and complete, the one of least worst-case regret after it),
 * recorded as plan.racing.replay_values, and after which round in
 * plan.racing.replay_history. */
static void follow(struct runner *r, const struct regret *g, const unsigned char *dropped)
{
	size_t lead = decision_leader(&g->in, &g->d), rival = (size_t)-1;
	json_t *list, *hist;

	if (!r->cfg.companion || r->cfg.companion_all)
		return;
	list = json_array();
	r->nfollow = 0;
	r->follow[r->nfollow++] = 0;
	for (size_t v = 0; lead != (size_t)-1 && v < g->in.nvalues; v++)
		if (v != lead && !dropped[v] && g->d.complete[v] &&
		    (rival == (size_t)-1 || g->d.worst[v] < g->d.worst[rival]))
			rival = v;
	if (lead != (size_t)-1 && atoi(g->values[lead]))
		r->follow[r->nfollow++] = atoi(g->values[lead]);
	if (rival != (size_t)-1 && atoi(g->values[rival]))
		r->follow[r->nfollow++] = atoi(g->values[rival]);
	hist = json_object_get(racing(r), "replay_history");
	for (int i = 0; i < r->nfollow; i++)
		json_array_append_new(list, json_integer(r->follow[i]));
	if (!hist) {
		hist = json_array();
		json_object_set_new(racing(r), "replay_history", hist);
	}
	json_array_append_new(hist, json_pack("{s:i, s:O}", "after_round", r->plan.runs, "values", list));
	json_object_set_new(racing(r), "replay_values", list);
}

int race_after_round(struct runner *r, int *decided, int *flagged, int *join, size_t *njoin, int *leader,
		     char *err, size_t errlen)
{
	struct sweep_result reps[DECISION_MAX_QUERIES];
	const struct sweep_result *rp[DECISION_MAX_QUERIES];
	const char *names[DECISION_MAX_QUERIES], *mnames[DECISION_MAX_QUERIES];
	size_t series[DECISION_MAX_QUERIES] = { 0 }, n = 0, m = 0, by[DECISION_MAX_VALUES];
	int counts[DECISION_MAX_QUERIES] = { 0 }, any = 0;
	enum decision_drop why[DECISION_MAX_VALUES];
	unsigned char dropped[DECISION_MAX_VALUES] = { 0 };
	struct regret *g = calloc(1, sizeof(*g));
	char lerr[1024];
	int ret;

	*decided = *flagged = 0;
	*njoin = 0;
	if (!g)
		return -ENOMEM;
	memset(reps, 0, sizeof(reps));
	ret = load_all(r, reps, names, &n, lerr, sizeof(lerr));
	/* the classes the answer stands on (bench/judge/classes.h), as the
	 * judge takes them; this sweep's own column last, when it counts */
	for (size_t i = 0; i < n; i++)
		any |= counts[i] = class_counts(&reps[i], names[i]);
	for (size_t i = 0; i < n; i++)
		if (counts[i] || !any) {
			rp[m] = &reps[i];
			mnames[m++] = names[i];
		}
	if (ret == 0)
		ret = regret_build(rp, series, mnames, m, r->cfg.margin, g, lerr, sizeof(lerr));
	if (ret == 0) {
		*flagged = counts[n - 1] || !any ? flagged_rounds(g, m - 1) : 0;
		*decided = g->d.decided;
		for (size_t v = 0; v < g->in.nvalues; v++)
			dropped[v] = left_after(racing(r), g->values[v]) > 0;
		g->in.dropped = dropped;
		if (r->plan.runs >= DECISION_FIRST_RACE && decision_race(&g->in, &g->d, why, by) > 0) {
			for (size_t v = 0; v < g->in.nvalues; v++)	/* a value that joined runs its rounds first */
				if (young(r, g->values[v]))
					why[v] = DECISION_KEEP;
			record_drops(r, g, why, by);
		}
		for (size_t v = 0; v < g->in.nvalues; v++)	/* a young value is never dropped */
			if (young(r, g->values[v]))
				*decided = 0;
		if (join && r->nladder && r->plan.runs >= DECISION_FIRST_RACE)
			*njoin = neighbours(r, g, join, leader);
		follow(r, g, dropped);
		race_apply_drops(r);
		keys_to_meta(r);
		ret = record_meta_write(r->dir, r->meta, err, errlen);
	} else
		ret = 0;	/* nothing to decide by yet: racing waits */
	regret_free(g);
	free(g);
	for (size_t i = 0; i < n; i++)
		result_free(&reps[i]);
	return ret;
}

int race_join(struct runner *r, const int *join, size_t n, int leader, char *err, size_t errlen)
{
	json_t *list = json_object_get(racing(r), "joined");
	char value[16], why[160];
	int ret = 0, added = 0;

	if (!list) {
		list = json_array();
		json_object_set_new(racing(r), "joined", list);
	}
	for (size_t i = 0; ret >= 0 && i < n; i++) {
		ret = sweep_grid_insert_eic(&r->plan.grid, join[i]);
		if (ret == -E2BIG)
			snprintf(err, errlen, "the grid holds %d values already: %d cannot join the race", SWEEP_MAX_VALUES, join[i]);
		if (ret != 1)
			continue;
		added++;
		snprintf(value, sizeof(value), "%d", join[i]);
		snprintf(why, sizeof(why), "next to %d on the ladder, the leading value after round %d", leader, r->plan.runs);
		json_array_append_new(list, json_pack("{s:s, s:i, s:s}", "value", value, "after_round", r->plan.runs,
						      "why", why));
		fprintf(stderr, "eicbench %s: %s joins the race after round %d: %s\n", r->cfg.command, value,
			r->plan.runs, why);
	}
	if (ret < 0)
		return ret;
	if (!added)
		return 0;
	return race_replan(r, r->plan.runs, err, errlen);
}

int race_replan(struct runner *r, int runs, char *err, size_t errlen)
{
	struct sweep_plan p;
	json_t *plan = json_object_get(r->meta, "plan"), *grown;
	int ret = sweep_plan_build(&p, &r->plan.grid, runs, r->plan.order_seed, err, errlen);

	if (ret < 0)
		return ret;
	sweep_plan_free(&r->plan);
	r->plan = p;
	race_apply_drops(r);
	grown = sweep_plan_json(&r->plan);
	json_object_set(plan, "grid", json_object_get(grown, "grid"));
	json_object_set(plan, "runs", json_object_get(grown, "runs"));
	json_object_set(plan, "trial_keys", json_object_get(grown, "trial_keys"));
	json_decref(grown);
	return record_meta_write(r->dir, r->meta, err, errlen);
}
