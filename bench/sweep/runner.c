/*
 * runner: setup, the trials, more rounds until separated, and the settings
 * put back; see runner.h. meta.json is written in runner_meta.c.
 */
#include "bench/pg/settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/cli/progress.h"
#include "bench/pg/cluster.h"
#include "bench/pg/lock.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/record.h"
#include "bench/record/record_path.h"
#include "bench/judge/classes.h"
#include "bench/judge/decision.h"
#include "bench/judge/result.h"
#include "bench/sweep/race.h"
#include "bench/sweep/runner.h"
#include "bench/sweep/runner_memory.h"
#include "bench/sweep/runner_meta.h"
#include "io/clock.h"
#include "io/faultpoint.h"
#include "io/rng.h"

const char *runner_value(const struct runner *r, int combo, int i)
{
	return sweep_value(&r->plan, combo, i);
}

enum settings_context runner_context(const struct runner *r, int i)
{
	return r->plan.grid.s[i].context;
}

int runner_session(const struct runner *r, PGconn *c, int combo, char *err, size_t errlen)
{
	int ret = 0;

	for (int i = 0; ret == 0 && i < r->plan.grid.nsettings; i++)
		if (runner_context(r, i) == SETTINGS_SESSION && runner_value(r, combo, i))
			ret = settings_set(c, r->plan.grid.s[i].name, runner_value(r, combo, i), err, errlen);
	return ret;
}

json_t *runner_in_force(const struct runner *r, PGconn *c)
{
	char names[SWEEP_MAX_SETTINGS * (SWEEP_NAME_MAX + 1) + 3] = "{", err[256];
	const char *p[] = { names };
	json_t *o = json_object();
	PGresult *res;

	for (int i = 0; i < r->plan.grid.nsettings; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? "," : "", r->plan.grid.s[i].name);
	strcat(names, "}");
	res = pgutil_query(c, sql_text("sweep/current_settings.sql"), 1, p, err, sizeof(err));
	for (int i = 0; res && i < PQntuples(res); i++)
		json_object_set_new(o, PQgetvalue(res, i, 0), json_string(PQgetvalue(res, i, 1)));
	PQclear(res);
	return o;
}

/* ---- the settings, checked and put back ---- */

/* ERR prefixed with where value V of setting I was given, if known. */
static void say_origin(const struct runner *r, int i, int v, char *err, size_t errlen)
{
	char where[PATH_MAX + 64] = "", *was;

	if (r->cfg.origin)
		r->cfg.origin(r, i, v, where, sizeof(where));
	if (!where[0] || !(was = strdup(err)))
		return;
	snprintf(err, errlen, "%s: %s", where, was);
	free(was);
}

static int check_setting(struct runner *r, PGconn *c, int i, char *err, size_t errlen)
{
	struct sweep_setting *st = &r->plan.grid.s[i];
	enum settings_context ctx;
	int ret = settings_context_of(c, st->name, &ctx, err, errlen), k;

	st->context = ctx;
	if (ret == 0 && ctx != SETTINGS_SESSION) {
		if (r->cfg.warm && ctx == SETTINGS_RESTART && !r->cfg.workload->warms_up) {
			snprintf(err, errlen, "--set %s needs a server restart, which --warm rules out (a restart empties the caches)",
				 st->name);
			return -EINVAL;
		}
		if (r->srv.external && !r->srv.restart_cmd[0]) {
			snprintf(err, errlen, "--set %s changes the server's configuration; for a --dsn server that needs --restart-cmd",
				 st->name);
			return -EINVAL;
		}
		ret = settings_remember(&r->journal, c, st->name, ctx, err, errlen);
	}
	if (ret == -EINVAL)
		say_origin(r, i, -1, err, errlen);
	for (k = 0; ret == 0 && k < st->nvalues; k++) {
		ret = settings_try(c, st->name, ctx, st->values[k], err, errlen);
		if (ret == -EINVAL)
			say_origin(r, i, k, err, errlen);
		if (ret == 0 && r->stop && *r->stop) {
			snprintf(err, errlen, "interrupted while checking the settings");
			ret = -EINTR;
		}
	}
	return ret;
}

