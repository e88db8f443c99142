/*
 * cmd_run: "eicbench run": the whole suite in one command and one result
 * folder. On the managed cluster (made and started when missing) or a
 * --dsn server: the data set, the check for caches below the machine, the
 * cold sweep of each query (each query trial with a replay trial of its
 * heap reads in the same round, after a cold cycle of its own), and the
 * device's own curve; then the verdict
 * (bench/report/verdict.h) as report.md and report.html. Each step is a
 * library call (run_steps.c) writing a subfolder of the run's folder; every
 * option is checked, and the server's resolved, before the folder is made.
 * meta.json lists the steps and their state, so "eicbench run --resume DIR"
 * goes on where an interrupted run stopped.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/cli/progress.h"
#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cmd/run.h"
#include "bench/dataset/query.h"
#include "bench/pg/lock.h"
#include "bench/pg/pgbin.h"
#include "bench/pg/server.h"
#include "bench/record/record.h"
#include "bench/report/verdict.h"
#include "bench/sweep/runner_memory.h"
#include "bench/sweep/sweep.h"
#include "io/clock.h"

static const struct opt_desc run_table[] = {
	SERVER_OPTS(struct run_opts, srv),
	{ "rows", OPT_INT, offsetof(struct run_opts, rows), 1000, 2000000000LL, "N",
	  "100000000 (--quick: 10000000)", "the data set: major 0..N" },
	{ "seed", OPT_INT, offsetof(struct run_opts, seed), 0, INT64_MAX, "S", "1",
	  "seed of the data set's generator" },
	{ "eic", OPT_STR, offsetof(struct run_opts, eic), 0, 0, "LIST",
	  RUN_EIC " (--quick: " RUN_EIC_QUICK ")", "effective_io_concurrency values to sweep; without it, after each round from the third, the leading value's neighbours on " RUN_EIC_LADDER " join the race" },
	{ "runs", OPT_INT, offsetof(struct run_opts, runs), 1, 1000, "N", "3",
	  "rounds per sweep before racing decides whether more are needed" },
	{ "max-runs", OPT_INT, offsetof(struct run_opts, max_runs), 1, 1000, "N", "10",
	  "rounds per sweep at most, plus one for each round with a run flagged as disturbed (not with --quick)" },
	{ "margin", OPT_INT, offsetof(struct run_opts, margin_pct), 1, 50, "PCT", "10",
	  "a value is as good as the fastest when shown within this many percent of it in every query" },
	{ "json", OPT_FLAG, offsetof(struct run_opts, json), 0, 0, NULL, NULL,
	  "print the verdict as JSON (schema 1, docs/verdict.schema.json) instead of text" },
	{ "budget", OPT_SECONDS, offsetof(struct run_opts, budget_s), 0, 7 * 86400, "TIME", "none",
	  "each sweep starts no new round after this much time (at most 7 days; not with --quick)" },
	{ "query", OPT_STR, offsetof(struct run_opts, query), 0, 0, "LIST", "every class (--quick: " QUERY_CLASSES_QUICK ")",
	  "the query classes to sweep, comma-separated: " QUERY_PRESETS },
	{ "weights", OPT_STR, offsetof(struct run_opts, weights), 0, 0, "CLASS=W,...", "1 each",
	  "how much each class weighs in the answer for the storage: 0 leaves it out; where no value is within the margin in every class, a class's regret counts to the power of its weight over the largest" },
	{ "include-forced", OPT_FLAG, offsetof(struct run_opts, include_forced), 0, 0, NULL, NULL,
	  "let classes whose bitmap plan had to be forced (the planner chose another) count in the answer" },
	{ "depth", OPT_STR, offsetof(struct run_opts, depths), 0, 0, "LIST",
	  RUN_DEPTHS " (--quick: " RUN_DEPTHS_QUICK ")", "reads in flight for the device's curve, as probe --depth",
	  .alias = "depths" },
	{ "tablespace-dir", OPT_STR, offsetof(struct run_opts, tablespace_dir), 0, 0, "DIR", "the default tablespace",
	  "the data set in a tablespace on DIR (eicbench load --tablespace-dir): the verdict is that storage's" },
	{ "quick", OPT_FLAG, offsetof(struct run_opts, quick), 0, 0, NULL, NULL,
	  "a first look in a few minutes: 10M rows, 5 values, 3 rounds, a short device curve" },
	{ "no-probe", OPT_FLAG, offsetof(struct run_opts, no_probe), 0, 0, NULL, NULL,
	  "sweeps only: no cache check, replay trials or device curve" },
	{ "replay", OPT_FLAG, offsetof(struct run_opts, replay), 0, 0, NULL, "round 1, then 0, the leader and its rival",
	  "a replay trial beside every query trial of the bitmap classes (by default: beside every value's in round 1, then beside 0's, the leading value's and its nearest rival's, caught up for every round they missed)" },
	{ "keep-page-reporting", OPT_FLAG, offsetof(struct run_opts, keep_page_reporting), 0, 0, NULL, NULL,
	  "leave the host's free page reporting on during cold trials (paused by default where a balloon takes free memory back: docs/commands.md)" },
	{ "out", OPT_OUT, offsetof(struct run_opts, out), 0, 0, "DIR", "results/<UTC>-run",
	  "the run's folder (new or empty)" },
	{ "resume", OPT_STR, offsetof(struct run_opts, resume), 0, 0, "DIR", NULL,
	  "go on with an interrupted run in DIR (its own options)" },
	{ 0 }
};

#define USAGE "eicbench run [--datadir DIR | --dsn CONNINFO --restart-cmd CMD] [--rows N] [--eic LIST]\n" \
	"                    [--runs N] [--query CLASSES] [--tablespace-dir DIR] [--quick] [--out DIR | --resume DIR]"

static int run_failed(int ret, const char *msg)
{
	return cmd_fail("run", ret, msg);
}

/* ---- options ---- */