/* Every value of every setting tried; what ALTER SYSTEM wrote put back. */
static int check_settings(struct runner *r, char *err, size_t errlen)
{
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	int ret = c ? 0 : -EIO;

	for (int i = 0; ret == 0 && i < r->plan.grid.nsettings; i++)
		ret = check_setting(r, c, i, err, errlen);
	PQfinish(c);
	if (r->journal.n) {
		char e2[1024];
		int back = settings_restore(&r->journal, &r->srv, ret < 0 ? e2 : err,
					    ret < 0 ? sizeof(e2) : errlen);

		if (back < 0 && ret == 0)
			ret = back;
	}
	return ret;
}

/* ALTER SYSTEM for COMBO's reload and restart settings, journaled first (a
 * step's unset ones back as they were); RESTART when one waits for it. */
static int system_settings(struct runner *r, int combo, bool *restart, char *err, size_t errlen)
{
	PGconn *c = NULL;
	bool any = false;
	int ret = 0;

	*restart = false;
	for (int i = 0; ret == 0 && i < r->plan.grid.nsettings; i++) {
		enum settings_context ctx = runner_context(r, i);
		const char *name = r->plan.grid.s[i].name, *v = runner_value(r, combo, i);

		if (ctx == SETTINGS_SESSION)
			continue;
		if (!c && !(c = server_connect(&r->srv, NULL, err, errlen)))
			return -EIO;
		if (v) {
			ret = settings_remember(&r->journal, c, name, ctx, err, errlen);
			if (ret == 0)
				ret = settings_alter(c, name, v, err, errlen);
		} else
			ret = settings_put_back(&r->journal, c, name, err, errlen);
		any = true;
	}
	if (ret == 0 && any)
		ret = settings_reload(c, err, errlen);
	if (ret == 0 && any) {
		int p = settings_pending_restart(c, err, errlen);

		ret = p < 0 ? p : 0;
		*restart = p > 0;
	}
	PQfinish(c);
	return ret;
}

/* ---- one trial ---- */

static json_t *cold_json(const struct cold_times *t)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f}", "method", t->method,
			 "stop_ms", t->stop_ms, "sync_ms", t->sync_ms, "drop_ms", t->drop_ms,
			 "start_ms", t->start_ms, "ready_ms", t->ready_ms, "total_ms", t->total_ms);
}

static json_t *settings_of(const struct runner *r, int combo)
{
	json_t *o = json_object();

	for (int i = 0; i < r->plan.grid.nsettings; i++)
		if (runner_value(r, combo, i))
			json_object_set_new(o, r->plan.grid.s[i].name, json_string(runner_value(r, combo, i)));
	return o;
}

/* Trial T (KEY) of workload W: its settings, the cold cycle, the workload. */
static int run_trial(struct runner *r, const struct workload *w, const struct sweep_trial *t,
		     const char *key, int index, json_t **out, char *err, size_t errlen)
{
	struct cold_times ct = { 0 };
	double t0 = clock_now_ms();
	char started[32];
	bool restart;
	json_t *rec;
	int ret;

	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	record_utc_iso(now.tv_sec, started, sizeof(started));
	ret = system_settings(r, t->combo, &restart, err, errlen);
	faultpoint("runner:settings");	/* the trial's settings written, not yet in force */
	if (ret == 0 && !r->cfg.warm)
		ret = server_cold(&r->srv, &ct, err, errlen);
	else if (ret == 0 && restart)
		ret = server_restart(&r->srv, err, errlen);
	if (ret < 0)
		return ret;
	rec = json_pack("{s:s, s:i, s:i, s:i, s:o, s:b, s:o, s:s}", "trial_key", key,
			"round", t->round, "index", index, "of", r->plan.ntrials,
			"settings", settings_of(r, t->combo), "cold", !r->cfg.warm,
			"cold_times", r->cfg.warm ? json_null() : cold_json(&ct), "started_at", started);
	if (!rec)
		return -ENOMEM;
	/* the same moment to the microsecond, to order trials of several sweeps */
	json_object_set_new(rec, "started_unix_s", json_real((double)now.tv_sec + (double)now.tv_nsec / 1e9));
	if (sweep_step_name(&r->plan, t->combo))
		json_object_set_new(rec, "step", json_string(sweep_step_name(&r->plan, t->combo)));
	ret = w->trial(r, t, rec, err, errlen);
	if (ret == 0) {
		json_object_set_new(rec, "wall_ms", json_real(clock_now_ms() - t0));
		*out = rec;
	} else
		json_decref(rec);
	return ret;
}

/* The record key of trial I for workload slot K: 0 the workload's, 1 its companion's. */
static void key_of(const struct runner *r, int i, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", r->plan.trials[i].key, k ? " " : "",
		 k ? r->cfg.companion->name : "");
}

/* ---- the trials of the plan ---- */

/* Which trials DIR already holds (DONE[K * ntrials + I] for workload slot K);
 * each also checked against the ones before. */
static int done_trials(struct runner *r, bool *done, char *err, size_t errlen)
{
	int slots = r->cfg.companion ? 2 : 1, n = r->plan.ntrials * slots;
	char **keys = calloc((size_t)n, sizeof(char *));
	json_t *recs = NULL, *rec;
	int torn = 0, ret = keys ? 0 : -ENOMEM;
	size_t i;

	for (int k = 0; ret == 0 && k < n; k++) {
		char key[SWEEP_KEY_MAX + 64];

		key_of(r, k % r->plan.ntrials, k / r->plan.ntrials, key, sizeof(key));
		if (!(keys[k] = strdup(key)))
			ret = -ENOMEM;
	}
	if (ret == 0)
		ret = record_load(r->dir, RECORD_TRIALS, &recs, &torn, err, errlen);
	if (ret == -ENOENT)
		ret = 0;
	else if (ret == 0) {
		if (torn)
			fprintf(stderr, "eicbench %s: %s (the unfinished trial runs again)\n", r->cfg.command, err);
		ret = record_done_keys(recs, RECORD_KEY_FIELD, (const char **)keys, (size_t)n, done);
		json_array_foreach(recs, i, rec)
			if (r->cfg.workload->check_record && !json_object_get(rec, "workload"))
				r->cfg.workload->check_record(r, rec);
	}
	json_decref(recs);
	for (int k = 0; keys && k < n; k++)
		free(keys[k]);
	free(keys);
	return ret;
}

static void say_trial(const struct runner *r, const struct workload *w, int i, int of,
		      const char *key, const json_t *rec, double mean_ms, int left)
{
	char eta[16], what[128] = "";

	progress_format_eta(mean_ms * left / 1e3, eta, sizeof(eta));
	if (w->say)
		w->say(r, rec, what, sizeof(what));
	fprintf(stderr, "[%*d/%d] %-36s %s  (trial %.1f s, ETA %s)\n", of >= 100 ? 3 : 2,
		i, of, key + strcspn(key, " ") + 1, what,
		json_real_value(json_object_get(rec, "wall_ms")) / 1e3, eta);
}

/* One trial of slot K (0 the workload, 1 its companion) of planned trial I, recorded. */
static int run_one(struct runner *r, int i, int k, double *sum_ms, int *ran_here,
		   int *left, int of, char *err, size_t errlen)
{
	const struct workload *w = k ? r->cfg.companion : r->cfg.workload;
	char key[SWEEP_KEY_MAX + 64];
	json_t *rec = NULL;
	int ret;

	key_of(r, i, k, key, sizeof(key));
	ret = run_trial(r, w, &r->plan.trials[i], key, i + 1, &rec, err, errlen);
	if (ret == 0 && !k && r->cfg.workload->check_record)
		r->cfg.workload->check_record(r, rec);
	if (ret == 0)
		ret = record_append(r->dir, RECORD_TRIALS, rec, err, errlen);
	if (ret == 0) {
		*sum_ms += json_real_value(json_object_get(rec, "wall_ms"));
		r->ran++;
		(*left)--;
		(*ran_here)++;
		say_trial(r, w, of - *left, of, key, rec, *sum_ms / *ran_here, *left);
	}
	json_decref(rec);
	return ret;
}