static int split_queries(struct run *r, char *err, size_t errlen)
{
	const char *p = r->o.query ? r->o.query : r->o.quick ? QUERY_CLASSES_QUICK : QUERY_CLASSES;

	while (*p) {
		size_t n = strcspn(p, ",");
		char *q = r->queries[r->nqueries];

		if (n == 0 || n >= sizeof(r->queries[0]) || r->nqueries == RUN_MAX_QUERIES) {
			snprintf(err, errlen, "--query '%s': give class names (" QUERY_PRESETS "), comma-separated, each once", r->o.query);
			return -EINVAL;
		}
		snprintf(q, sizeof(r->queries[0]), "%.*s", (int)n, p);
		if (!query_is_preset(q)) {
			snprintf(err, errlen, "--query '%s': '%s' is no class; give some of " QUERY_PRESETS, r->o.query, q);
			return -EINVAL;
		}
		for (int i = 0; i < r->nqueries; i++)
			if (!strcmp(r->queries[i], q)) {
				snprintf(err, errlen, "--query '%s': '%s' given twice", r->o.query, q);
				return -EINVAL;
			}
		r->nqueries++;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* The classes the run measures (after classes_for_version), comma-separated. */
static const char *measured_list(const struct run *r, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < r->nqueries; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : "", r->queries[i]);
	return buf;
}

/* --weights: each class named is one the run measures. */
static int check_weights(struct run *r, char *err, size_t errlen)
{
	char list[RUN_MAX_QUERIES * 32];

	if (!r->o.weights)
		return 0;
	if (class_weights_parse(r->o.weights, &r->weights, err, errlen) < 0)
		return -EINVAL;
	for (size_t i = 0; i < r->weights.n; i++) {
		int found = 0;

		for (int q = 0; q < r->nqueries; q++)
			found |= !strcmp(r->queries[q], r->weights.name[i]);
		if (!found) {
			snprintf(err, errlen, "--weights '%s': '%s' is not a class this run measures (--query: %s)",
				 r->o.weights, r->weights.name[i], measured_list(r, list, sizeof(list)));
			return -EINVAL;
		}
	}
	return 0;
}

/* --eic as the sweeps take it; --depth as the curve takes it, named as
 * the run's option. */
static int check_lists(struct run *r, char *err, size_t errlen)
{
	struct sweep_grid *g = calloc(1, sizeof(*g));
	long long d[PROBE_PLAN_MAX_DEPTHS];
	int ret = g ? sweep_grid_add_eic(g, r->eic, err, errlen) : -ENOMEM;

	free(g);
	if (ret == 0 && r->o.depths &&
	    opts_parse_ll_list("depth", r->o.depths, 1, PROBE_MAX_DEPTH, d, PROBE_PLAN_MAX_DEPTHS, err, errlen) < 0)
		ret = -EINVAL;
	return ret;
}

/* Options that have nothing to act on in this run are refused, never
 * dropped: the name of the first into ERR. */
static int check_applies(const struct run *r, bool resuming, char *err, size_t errlen)
{
	const struct run_opts *o = &r->o;
	const char *bad = NULL, *why = NULL;

	if (resuming && (bad = o->out ? "out" : o->rows ? "rows" : o->seed ? "seed" : o->eic ? "eic" :
			 o->runs ? "runs" : o->max_runs ? "max-runs" : o->budget_s > 0 ? "budget" :
			 o->margin_pct ? "margin" :
			 o->query ? "query" : o->depths ? "depth" : o->quick ? "quick" :
			 o->weights ? "weights" : o->include_forced ? "include-forced" :
			 o->no_probe ? "no-probe" : o->replay ? "replay" : o->tablespace_dir ? "tablespace-dir" : NULL))
		why = "a resumed run goes on with the options it was started with; give --resume DIR and the server's options alone";
	else if (o->srv.dsn && (bad = o->srv.datadir ? "datadir" : o->srv.pgbin ? "pgbin" : o->srv.pg ? "pg" :
				o->srv.user ? "user" : o->srv.listen ? "listen" : o->srv.port ? "port" : NULL))
		why = "it is the managed cluster's, and --dsn names an existing server instead";
	else if (o->quick && (bad = o->max_runs ? "max-runs" : o->budget_s > 0 ? "budget" : NULL))
		why = "--quick runs each sweep --runs rounds and no more";
	else if (o->no_probe && (bad = o->depths ? "depth" : o->replay ? "replay" : NULL))
		why = "--no-probe leaves out the device's curve and the replay trials";
	if (!bad)
		return 0;
	snprintf(err, errlen, "--%s does not apply here: %s", bad, why);
	return -EINVAL;
}

/* --listen and --port are chosen when the cluster is made: an existing
 * one keeps what init gave it. */
static int check_init_opts(const struct run *r, long long port, const struct server *s,
			   char *err, size_t errlen)
{
	char listen[256];

	if (r->o.srv.dsn || server_listen(s, listen, sizeof(listen)) < 0)
		return 0;	/* no cluster yet: init takes them */
	if (port && port != s->port) {
		snprintf(err, errlen, "--port %lld: the cluster in %s was made with port %d, which it keeps; drop --port or give another --datadir",
			 port, s->datadir, s->port);
		return -EINVAL;
	}
	if (r->o.srv.listen && strcmp(r->o.srv.listen, listen)) {
		snprintf(err, errlen, "--listen '%s': the cluster in %s was made listening on '%s', which it keeps; drop --listen or give another --datadir",
			 r->o.srv.listen, s->datadir, listen);
		return -EINVAL;
	}
	return 0;
}

static void defaults(struct run_opts *o)
{
	if (!o->rows)
		o->rows = o->quick ? 10000000 : 100000000;
	if (!o->seed)
		o->seed = 1;
	if (!o->runs)
		o->runs = 3;
	if (!o->max_runs)
		o->max_runs = o->quick ? o->runs : o->runs > 10 ? o->runs : 10;
	if (!o->margin_pct)
		o->margin_pct = 10;
	if (!o->srv.dsn && !o->srv.datadir)
		o->srv.datadir = SERVER_DEFAULT_DATADIR;
	if (!o->srv.port)
		o->srv.port = 5432;
}

/* A cluster to make, with no version named: the newest major on this
 * machine, installed or built, said with what there is (r->pg_why). */
static void newest_version(struct run *r)
{
	struct run_opts *o = &r->o;
	char path[PATH_MAX + 16], why[256];
	struct stat sb;
	int major;

	if (o->srv.dsn || o->srv.pg || o->srv.pgbin || o->resume)
		return;
	snprintf(path, sizeof(path), "%s/PG_VERSION", o->srv.datadir);
	if (stat(path, &sb) == 0 || (major = pgbin_newest_major(why, sizeof(why))) < 0)
		return;	/* the cluster's own version; or none: server_resolve says so */
	o->srv.pg = major;
	snprintf(r->pg_why, sizeof(r->pg_why), "PostgreSQL %d, the newest on this machine (%s); --pg MAJOR chooses another",
		 major, why);
}

/* Classes whose scan this version's setting does not govern (seq before
 * 17): left out of the default list, said and recorded; refused when named. */
static int classes_for_version(struct run *r, const struct server *s, char *err, size_t errlen)
{
	int major = server_major_of(s), k = 0;
	char why[256];

	for (int i = 0; i < r->nqueries; i++) {
		const struct query_class *qc = query_class_of(r->queries[i]);

		if (query_governed(r->queries[i], major, why, sizeof(why))) {
			memmove(r->queries[k++], r->queries[i], sizeof(r->queries[0]));
			continue;
		}
		if (r->o.query && !r->o.resume) {
			snprintf(err, errlen, "--query '%s': %s (%d and later apply it), so the class %s measures nothing the setting changes there; leave it out",
				 r->o.query, why, qc->min_major, r->queries[i]);
			return -EINVAL;
		}
		snprintf(r->left_out + strlen(r->left_out), sizeof(r->left_out) - strlen(r->left_out),
			 "%s%s (%s; %d and later apply it)", r->left_out[0] ? "; " : "", r->queries[i], why, qc->min_major);
	}
	r->nqueries = k;
	return 0;
}

/* Everything checked as the steps will take it, the server resolved, and
 * the steps planned, before anything is written. */
static int resolve(struct run *r, char *err, size_t errlen)
{
	struct run_opts *o = &r->o;
	struct server s;
	long long port = o->srv.port;	/* 0: not given */
	int ret;

	defaults(o);
	if (o->max_runs < o->runs) {
		snprintf(err, errlen, "--max-runs %lld is below --runs %lld; give at least %lld",
			 o->max_runs, o->runs, o->runs);
		return -EINVAL;
	}
	r->eic = o->eic ? o->eic : o->quick ? RUN_EIC_QUICK : RUN_EIC;
	r->refine = o->eic || o->quick ? NULL : RUN_EIC_LADDER;
	ret = split_queries(r, err, errlen);
	if (ret == 0)
		ret = check_lists(r, err, errlen);
	if (ret == 0)
		newest_version(r);
	if (ret == 0)
		ret = server_resolve(&o->srv, &s, err, errlen);
	if (ret == 0)
		ret = check_init_opts(r, port, &s, err, errlen);
	if (ret == 0)
		ret = classes_for_version(r, &s, err, errlen);
	if (ret == 0)	/* on the classes this version measures */
		ret = check_weights(r, err, errlen);
	if (ret == 0)
		ret = run_plan_steps(r, err, errlen);
	return ret;
}

/* ---- meta.json ---- */

static json_t *folders_json(const struct run *r, const char *prefix)
{
	json_t *o = json_object();

	for (int i = 0; i < r->nsteps; i++)
		if (!strncmp(r->steps[i].sub, prefix, strlen(prefix)) && r->steps[i].sub[0])
			json_object_set_new(o, r->steps[i].sub + strlen(prefix), json_string(r->steps[i].sub));
	return o;
}

static json_t *options_json(const struct run *r)
{
	const struct run_opts *o = &r->o;
	char list[RUN_MAX_QUERIES * 32];
	json_t *opts = json_pack("{s:I, s:I, s:s, s:s, s:I, s:I, s:b, s:b, s:s, s:f, s:I}", "rows", (json_int_t)o->rows,
				 "seed", (json_int_t)o->seed, "eic", r->eic, "query", measured_list(r, list, sizeof(list)),
				 "runs", (json_int_t)o->runs, "max_runs", (json_int_t)o->max_runs,
				 "quick", o->quick, "no_probe", o->no_probe,
				 "depths", o->depths ? o->depths : o->quick ? RUN_DEPTHS_QUICK : RUN_DEPTHS,
				 "budget_s", o->budget_s, "margin_pct", (json_int_t)o->margin_pct);

	if (opts) {
		json_object_set_new(opts, "include_forced", json_boolean(o->include_forced));
		json_object_set_new(opts, "replay_all", json_boolean(o->replay));
		if (r->pg_why[0])
			json_object_set_new(opts, "version_chosen", json_string(r->pg_why));
		if (r->left_out[0])
			json_object_set_new(opts, "classes_left_out", json_string(r->left_out));
		if (r->weights.n)
			json_object_set_new(opts, "weights", class_weights_json(&r->weights));
	}

	if (opts && o->tablespace_dir)
		json_object_set_new(opts, "tablespace_dir", json_string(o->tablespace_dir));
	return opts;
}

static int write_meta(struct run *r, char *err, size_t errlen)
{
	const struct record_head head = { .command = "run", .argc = r->argc, .argv = r->argv,
		.datadir = r->o.srv.datadir, .dsn = r->o.srv.dsn };
	json_t *folders = json_array(), *steps = json_array();

	if (!(r->meta = record_meta_new(&head, NULL)))
		return snprintf(err, errlen, "out of memory"), -ENOMEM;
	for (int i = 0; i < r->nsteps; i++) {
		if (r->steps[i].sub[0])
			json_array_append_new(folders, json_string(r->steps[i].sub));
		json_array_append_new(steps, json_pack("{s:s, s:s, s:s}", "name", r->steps[i].name,
						       "folder", r->steps[i].sub, "state", "to do"));
	}
	json_object_set_new(r->meta, "options", options_json(r));
	json_object_set_new(r->meta, "sweeps", folders_json(r, "sweep-"));
	json_object_set_new(r->meta, "device_curve", r->o.no_probe ? json_null() : json_string("device"));
	json_object_set_new(r->meta, "cache_check", r->o.no_probe ? json_null() : json_string("cache-check"));
	json_object_set_new(r->meta, "folders", folders);
	json_object_set_new(r->meta, "steps", steps);
	return record_meta_write(r->dir, r->meta, err, errlen);
}

/* The record of step I in meta.json, found by name (a resumed run plans no
 * "create" step, so positions may differ). */
static json_t *step_record(const struct run *r, int i)
{
	json_t *st;
	size_t k;

	json_array_foreach(json_object_get(r->meta, "steps"), k, st)
		if (!strcmp(json_string_value(json_object_get(st, "name")) ?: "", r->steps[i].name))
			return st;
	st = json_pack("{s:s, s:s, s:s}", "name", r->steps[i].name, "folder", r->steps[i].sub, "state", "to do");
	json_array_append_new(json_object_get(r->meta, "steps"), st);
	return st;
}

static int set_state(struct run *r, int i, const char *state, double took_s)
{
	json_t *st = step_record(r, i);
	char err[512];

	json_object_set_new(st, "state", json_string(state));
	if (took_s > 0)
		json_object_set_new(st, "took_s", json_real(took_s));
	return record_meta_write(r->dir, r->meta, err, sizeof(err));
}

/* ---- running ---- */

/* "about 25m left": the estimates of the steps not yet run, where known. */
static void say_step(const struct run *r, int i, double started)
{
	double left = 0;
	int unknown = 0;
	char eta[16], el[16];

	for (int k = i; k < r->nsteps; k++) {
		left += r->steps[k].estimate_s;
		unknown += (r->steps[k].estimate_s <= 0 && !run_step_is_server(&r->steps[k])) ||
			   r->steps[k].open_ended;
	}
	progress_format_eta(clock_now_s() - started, el, sizeof(el));
	progress_format_eta(left, eta, sizeof(eta));
	fflush(stdout);
	fprintf(stderr, "\n== eicbench run [%d/%d] %s (run %s so far%s%s%s)\n", i + 1, r->nsteps,
		r->steps[i].name, el, left > 0 ? ", about " : "", left > 0 ? eta : "",
		left > 0 ? (unknown ? " left and more" : " left") : "");
}

static int run_steps(struct run *r, int from)
{
	double started = clock_now_s();

	for (int i = from; i < r->nsteps; i++) {
		double t0 = clock_now_s();
		int rc;

		if (cli_stopped) {
			fprintf(stderr, "eicbench run: interrupted before step '%s'; what is done is in %s; go on with: eicbench run --resume %s\n",
				r->steps[i].name, r->dir, r->dir);
			return EXIT_RUN_FAILED;
		}
		say_step(r, i, started);
		rc = r->steps[i].run(r, &r->steps[i]);
		fflush(stdout);
		if (rc != 0) {
			set_state(r, i, rc == EXIT_BAD_INPUT ? "refused" : "failed", clock_now_s() - t0);
			fprintf(stderr, "eicbench run: step '%s' %s; what is done is in %s; go on with: eicbench run --resume %s\n",
				r->steps[i].name, rc == EXIT_BAD_INPUT ? "was refused" : "stopped",
				r->dir, r->dir);
			return rc;
		}
		set_state(r, i, "done", clock_now_s() - t0);
	}
	return 0;
}

/* ---- resume ---- */

/* The first step not done; a started sweep goes on with its own resume, a
 * probe cut short starts again (what it wrote kept aside). */
static int resume_point(struct run *r)
{
	for (int i = 0; i < r->nsteps; i++) {
		struct step *s = &r->steps[i];
		const char *st = json_string_value(json_object_get(step_record(r, i), "state"));
		char meta[PATH_MAX + 100], moved[sizeof(s->out) + 16];
		struct stat sb;

		if (st && !strcmp(st, "done"))
			continue;
		snprintf(meta, sizeof(meta), "%s/%s", s->out, RECORD_META);
		if (run_step_is_sweep(s) && stat(meta, &sb) == 0) {
			s->resume = true;
		} else if (s->sub[0] && stat(s->out, &sb) == 0) {
			snprintf(moved, sizeof(moved), "%s.interrupted", s->out);
			if (rename(s->out, moved) != 0)
				return -errno;
		}
		return i;
	}
	return r->nsteps;
}

/* The run's own options from DIR/meta.json. */
static void options_of(struct run_opts *o, const json_t *opts)
{
	o->rows = json_integer_value(json_object_get(opts, "rows"));
	o->seed = json_integer_value(json_object_get(opts, "seed"));
	o->runs = json_integer_value(json_object_get(opts, "runs"));
	o->max_runs = json_integer_value(json_object_get(opts, "max_runs"));
	o->budget_s = json_number_value(json_object_get(opts, "budget_s"));
	o->margin_pct = json_integer_value(json_object_get(opts, "margin_pct"));
	o->quick = json_is_true(json_object_get(opts, "quick"));
	o->no_probe = json_is_true(json_object_get(opts, "no_probe"));
	o->replay = json_is_true(json_object_get(opts, "replay_all"));
	o->include_forced = json_is_true(json_object_get(opts, "include_forced"));
	o->eic = json_string_value(json_object_get(opts, "eic"));
	o->query = json_string_value(json_object_get(opts, "query"));
	o->depths = json_string_value(json_object_get(opts, "depths"));
	o->tablespace_dir = json_string_value(json_object_get(opts, "tablespace_dir"));
}

static int load_resume(struct run *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	int ret = lock_hold_folder(r->o.resume, err, errlen);

	if (ret < 0)
		return ret == -ENOENT || ret == -ENOTDIR ?
		       (snprintf(err, errlen, "--resume '%s': no such folder", r->o.resume), -EINVAL) : ret;
	snprintf(path, sizeof(path), "%s/%s", r->o.resume, RECORD_META);
	r->meta = json_load_file(path, 0, NULL);
	if (!r->meta || strcmp(json_string_value(json_object_get(r->meta, "command")) ?: "", "run")) {
		snprintf(err, errlen, "--resume '%s': not the folder of an eicbench run (no meta.json with \"command\": \"run\")",
			 r->o.resume);
		return -EINVAL;
	}
	if (json_object_get(r->meta, "dsn") && !r->o.srv.dsn) {
		snprintf(err, errlen, "--resume '%s': that run used a server given with --dsn; give the same --dsn and --restart-cmd again",
			 r->o.resume);
		return -EINVAL;
	}
	options_of(&r->o, json_object_get(r->meta, "options"));
	snprintf(r->dir, sizeof(r->dir), "%s", r->o.resume);
	if (!r->o.srv.dsn && !r->o.srv.datadir)
		r->o.srv.datadir = json_string_value(json_object_get(r->meta, "datadir"));
	return 0;
}

/* ---- the command ---- */

static int parse(struct run *r, int argc, char **argv, char *err, size_t errlen)
{
	int ret;

	server_cfg_defaults(&r->o.srv);
	r->o.srv.port = 0;	/* given or not: see check_init_opts */
	ret = opts_parse(run_table, &r->o, argc, argv, err, errlen);
	if (ret != 0)
		return ret;
	if (r->o.srv.dsn && !r->o.srv.restart_cmd) {
		snprintf(err, errlen, "--dsn needs --restart-cmd: every sweep trial is cold (server restarted, caches dropped)");
		return -EINVAL;
	}
	if (r->o.tablespace_dir && !r->o.tablespace_dir[0]) {
		snprintf(err, errlen, "--tablespace-dir: give a folder");
		return -EINVAL;
	}
	if (memhold_check_env(err, errlen) < 0)
		return -EINVAL;
	return check_applies(r, r->o.resume != NULL, err, errlen);
}

/* The verdict: report.md, report.html and the plots, printed too. */
static int finish(struct run *r)
{
	char err[2048], note[1024];
	int ret;

	fprintf(stderr, "\n== eicbench run: the verdict\n");
	ret = verdict_render(r->dir, r->o.json ? REPORT_JSON : REPORT_TEXT, 1, stdout, note, sizeof(note),
			     err, sizeof(err));
	fflush(stdout);
	if (ret < 0)
		return run_failed(ret, err);
	fprintf(stderr, "\nWritten to %s: report.md, report.html%s%s\n", r->dir, note[0] ? "; " : "", note);
	return 0;
}

/* The folder: a new one with meta.json, or the resumed one's; the first step to run. */
static int open_folder(struct run *r, int *from, char *err, size_t errlen)
{
	int ret;

	if (r->o.resume) {
		*from = resume_point(r);
		if (*from < 0)
			snprintf(err, errlen, "cannot keep an interrupted step's folder aside: %s",
				 strerror(-*from));
		return *from < 0 ? *from : 0;
	}
	*from = 0;
	ret = lock_hold_new_folder("run", r->o.out, r->dir, sizeof(r->dir), err, errlen);
	if (ret == 0) {
		for (int i = 0; i < r->nsteps; i++)	/* the steps' folders are in it */
			snprintf(r->steps[i].out, sizeof(r->steps[i].out), "%s/%s", r->dir, r->steps[i].sub);
		ret = write_meta(r, err, errlen);
	}
	return ret;
}

int run_check(int argc, char **argv, char *err, size_t errlen)
{
	struct run *r = calloc(1, sizeof(*r));
	int ret = r ? parse(r, argc, argv, err, errlen) : -ENOMEM;

	if (ret == 0)
		ret = resolve(r, err, errlen);
	if (r)
		json_decref(r->meta);
	free(r);
	return ret == 1 ? 0 : ret;
}

int cmd_run(int argc, char **argv)
{
	struct run *r = calloc(1, sizeof(*r));
	char err[2048];
	int ret, from = 0;

	if (!r)
		return EXIT_RUN_FAILED;
	r->argc = argc + 2;	/* the whole command line: see cmd.h */
	r->argv = argv - 2;
	ret = parse(r, argc, argv, err, sizeof(err));
	if (ret == 1)
		opts_usage(stdout, USAGE, run_table);
	if (ret == 0 && r->o.resume)
		ret = load_resume(r, err, sizeof(err));
	if (ret == 0)
		ret = resolve(r, err, sizeof(err));
	if (ret == 0)
		ret = open_folder(r, &from, err, sizeof(err));
	if (ret == 0) {
		cli_catch_stop(true);
		if (r->pg_why[0])
			fprintf(stderr, "eicbench run: %s\n", r->pg_why);
		if (r->left_out[0])
			fprintf(stderr, "eicbench run: not measured: %s\n", r->left_out);
		fprintf(stderr, "eicbench run: %d steps%s; records in %s\n", r->nsteps - from,
			from ? " left" : "", r->dir);
		ret = run_steps(r, from);
		if (ret == 0)
			ret = finish(r);
	} else if (ret != 1)
		ret = run_failed(ret, err);
	else
		ret = 0;
	json_decref(r->meta);
	free(r);
	return ret;
}

static const struct man_form run_forms[] = { { NULL, USAGE, run_table }, { 0 } };

static const struct man_example run_examples[] = {
	{ "eicbench run --datadir /mnt/newssd/eicbench",
	  "The whole suite on the device mounted at /mnt/newssd (what make run does with DATADIR=/mnt/newssd/eicbench)." },
	{ "eicbench run --quick --datadir data/quick",
	  "A first look: 10M rows, values 0,1,4,16,64, 3 runs, a short device curve." },
	{ "eicbench run --dsn \"host=/var/run/postgresql dbname=eicbench\" --restart-cmd \"pg_ctlcluster 15 main restart\"",
	  "On an existing server, restarted with that command for every cold trial." },
	{ "eicbench run --resume results/20261201T195735Z-run",
	  "Go on with an interrupted run from its first step not done." },
	{ 0 }
};

const struct man_page cmd_run_page = {
	.name = "run",
	.summary = "the whole suite: data set, cold sweeps with replay trials, device curve, verdict",
	.forms = run_forms,
	.description =
	"The whole suite in one command and one result folder, each step doing what its own command does (the same library calls with the same settings) and writing a subfolder: the managed cluster (made when the data directory holds none, and started), or the --dsn server made cold with --restart-cmd; the data set (reused when the same rows and seed are there); the check for caches below this machine; for each query the cold sweep, each query trial with a replay trial in the same round after a cold cycle of its own (the query's heap reads issued on the table's files as PostgreSQL issues them at that value); the device's own curve; and the verdict.\n\n"
	"The verdict is one value for the data set's tablespace: the smallest value whose regret (its time over the fastest other value's in a query, paired within rounds, with its one-sided bounds) is within the margin (--margin, 10%) in every query, else the value whose worst regret is least, with what each query pays for it; beside it the regret table, the device's knee and the SQL that applies it. While a value's bounds still reach past the margin the answer is provisional, and the report says why (docs/decision.md).\n\n"
	"The server's options (--pg, --pgbin, --user, --port, --listen, --timeout) apply to every step. Every option is checked, and the server's binaries found, before anything is written; one that has nothing to act on is refused with exit status 2: --pg with no such build (the message names scripts/build-pg.sh), an empty --datadir, --listen or --port for an existing cluster made otherwise (both are fixed at init), the managed cluster's options with --dsn, --max-runs or --budget with --quick, --depth with --no-probe, and the run's own options with --resume.\n\n"
	"One line per step says which step of how many, the time so far and an estimate of what is left. Standard output is line-buffered, so a log of stdout and stderr together keeps every paragraph whole and every line in order. After Ctrl-C or a failure, --resume goes on from the first step not done.",
	.examples = run_examples,
	.files = "results/<UTC>-run/\tmeta.json (the steps and their state), cache-check/, sweep-QUERY/ (query and replay trials), device/, report.md, report.html and the plots",
	.see_also = "report sweep probe load server",
	.guide = "eicbench run",
};