/*
 * One untimed trial of T's combination before the first recorded one of
 * this sweep in this command (a new sweep, a resumed one; a run's sweeps,
 * their rounds in turn, each once): recorded with "priming": true, never
 * counted by a report.
 */
static int prime(struct runner *r, const struct sweep_trial *t, char *err, size_t errlen)
{
	struct sweep_trial p = *t;
	json_t *rec = NULL;
	int ret;

	snprintf(p.key, sizeof(p.key), "priming=%d %.480s", r->ran + 1, t->key);
	ret = run_trial(r, r->cfg.workload, &p, p.key, 0, &rec, err, errlen);
	if (ret == 0) {
		json_object_set_new(rec, "priming", json_true());
		ret = record_append(r->dir, RECORD_TRIALS, rec, err, errlen);
	}
	if (ret == 0) {
		char what[128] = "";

		if (r->cfg.workload->say)
			r->cfg.workload->say(r, rec, what, sizeof(what));
		fprintf(stderr, "[priming] %-36s %s  (untimed for the answer, %.1f s)\n",
			t->key + strcspn(t->key, " ") + 1, what,
			json_real_value(json_object_get(rec, "wall_ms")) / 1e3);
		r->primed = true;
	}
	json_decref(rec);
	return ret;
}

/* Does planned trial T's companion run (runner_cfg.companion_all)? */
static bool companion_due(const struct runner *r, const struct sweep_trial *t)
{
	int v;

	if (!r->cfg.race || r->cfg.companion_all || t->round <= 1)
		return true;
	v = atoi(sweep_value(&r->plan, t->combo, 0));
	for (int i = 0; i < r->nfollow; i++)
		if (r->follow[i] == v)
			return true;
	return false;
}

/* The plan's trials not yet recorded, of rounds up to UPTO (0: all; -1:
 * all, said only when there is one to run); a companion's only where it
 * is due. */
static int run_trials(struct runner *r, int upto, char *err, size_t errlen)
{
	int slots = r->cfg.companion ? 2 : 1, n = r->plan.ntrials;
	bool *done = calloc((size_t)(n * slots), sizeof(bool));
	int *units = slots == 2 ? malloc(sizeof(int) * (size_t)(2 * n + 1)) : NULL;
	int ndone, left, ran_here = 0, ret = 0;
	double sum_ms = 0;

	if (!done || (slots == 2 && (!units || sweep_interleave(&r->plan, units) < 0))) {
		free(units);
		free(done);
		return -ENOMEM;
	}
	ndone = done_trials(r, done, err, errlen);
	if (ndone < 0) {
		free(units);
		free(done);
		return ndone;
	}
	int skipped = 0;

	for (int i = n; i < n * slots; i++)	/* a companion not due: not run, not counted */
		if (!done[i] && !companion_due(r, &r->plan.trials[i - n])) {
			done[i] = true;
			skipped++;
		}
	left = n * slots - ndone - skipped;
	bool due = !upto;	/* rounds in turn, or catching up: said only when there are trials to run */

	for (int i = 0; i < n * slots && !due; i++)
		due = !done[i] && (upto < 0 || r->plan.trials[i % n].round <= upto);
	if (due)
		fprintf(stderr, "eicbench %s: %d trials (%d done), %s; records in %s\n", r->cfg.command,
			n * slots - skipped, ndone, r->cfg.warm ? "WARM" : "cold", r->dir);
	for (int u = 0; ret == 0 && u < n * slots; u++) {
		int i = units ? units[u] % n : u, k = units ? units[u] / n : 0;

		if (done[k * n + i] || (upto > 0 && r->plan.trials[i].round > upto))
			continue;
		if (r->cfg.prime && !r->primed && !(r->stop && *r->stop)) {
			ret = prime(r, &r->plan.trials[i], err, errlen);
			if (ret < 0)
				break;
		}
		if (r->stop && *r->stop) {	/* Ctrl-C after a record: no cold cycle more */
			snprintf(err, errlen, "interrupted");
			ret = -EINTR;
			break;
		}
		ret = run_one(r, i, k, &sum_ms, &ran_here, &left, n * slots - skipped, err, errlen);
	}
	free(units);
	free(done);
	return ret;
}

/* ---- more rounds until separated ---- */

/* Is every series separated? 1 yes, 0 no (with WHY), -errno. */
static int separated(struct runner *r, char *why, size_t len)
{
	struct sweep_result rep;
	char err[1024];
	int ret = result_load(r->dir, &rep, err, sizeof(err));

	if (ret == 0) {
		ret = result_separated(&rep);
		for (size_t s = 0; !ret && s < rep.nseries; s++)
			if (!rep.series[s].separated)
				snprintf(why, len, rep.series[s].min_runs < RESULT_RUNS_FOR_95 ?
					 "fewer than %d runs per value" : "every value's interval overlaps the fastest's",
					 RESULT_RUNS_FOR_95);
	}
	result_free(&rep);
	return ret;
}

/* One more round: the same seed gives the same earlier rounds. */
static int add_round(struct runner *r, char *err, size_t errlen)
{
	return race_replan(r, r->plan.runs + 1, err, errlen);
}

/*
 * Racing rounds of N sweeps of one server (the queries of a run), taken in
 * turn: a round of each, then each decided with all of them as peers, so
 * that every decision sees every query at the same number of rounds. They
 * stop together, for one reason. *WHICH is the sweep an error came from.
 */
static int counts(const struct runner *r)
{
	return class_counts_meta(r->meta, record_str_at(record_at(r->meta, "plan"), "query", NULL) ?: "");
}

/* Sweep I of RS does not count in the answer while another does
 * (bench/judge/classes.h): shown for reference, without replay trials. */
static int apart(const struct runner *rs, int n, int i)
{
	int any = 0;

	if (n < 2 || counts(&rs[i]))
		return 0;
	for (int k = 0; k < n; k++)
		any |= counts(&rs[k]);
	return any;
}

/* ... and it has run the rounds before racing: no round is added to it
 * and no value joins it. */
static int aside(const struct runner *rs, int n, int i)
{
	return rs[i].plan.runs >= DECISION_FIRST_RACE && apart(rs, n, i);
}

static int raced_rounds(struct runner *rs, int n, int *which, char *err, size_t errlen)
{
	const struct runner *r = &rs[0];
	const char *cmd = r->cfg.command;
	char why[160];
	int ret = 0, runs = 0, said[DECISION_MAX_QUERIES] = { 0 };

	/* a resumed run stopped between two sweeps' added rounds: even them */
	for (int i = 0; i < n; i++)
		runs = rs[i].plan.runs > runs && !aside(rs, n, i) ? rs[i].plan.runs : runs;
	for (int i = 0; ret == 0 && i < n; i++)
		while (ret == 0 && rs[i].plan.runs < runs && !aside(rs, n, i))
			if ((ret = add_round(&rs[i], err, errlen)) < 0)
				*which = i;
	while (ret == 0) {
		double t0 = clock_now_s(), round_s;
		int ran = 0, decided = 1, flagged = 0, top = 0;

		for (int i = 0; i < n; i++)	/* the rounds of the sweeps that count */
			top = rs[i].plan.runs > top ? rs[i].plan.runs : top;

		for (int i = 0; i < n; i++)
			ran -= rs[i].ran;
		if (n == 1)		/* one sweep: its whole plan */
			ret = run_trials(&rs[0], 0, err, errlen);
		for (int k = 1; n > 1 && ret == 0 && k <= top; k++)	/* each sweep's round in turn */
			for (int i = 0; ret == 0 && i < n; i++)
				if ((ret = run_trials(&rs[i], k, err, errlen)) < 0)
					*which = i;
		int join[SWEEP_MAX_VALUES], leader = 0;
		size_t njoin = 0;

		for (int i = 0; ret == 0 && i < n; i++) {
			int d, f;
			size_t none;

			/* every sweep decides on the same records: the first says who joins */
			if ((ret = race_after_round(&rs[i], &d, &f, i ? NULL : join, i ? &none : &njoin, &leader,
						    err, errlen)) < 0)
				*which = i;
			decided &= d;
			flagged = f > flagged ? f : flagged;
		}
		if (ret < 0)
			return ret;
		for (int i = 0; i < n; i++)
			ran += rs[i].ran;
		round_s = ran > 0 ? (clock_now_s() - t0) : 0;
		int at_max = top >= r->cfg.max_runs + (flagged < r->cfg.max_runs ? flagged : r->cfg.max_runs);
		int at_budget = r->cfg.budget_s > 0 && clock_now_s() - r->started_s + round_s > r->cfg.budget_s;

		/* the same values join every query's sweep that counts, when a round more can run */
		for (int i = 0; ret == 0 && njoin && !at_max && !at_budget && i < n; i++)
			if (!aside(rs, n, i) && (ret = race_join(&rs[i], join, njoin, leader, err, errlen)) < 0)
				*which = i;
		if (ret < 0)
			return ret;
		decided &= !njoin || at_max || at_budget;
		if (decided) {
			snprintf(why, sizeof(why), "decided after %d rounds%s", top,
				 n > 1 ? ", every query's taken in turn" : "");
		} else if (at_max) {
			snprintf(why, sizeof(why), "--max-runs %d reached%s", r->cfg.max_runs,
				 flagged ? " (and a round for each round with a flagged run, as many at most)" : "");
		} else if (at_budget) {
			snprintf(why, sizeof(why), "another round would pass --budget");
		} else {
			fprintf(stderr, "eicbench %s: not decided after %d rounds: adding round %d%s\n",
				cmd, top, top + 1, n > 1 ? " of every query that counts" : "");
			for (int i = 0; ret == 0 && i < n; i++) {
				if (aside(rs, n, i)) {
					if (!said[i]++)
						fprintf(stderr, "eicbench %s: %s does not count in the answer (a forced plan, or weight 0): shown from its %d rounds, no more\n",
							cmd, record_str_at(record_at(rs[i].meta, "plan"), "query", NULL) ?: "a query",
							rs[i].plan.runs);
					continue;
				}
				if ((ret = add_round(&rs[i], err, errlen)) < 0)
					*which = i;
			}
			continue;
		}
		fprintf(stderr, "eicbench %s: racing stopped: %s\n", cmd, why);
		for (int i = 0; i < n; i++)
			race_stopped(&rs[i], why);
		/* the replay trials of the answer and its rival in every round
		 * they missed (not past --budget) */
		for (int i = 0; ret == 0 && !at_budget && i < n; i++)
			if (rs[i].cfg.companion && !rs[i].cfg.companion_all &&
			    (ret = run_trials(&rs[i], -1, err, errlen)) < 0)
				*which = i;
		return ret;
	}
	return ret;
}

static int run_rounds(struct runner *r, char *err, size_t errlen)
{
	int which;

	if (r->cfg.race)
		return raced_rounds(r, 1, &which, err, errlen);
	char why[128] = "";
	const char *cmd = r->cfg.command;
	double round_s;
	int ret;

	for (;;) {
		double t0 = clock_now_s();
		int ran = r->ran;

		ret = run_trials(r, 0, err, errlen);
		if (ret < 0 || !r->cfg.until_separated)
			return ret;
		/* the time of a round, from the trials just run */
		round_s = r->ran > ran ? (clock_now_s() - t0) / (r->ran - ran) * r->plan.ncombos : 0;
		ret = separated(r, why, sizeof(why));
		if (ret < 0)
			return 0;	/* nothing to judge by yet: the report says why */
		if (ret == 1) {
			fprintf(stderr, "eicbench %s: separated after %d rounds\n", cmd, r->plan.runs);
			return 0;
		}
		if (r->plan.runs >= r->cfg.max_runs) {
			fprintf(stderr, "eicbench %s: not separated after %d rounds (%s); --max-runs %d reached\n",
				cmd, r->plan.runs, why, r->cfg.max_runs);
			return 0;
		}
		if (r->cfg.budget_s > 0 && clock_now_s() - r->started_s + round_s > r->cfg.budget_s) {
			fprintf(stderr, "eicbench %s: not separated after %d rounds (%s); another round would pass --budget\n",
				cmd, r->plan.runs, why);
			return 0;
		}
		fprintf(stderr, "eicbench %s: not separated after %d rounds (%s): adding round %d\n",
			cmd, r->plan.runs, why, r->plan.runs + 1);
		if ((ret = add_round(r, err, errlen)) < 0)
			return ret;
	}
}

/* ---- setup ---- */

static int prepare_server(struct runner *r, char *err, size_t errlen)
{
	int ret;

	if (r->cfg.srv.dsn && !r->cfg.srv.restart_cmd && !r->cfg.warm) {
		snprintf(err, errlen, "the server given with --dsn cannot be made cold without --restart-cmd; give one, or --warm to measure warm (every record says so)");
		return -EINVAL;
	}
	ret = cluster_take(&r->cfg.srv, &r->srv,
			   (r->cfg.workload->makes_tables ? CLUSTER_DB : CLUSTER_START) | CLUSTER_RECOVER,
			   r->cfg.command, err, errlen);
	if (ret == 0 && !r->srv.external) {
		PGconn *c = server_connect(&r->srv, NULL, err, errlen);

		if (!c) {
			snprintf(err, errlen, "no data set in '%s' (no database %s): run eicbench load --datadir %s first",
				 r->srv.datadir, SERVER_DBNAME, r->srv.datadir);
			return -EINVAL;
		}
		PQfinish(c);
	}
	if (ret == 0)
		ret = settings_journal_init(&r->journal, &r->srv, r->cfg.command, err, errlen);
	return ret;
}

static int setup(struct runner *r, int argc, char **argv, char *err, size_t errlen)
{
	int ret;

	uint64_t seed = r->cfg.order_seed_given ? r->cfg.order_seed : rng_fresh_seed((1ULL << 62) - 1);

	if (r->cfg.resume) {
		ret = lock_hold_folder(r->cfg.resume, err, errlen);
		if (ret == -ENOENT || ret == -ENOTDIR) {
			snprintf(err, errlen, "--resume '%s': no such folder; give the folder of an interrupted %s",
				 r->cfg.resume, r->cfg.command);
			ret = -EINVAL;
		}
		if (ret == 0)
			ret = runner_meta_resume(r, err, errlen);
	}
	else if (r->cfg.steps)
		ret = sweep_plan_steps(&r->plan, &r->cfg.grid, r->cfg.steps, r->cfg.runs, seed, err, errlen);
	else
		ret = sweep_plan_build(&r->plan, &r->cfg.grid, r->cfg.runs, seed, err, errlen);
	if (ret == 0)
		ret = prepare_server(r, err, errlen);
	if (ret == 0)
		ret = check_settings(r, err, errlen);
	if (ret == 0)
		ret = r->cfg.workload->check(r, err, errlen);
	if (ret == 0 && r->cfg.companion)
		ret = r->cfg.companion->check(r, err, errlen);
	if (ret == 0 && r->resumed)
		ret = runner_meta_check_identity(r, err, errlen);
	if (ret == 0 && !r->resumed) {
		ret = lock_hold_new_folder(r->cfg.command, r->cfg.out, r->dir, sizeof(r->dir), err, errlen);
	}
	if (ret == 0 && !r->resumed)
		ret = runner_meta_write(r, argc, argv, err, errlen);
	else if (ret == 0)
		json_decref(runner_meta_device(r));	/* only the device to watch */
	if (ret == 0 && r->resumed)
		race_resume(r);
	if (ret == 0 && r->cfg.race && !(r->cfg.margin > 0))
		r->cfg.margin = record_num_at(r->meta, "plan.racing.margin") > 0 ?
				record_num_at(r->meta, "plan.racing.margin") : DECISION_MARGIN;
	if (ret == 0)
		ret = race_init(r, err, errlen);
	return ret;
}

void runner_free(struct runner *r)
{
	sweep_plan_free(&r->plan);
	json_decref(r->meta);
	r->meta = NULL;
}

/* Put the settings back; a failure makes the run a failure, its message
 * added to ERR (which may hold the run's own). */
static int restore(struct runner *r, char *err, size_t errlen)
{
	char why[2048];
	size_t used = strlen(err);

	if (settings_restore(&r->journal, &r->srv, why, sizeof(why)) == 0)
		return 0;
	snprintf(err + used, errlen - used, "%s%s", used ? "; and the settings were not put back: " : "", why);
	return -EIO;
}

int runner_main_joint(struct runner *rs, int n, int argc, char **argv,
		      int (*finish)(const char *dir, char *err, size_t errlen), int *which,
		      char *err, size_t errlen)
{
	struct pagereport_hold hold = { .fd = -1 };
	int ret = 0, back = 0, set = 0;

	err[0] = '\0';
	*which = 0;
	if (memhold_check_env(err, errlen) < 0)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		rs[i].stage = RUNNER_SETUP;
		rs[i].started_s = clock_now_s();
		if (n > 1 && !rs[i].cfg.race) {
			snprintf(err, errlen, "sweeps taken round by round must race");
			return -EINVAL;
		}
	}
	for (; ret == 0 && set < n; set++)
		if ((ret = setup(&rs[set], argc, argv, err, errlen)) < 0)
			*which = set;
	for (int i = 0; ret == 0 && i < n; i++)
		if (rs[i].cfg.companion && apart(rs, n, i)) {
			fprintf(stderr, "eicbench %s: %s does not count in the answer (a forced plan, or weight 0): no replay trials for it\n",
				rs[i].cfg.command, record_str_at(record_at(rs[i].meta, "plan"), "query", NULL) ?: "a query");
			json_object_del(json_object_get(rs[i].meta, "plan"), rs[i].cfg.companion->name);
			json_object_del(json_object_get(rs[i].meta, "plan"), "companion");
			rs[i].cfg.companion = NULL;
			ret = record_meta_write(rs[i].dir, rs[i].meta, err, errlen);
			if (ret < 0)
				*which = i;
		}
	if (ret == 0) {
		for (int i = 0; i < n; i++)
			rs[i].stage = RUNNER_TRIALS;
		runner_memory_hold(rs, n, &hold);
		ret = n > 1 ? raced_rounds(rs, n, which, err, errlen) : run_rounds(rs, err, errlen);
		pagereport_release(&hold);
		if (ret == 0 || ret == -EINTR)
			err[0] = '\0';	/* the interruption is said with how to finish */
	}
	for (int i = 0; i < set; i++)
		back = restore(&rs[i], err, errlen) < 0 ? -EIO : back;
	for (int i = 0; ret == 0 && i < n; i++) {
		rs[i].stage = RUNNER_AFTER;
		if (back == 0 && finish && (ret = finish(rs[i].dir, err, errlen)) < 0)
			*which = i;
	}
	for (int i = 0; i < set; i++)
		runner_free(&rs[i]);
	if (ret == -EPROTO && rs[*which].stage == RUNNER_SETUP)
		return -EINVAL;
	return ret == 0 && back == 0 ? 0 : ret == -EINVAL && rs[*which].stage != RUNNER_SETUP ? -EIO :
	       ret < 0 ? ret : back;
}

int runner_main(struct runner *r, int argc, char **argv,
		int (*finish)(const char *dir, char *err, size_t errlen), char *err, size_t errlen)
{
	int which;

	return runner_main_joint(r, 1, argc, argv, finish, &which, err, errlen);
}
