/*
 * cmd_sweep: "eicbench sweep": the cold effective_io_concurrency experiment
 * (or any grid of settings). Checks every value with the server and the plan
 * before the first trial, writes meta.json, then runs the plan's trials in
 * their shuffled order, appending one record per finished trial; Ctrl-C
 * keeps what is finished and --resume DIR runs what is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "bench/cmd.h"
#include "bench/dataset.h"
#include "bench/pgutil.h"
#include "bench/progress.h"
#include "bench/query.h"
#include "bench/record.h"
#include "bench/report.h"
#include "bench/sqltext.h"
#include "bench/trial.h"
#include "io/clock.h"

static volatile sig_atomic_t stop_flag;

struct sweep_opts {
	struct server_cfg srv;
	const char *eic;
	struct opt_list set;
	long long runs;
	const char *query;
	const char *out;
	const char *resume;
	long long order_seed;
	bool warm, jit, no_force;
	bool until_separated, allow_override;
	long long max_runs;
	double budget_s;
	long long sample_ms;
};

static const struct opt_desc sweep_table[] = {
	SERVER_OPTS(struct sweep_opts, srv),
	{ "eic", OPT_STR, offsetof(struct sweep_opts, eic), 0, 0, "LIST",
	  SWEEP_DEFAULT_EIC, "effective_io_concurrency values (shorthand for --set effective_io_concurrency=LIST)" },
	{ "set", OPT_LIST, offsetof(struct sweep_opts, set), 0, 0, "NAME=V1,V2",
	  NULL, "vary a setting too (repeatable: several make a grid)" },
	{ "runs", OPT_INT, offsetof(struct sweep_opts, runs), 1, 1000, "N", "3",
	  "rounds: every combination runs once per round" },
	{ "query", OPT_STR, offsetof(struct sweep_opts, query), 0, 0, "blog|sparse|FILE",
	  "blog", "the post's query, a sparse one, or a file holding one SELECT" },
	{ "out", OPT_STR, offsetof(struct sweep_opts, out), 0, 0, "DIR",
	  "results/<UTC>-sweep", "result folder (new or empty)" },
	{ "resume", OPT_STR, offsetof(struct sweep_opts, resume), 0, 0, "DIR",
	  NULL, "finish the plan of an interrupted sweep in DIR" },
	{ "order-seed", OPT_INT, offsetof(struct sweep_opts, order_seed), 0, INT64_MAX / 2, "S",
	  "random", "seed of the per-round shuffle (recorded)" },
	{ "warm", OPT_FLAG, offsetof(struct sweep_opts, warm), 0, 0, NULL, NULL,
	  "skip the cold cycle (every record says so)" },
	{ "jit", OPT_FLAG, offsetof(struct sweep_opts, jit), 0, 0, NULL, NULL,
	  "leave JIT compilation on (off by default: it only adds noise)" },
	{ "no-force", OPT_FLAG, offsetof(struct sweep_opts, no_force), 0, 0, NULL, NULL,
	  "leave the planner's scan choice alone (a plan without a bitmap scan is an error)" },
	{ "until-separated", OPT_FLAG, offsetof(struct sweep_opts, until_separated), 0, 0, NULL, NULL,
	  "after --runs rounds, add rounds until the recommendation is separated (see README) or --max-runs / --budget ends" },
	{ "max-runs", OPT_INT, offsetof(struct sweep_opts, max_runs), 1, 1000, "N", "10",
	  "with --until-separated: rounds at most (at least --runs)" },
	{ "budget", OPT_SECONDS, offsetof(struct sweep_opts, budget_s), 0, 0, "TIME", "none",
	  "with --until-separated: start no new round after this much time (e.g. 30m, 2h)" },
	{ "allow-override", OPT_FLAG, offsetof(struct sweep_opts, allow_override), 0, 0, NULL, NULL,
	  "sweep even when the relation's tablespace sets its own effective_io_concurrency" },
	{ "sample-ms", OPT_INT, offsetof(struct sweep_opts, sample_ms), 10, 10000, "MS", "50",
	  "how often the device and the backend are sampled during the query" },
	{ 0 }
};

#define USAGE "eicbench sweep [--datadir DIR] [--eic LIST] [--runs N] [--query blog|sparse|FILE]\n" \
	"                      [--set NAME=V1,V2 ...] [--out DIR] [--resume DIR] [--warm]"

/* Everything the run needs, resolved from options (or a resumed meta.json). */
struct sweep_run {
	struct sweep_opts o;
	struct sweep_plan plan;
	struct server srv;
	struct trial_env env;
	char query_name[64];
	char *query_text;
	char dir[1024];
	json_t *meta;
	bool plan_given;
	bool resumed;
	json_t *restore;          /* {name: previous auto.conf value or null} */
	json_t *saved_restore;    /* the same, as the interrupted run found it */
	json_t *before;           /* {name: value in force before the sweep} */
	json_t *saved_before;
	struct trial_plan_info pinfo;
	json_t *plan_refs;        /* plan of the first trial of each setting (trial_plan_check) */
	double started_s;         /* when this command began (for --budget) */
	int ran;                  /* trials this command has run */
};

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int fail(int ret, const char *err)
{
	return cmd_fail("sweep", ret, err);
}

/* ---- options ------------------------------------------------------------ */

static int build_grid(const struct sweep_opts *o, struct sweep_grid *g,
		      char *err, size_t errlen)
{
	char spec[4096];

	memset(g, 0, sizeof(*g));
	if (o->eic || o->set.n == 0) {
		snprintf(spec, sizeof(spec), "%s=%s", SWEEP_EIC, o->eic ? o->eic : SWEEP_DEFAULT_EIC);
		if (sweep_grid_add(g, spec, err, errlen) < 0)
			return -EINVAL;
	}
	for (int i = 0; i < o->set.n; i++) {
		if (sweep_grid_add(g, o->set.v[i], err, errlen) < 0) {
			if (o->eic && !strncmp(o->set.v[i], SWEEP_EIC "=", strlen(SWEEP_EIC) + 1))
				snprintf(err, errlen, "--eic and --set %s=... both given; give one", SWEEP_EIC);
			return -EINVAL;
		}
	}
	return 0;
}

/* The query: a preset under sql/query/ or a file with one SELECT. */
static int load_query(struct sweep_run *r, const char *spec, char *err, size_t errlen)
{
	struct query q;
	int ret = query_load(spec, &q, err, errlen);

	if (ret == 0) {
		snprintf(r->query_name, sizeof(r->query_name), "%s", q.name);
		r->query_text = q.text;
	}
	return ret;
}

static uint64_t random_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != sizeof(s))
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return s & ((1ULL << 62) - 1);
}

/* --max-runs and --budget belong to --until-separated; --max-runs >= --runs. */
static int check_rounds(struct sweep_opts *o)
{
	char err[256];
	long long runs = o->runs ? o->runs : 3;

	if (!o->until_separated && (o->max_runs || o->budget_s > 0)) {
		snprintf(err, sizeof(err), "--%s only counts with --until-separated; give that too, or leave it out",
			 o->max_runs ? "max-runs" : "budget");
		return fail(-EINVAL, err), -EINVAL;
	}
	if (o->max_runs && o->max_runs < runs) {
		snprintf(err, sizeof(err), "--max-runs %lld is below --runs %lld; give at least %lld",
			 o->max_runs, runs, runs);
		return fail(-EINVAL, err), -EINVAL;
	}
	if (o->until_separated && !o->max_runs)
		o->max_runs = runs > 10 ? runs : 10;
	return 0;
}

static int parse(struct sweep_run *r, int argc, char **argv)
{
	char err[1024];
	int ret;

	server_cfg_defaults(&r->o.srv);
	r->o.order_seed = -1;
	ret = opts_parse(sweep_table, &r->o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, sweep_table);
		return 1;
	}
	if (ret < 0)
		return fail(ret, err), -EINVAL;
	r->plan_given = r->o.eic || r->o.set.n || r->o.runs || r->o.query ||
			r->o.warm || r->o.jit || r->o.no_force || r->o.order_seed >= 0 ||
			r->o.until_separated || r->o.max_runs || r->o.budget_s > 0;
	if (r->o.resume && r->o.out)
		return fail(-EINVAL, "--resume and --out both given: a resumed sweep writes into its own folder"), -EINVAL;
	return check_rounds(&r->o);
}

/* The plan from the options (for a new sweep, or to compare on --resume). */
static int plan_from_options(struct sweep_run *r, uint64_t seed, struct sweep_plan *p)
{
	struct sweep_grid g;
	char err[1024];

	if (build_grid(&r->o, &g, err, sizeof(err)) < 0 ||
	    sweep_plan_build(p, &g, r->o.runs ? (int)r->o.runs : 3, seed, err, sizeof(err)) < 0)
		return fail(-EINVAL, err), -EINVAL;
	return 0;
}

/* ---- resume ------------------------------------------------------------- */

static int resume_meta(struct sweep_run *r, char *err, size_t errlen)
{
	char path[1100];
	json_t *plan;
	const char *cmd;

	snprintf(path, sizeof(path), "%s/%s", r->o.resume, RECORD_META);
	r->meta = json_load_file(path, 0, NULL);
	cmd = json_string_value(json_object_get(r->meta, "command"));
	if (!r->meta || !cmd || strcmp(cmd, "sweep")) {
		snprintf(err, errlen, "--resume '%s': %s; give the folder of an interrupted sweep",
			 r->o.resume, r->meta ? "not a sweep's folder" : "no readable meta.json there");
		return -EINVAL;
	}
	plan = json_object_get(r->meta, "plan");
	if (sweep_plan_from_json(&r->plan, plan, err, errlen) < 0)
		return -EINVAL;
	snprintf(r->query_name, sizeof(r->query_name), "%s",
		 json_string_value(json_object_get(plan, "query")) ?: "file");
	r->query_text = strdup(json_string_value(json_object_get(plan, "query_text")) ?: "");
	r->o.warm = json_is_true(json_object_get(plan, "warm"));
	r->o.jit = json_is_true(json_object_get(plan, "jit"));
	r->o.no_force = !json_is_true(json_object_get(plan, "forced_bitmap"));
	if (json_is_true(json_object_get(plan, "until_separated")) && !r->o.until_separated) {
		r->o.until_separated = true;
		r->o.max_runs = json_integer_value(json_object_get(plan, "max_runs"));
		r->o.budget_s = json_number_value(json_object_get(plan, "budget_s"));
	}
	if (json_integer_value(json_object_get(plan, "sample_ms")) > 0 && !r->o.sample_ms)
		r->o.sample_ms = json_integer_value(json_object_get(plan, "sample_ms"));
	if (json_object_get(r->meta, "dsn") && !r->o.srv.dsn) {
		snprintf(err, errlen, "--resume '%s': that sweep ran on a server given with --dsn; give the same --dsn and --restart-cmd again",
			 r->o.resume);
		return -EINVAL;
	}
	if (!r->o.srv.dsn) {
		const char *was = json_string_value(json_object_get(r->meta, "datadir"));
		struct server probe;

		if (!r->o.srv.datadir)
			r->o.srv.datadir = was;
		else if (was && server_resolve(&r->o.srv, &probe, err, errlen) == 0 &&
			 strcmp(probe.datadir, was)) {
			snprintf(err, errlen, "--resume '%s': that sweep ran on --datadir %s, not %s",
				 r->o.resume, was, probe.datadir);
			return -EINVAL;
		}
	}
	snprintf(r->dir, sizeof(r->dir), "%s", r->o.resume);
	r->saved_restore = json_incref(json_object_get(r->meta, "restore_auto_conf"));
	r->saved_before = json_incref(json_object_get(r->meta, "restore_in_force"));
	r->resumed = true;
	return 0;
}

/* On --resume with plan options too, they must describe the same plan. */
static int resume_same_plan(struct sweep_run *r, const struct sweep_opts *orig,
			    char *err, size_t errlen)
{
	struct sweep_run given = { .o = *orig };
	struct sweep_plan p;
	bool same;

	if (!r->plan_given)
		return 0;
	if (plan_from_options(&given, given.o.order_seed >= 0 ? (uint64_t)given.o.order_seed :
			      r->plan.order_seed, &p) < 0)
		return -EINVAL;
	same = sweep_plan_same(&p, &r->plan) && (!orig->warm || r->o.warm) &&
	       (!orig->jit || r->o.jit) && (!orig->no_force || r->o.no_force);
	sweep_plan_free(&p);
	if (same && given.o.query && load_query(&given, given.o.query, err, errlen) == 0) {
		same = !strcmp(given.query_text, r->query_text);
		free(given.query_text);
	}
	if (!same) {
		snprintf(err, errlen, "--resume '%s': that folder was made for a different plan (settings, runs, order or query); give --resume alone to finish its own plan",
			 r->o.resume);
		return -EINVAL;
	}
	return 0;
}

/* ---- the server and the settings ---------------------------------------- */

static int prepare_server(struct sweep_run *r, char *err, size_t errlen)
{
	PGconn *c;
	PGresult *res;
	int ret = server_resolve(&r->o.srv, &r->srv, err, errlen);

	if (ret == 0 && r->srv.external && !r->srv.restart_cmd[0] && !r->o.warm) {
		snprintf(err, errlen, "the server given with --dsn cannot be made cold without --restart-cmd; give one, or --warm to measure warm (every record says so)");
		return -EINVAL;
	}
	if (ret == 0 && !r->srv.external)
		ret = server_start(&r->srv, err, errlen);
	if (ret < 0)
		return ret;
	c = server_connect(&r->srv, NULL, err, errlen);
	if (!c) {
		if (!r->srv.external)
			snprintf(err, errlen, "no data set in '%s' (no database %s): run eicbench load --datadir %s first",
				 r->srv.datadir, SERVER_DBNAME, r->srv.datadir);
		return -EINVAL;
	}
	res = pgutil_query(c, sql_text("sweep/dataset_present.sql"), 0, NULL, err, errlen);
	ret = res && !strcmp(PQgetvalue(res, 0, 0), "t") ? 0 : -EINVAL;
	if (ret < 0)
		snprintf(err, errlen, "no data set: the table test is missing; run eicbench load first");
	PQclear(res);
	PQfinish(c);
	return ret;
}

static int context_of(const char *name, const char *ctx, enum sweep_context *out,
		      char *err, size_t errlen)
{
	if (!strcmp(ctx, "user") || !strcmp(ctx, "superuser"))
		*out = SWEEP_SESSION;
	else if (!strcmp(ctx, "sighup"))
		*out = SWEEP_RELOAD;
	else if (!strcmp(ctx, "postmaster"))
		*out = SWEEP_RESTART;
	else {
		snprintf(err, errlen, "--set %s: this setting cannot be varied (context %s)", name, ctx);
		return -EINVAL;
	}
	return 0;
}

/*
 * Keep what postgresql.auto.conf held for NAME, to put it back afterwards,
 * and the value in force now, to start the server with should a tried value
 * keep it from starting.
 */
static int remember(struct sweep_run *r, PGconn *c, const char *name,
		    char *err, size_t errlen)
{
	const char *p[] = { name };
	PGresult *res = pgutil_query(c, sql_text("sweep/auto_conf_value.sql"), 1, p, err, errlen);

	if (!res) {
		snprintf(err, errlen, "--set %s: cannot read postgresql.auto.conf's value (pg_file_settings) to restore it afterwards; run as a superuser",
			 name);
		return -EINVAL;
	}
	if (!r->restore)
		r->restore = json_object();
	if (!r->before)
		r->before = json_object();
	json_object_set_new(r->restore, name, PQntuples(res) == 1 ?
			    json_string(PQgetvalue(res, 0, 0)) : json_null());
	PQclear(res);
	res = pgutil_query(c, sql_text("sweep/current_setting.sql"), 1, p, err, errlen);
	if (res)
		json_object_set_new(r->before, name, json_string(PQgetvalue(res, 0, 0)));
	PQclear(res);
	return 0;
}

/* Does the server take VALUE for setting I? Session values are tried and rolled back. */
static int try_value(struct sweep_run *r, PGconn *c, int i, const char *value,
		     char *err, size_t errlen)
{
	const struct sweep_setting *st = &r->plan.grid.s[i];
	const char *p[] = { st->name, value };
	char msg[512];
	int ret;

	if (st->context == SWEEP_SESSION) {
		pgutil_exec(c, "BEGIN", 0, NULL, msg, sizeof(msg));
		ret = pgutil_exec(c, sql_text("sweep/try_config.sql"), 2, p, msg, sizeof(msg));
		pgutil_exec(c, "ROLLBACK", 0, NULL, err, errlen);
	} else {
		ret = trial_alter_system(c, st->name, value, msg, sizeof(msg));
	}
	if (ret < 0)
		snprintf(err, errlen, "--set %s: the server rejects '%s': %.*s", st->name, value,
			 (int)strcspn(msg, "\n"), msg);
	return ret < 0 ? -EINVAL : 0;
}

static int check_setting(struct sweep_run *r, PGconn *c, int i, char *err, size_t errlen)
{
	struct sweep_setting *st = &r->plan.grid.s[i];
	const char *p[] = { st->name };
	PGresult *res = pgutil_query(c, sql_text("sweep/setting_info.sql"), 1, p, err, errlen);
	int ret = res && PQntuples(res) == 1 ? 0 : -EINVAL;

	if (ret < 0)
		snprintf(err, errlen, "--set %s: the server has no such setting", st->name);
	else
		ret = context_of(st->name, PQgetvalue(res, 0, 0), &st->context, err, errlen);
	PQclear(res);
	if (ret == 0 && st->context != SWEEP_SESSION) {
		if (r->o.warm && st->context == SWEEP_RESTART) {
			snprintf(err, errlen, "--set %s needs a server restart, which --warm rules out", st->name);
			return -EINVAL;
		}
		if (r->srv.external && !r->srv.restart_cmd[0]) {
			snprintf(err, errlen, "--set %s changes the server's configuration; for a --dsn server that needs --restart-cmd", st->name);
			return -EINVAL;
		}
		ret = remember(r, c, st->name, err, errlen);
	}
	for (int k = 0; ret == 0 && k < st->nvalues; k++) {
		ret = try_value(r, c, i, st->values[k], err, errlen);
		if (ret == 0 && stop_flag) {
			snprintf(err, errlen, "interrupted while checking the settings");
			ret = -EINTR;
		}
	}
	return ret;
}

/*
 * The managed server does not come up (a tried value keeps it from starting):
 * start it with the values in force before the sweep as -c options, which
 * override postgresql.auto.conf, so that ALTER SYSTEM can put that file back.
 */
static PGconn *repair_start(struct sweep_run *r, char *err, size_t errlen)
{
	char pairs[16][SWEEP_NAME_MAX + SWEEP_VALUE_MAX + 2];
	const char *list[17];
	const char *name;
	json_t *v;
	int n = 0;

	if (r->srv.external || !r->before)
		return NULL;
	json_object_foreach(r->before, name, v) {
		if (n == 16)
			break;
		snprintf(pairs[n], sizeof(pairs[n]), "%s=%s", name, json_string_value(v));
		list[n] = pairs[n];
		n++;
	}
	list[n] = NULL;
	server_stop(&r->srv, err, errlen);
	if (server_start_with(&r->srv, list, err, errlen) < 0)
		return NULL;
	return server_connect(&r->srv, NULL, err, errlen);
}

/* Put back what postgresql.auto.conf held for the settings the sweep varied. */
static int restore_settings(struct sweep_run *r, char *err, size_t errlen)
{
	bool restart = false;
	const char *name;
	json_t *v;
	PGconn *c;
	int ret = 0;

	if (!r->restore)
		return 0;
	c = server_connect(&r->srv, NULL, err, errlen);
	if (!c)
		c = repair_start(r, err, errlen);
	if (!c)
		return -EIO;
	json_object_foreach(r->restore, name, v) {
		if (ret == 0)
			ret = trial_alter_system(c, name, json_string_value(v), err, errlen);
		restart |= r->plan.grid.s[sweep_grid_find(&r->plan.grid, name)].context == SWEEP_RESTART;
	}
	if (ret == 0)
		ret = pgutil_exec_file(c, "sweep/reload.sql", err, errlen);
	PQfinish(c);
	if (ret == 0 && restart) {
		struct cold_times t;

		ret = r->srv.external ? server_cold(&r->srv, &t, err, errlen) :
			server_stop(&r->srv, err, errlen);
		if (ret == 0 && !r->srv.external)
			ret = server_start(&r->srv, err, errlen);
	}
	return ret;
}

static int check_settings(struct sweep_run *r, char *err, size_t errlen)
{
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	int ret = c ? 0 : -EIO;

	for (int i = 0; ret == 0 && i < r->plan.grid.nsettings; i++)
		ret = check_setting(r, c, i, err, errlen);
	PQfinish(c);
	if (r->restore) {	/* undo the values ALTER SYSTEM was tried with */
		char e2[512];

		restore_settings(r, ret < 0 ? e2 : err, ret < 0 ? sizeof(e2) : errlen);
	}
	return ret;
}

/* ---- meta.json ---------------------------------------------------------- */

static const char *semantics(int version_num)
{
	if (version_num >= 180000)
		return "PostgreSQL 18 and later: bitmap heap scans read through read streams with asynchronous I/O; effective_io_concurrency caps the I/Os in flight and io_method decides how they are issued.";
	if (version_num >= 130000)
		return "PostgreSQL 13 to 17: effective_io_concurrency is the prefetch distance in pages; the bitmap heap scan gives posix_fadvise(WILLNEED) for each block that far ahead, ramping up 0, 1, 2, 4, ... to it.";
	return "PostgreSQL 12 and older: effective_io_concurrency counts spindles; the prefetch distance in pages is n*H(n) (1->1, 2->3, 4->8, 20->72, 100->519, 1000->7485).";
}

static json_t *server_json(struct sweep_run *r, char *err, size_t errlen)
{
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	json_t *settings = json_object(), *o;
	PGresult *res;
	int v;

	if (!c)
		return NULL;
	res = pgutil_query(c, sql_text("sweep/server_settings.sql"), 0, NULL, err, errlen);
	for (int i = 0; res && i < PQntuples(res); i++) {
		json_object_set_new(settings, PQgetvalue(res, i, 0), json_string(PQgetvalue(res, i, 1)));
	}
	PQclear(res);
	v = PQserverVersion(c);
	o = json_pack("{s:i, s:s, s:o, s:s}", "version_num", v, "version",
		      PQparameterStatus(c, "server_version") ?: "", "settings", settings,
		      "semantics", semantics(v));
	if (!r->srv.external) {
		struct dataset_info d;

		if (dataset_lookup(c, &d, err, errlen) == 1)
			json_object_set_new(r->meta, "dataset", dataset_info_json(&d));
	}
	PQfinish(c);
	return o;
}

/* The settings every trial's session makes (besides the grid's values). */
static json_t *session_json(struct sweep_run *r, char *err, size_t errlen)
{
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	json_t *o = json_object();
	PGresult *res = NULL;

	if (c && trial_session(c, &r->env, 0, err, errlen) == 0)
		res = pgutil_query(c, sql_text("sweep/session_settings.sql"), 0, NULL, err, errlen);
	for (int i = 0; res && i < PQntuples(res); i++)
		if (sweep_grid_find(&r->plan.grid, PQgetvalue(res, i, 0)) < 0)
			json_object_set_new(o, PQgetvalue(res, i, 0), json_string(PQgetvalue(res, i, 1)));
	PQclear(res);
	PQfinish(c);
	return o;
}

static json_t *device_json(struct sweep_run *r)
{
	struct device_info dev;

	if (r->srv.external || sysstat_device_for_path(r->srv.datadir, &dev) < 0)
		return json_null();
	snprintf(r->env.disk, sizeof(r->env.disk), "%s", dev.name);
	r->env.nmembers = dev.nmembers;
	memcpy(r->env.members, dev.members, sizeof(dev.members));
	return record_device_json(&dev);
}

static int write_meta(struct sweep_run *r, int argc, char **argv, char *err, size_t errlen)
{
	json_t *plan = sweep_plan_json(&r->plan), *srv;
	char dsn[1024] = "";

	r->meta = json_object();
	json_object_set_new(r->meta, "command", json_string("sweep"));
	record_meta_host(r->meta, argc, argv, time(NULL));
	if (r->srv.external)
		record_redact_dsn(r->srv.dsn, dsn, sizeof(dsn));
	json_object_set_new(r->meta, r->srv.external ? "dsn" : "datadir",
			    json_string(r->srv.external ? dsn : r->srv.datadir));
	json_object_set_new(r->meta, "device", device_json(r));
	json_object_set_new(r->meta, "tablespace", json_pack("{s:s, s:s, s:o, s:b}",
		"relation", r->pinfo.relation, "name", r->pinfo.tablespace,
		"effective_io_concurrency", r->pinfo.tablespace_eic[0] ?
		json_string(r->pinfo.tablespace_eic) : json_null(), "override_allowed", r->o.allow_override));
	json_object_set_new(r->meta, "statistics", json_pack("{s:f, s:s, s:s, s:s}",
		"level", REPORT_LEVEL, "median_interval", "distribution-free order statistics (binomial), min..max below 6 runs",
		"speedup_interval", "percentile bootstrap of the ratio of medians",
		"recommendation", "the smallest value whose interval overlaps the fastest median's"));
	srv = server_json(r, err, errlen);
	if (!srv) {
		json_decref(plan);
		return -EIO;
	}
	json_object_set_new(r->meta, "server", srv);
	json_object_set_new(plan, "query", json_string(r->query_name));
	json_object_set_new(plan, "query_text", json_string(r->query_text));
	json_object_set_new(plan, "warm", json_boolean(r->o.warm));
	json_object_set_new(plan, "jit", json_boolean(r->o.jit));
	json_object_set_new(plan, "forced_bitmap", json_boolean(!r->o.no_force));
	json_object_set_new(plan, "until_separated", json_boolean(r->o.until_separated));
	if (r->o.until_separated) {
		json_object_set_new(plan, "max_runs", json_integer(r->o.max_runs));
		json_object_set_new(plan, "budget_s", r->o.budget_s > 0 ? json_real(r->o.budget_s) : json_null());
	}
	json_object_set_new(plan, "sample_ms", json_integer(r->env.sample_ms));
	json_object_set_new(plan, "relation", json_string(r->pinfo.relation));
	json_object_set_new(plan, "session", session_json(r, err, errlen));
	json_object_set_new(r->meta, "plan", plan);
	if (r->restore) {	/* a resumed run puts back these, not what it finds */
		json_object_set(r->meta, "restore_auto_conf", r->restore);
		json_object_set(r->meta, "restore_in_force", r->before);
	}
	return record_meta_write(r->dir, r->meta, err, errlen);
}

/* ---- the trials --------------------------------------------------------- */

/* Which trials DIR already holds (none when the file does not exist yet);
 * their plans become the references later trials are checked against. */
static int done_trials(struct sweep_run *r, bool *done, char *err, size_t errlen)
{
	const char **keys = malloc(sizeof(char *) * (size_t)r->plan.ntrials);
	json_t *recs = NULL, *rec;
	int torn = 0, ret;
	size_t i;

	if (!keys)
		return -ENOMEM;
	for (int k = 0; k < r->plan.ntrials; k++)
		keys[k] = r->plan.trials[k].key;
	ret = record_load(r->dir, RECORD_TRIALS, &recs, &torn, err, errlen);
	if (ret == -ENOENT)
		ret = 0;
	else if (ret == 0) {
		if (torn)
			fprintf(stderr, "eicbench sweep: %s (the unfinished trial runs again)\n", err);
		ret = record_done_keys(recs, RECORD_KEY_FIELD, keys, (size_t)r->plan.ntrials, done);
		json_array_foreach(recs, i, rec)
			trial_plan_check(rec, r->plan_refs);
	}
	json_decref(recs);
	free(keys);
	return ret;
}

static void say_trial(int i, int n, const struct sweep_trial *t, const json_t *rec,
		      double mean_ms, int left)
{
	json_t *ex = json_object_get(rec, "explain");
	double heap = report_num_at(ex, "bitmap.heap_phase.total_ms");
	char eta[16], heap_s[32] = "";

	progress_format_eta(mean_ms * left / 1e3, eta, sizeof(eta));
	if (!isnan(heap))
		snprintf(heap_s, sizeof(heap_s), "  heap %9.1f ms", heap);
	fprintf(stderr, "[%*d/%d] %-36s %9.1f ms%s  (trial %.1f s, ETA %s)\n",
		n >= 100 ? 3 : 2, i, n, t->key + strcspn(t->key, " ") + 1,
		json_real_value(json_object_get(ex, "execution_ms")), heap_s,
		json_real_value(json_object_get(rec, "wall_ms")) / 1e3, eta);
}

static void say_mismatch(const json_t *rec)
{
	const json_t *pc = json_object_get(rec, "plan_check"), *d;
	size_t i;

	fprintf(stderr, "eicbench sweep: trial '%s' read another plan than '%s':",
		json_string_value(json_object_get(rec, "trial_key")),
		json_string_value(json_object_get(pc, "reference")));
	json_array_foreach(json_object_get(pc, "differences"), i, d) {
		char *want = json_dumps(json_object_get(d, "reference"), JSON_ENCODE_ANY);
		char *got = json_dumps(json_object_get(d, "here"), JSON_ENCODE_ANY);

		fprintf(stderr, "%s %s %s instead of %s", i ? ";" : "",
			json_string_value(json_object_get(d, "figure")), got, want);
		free(want), free(got);
	}
	fprintf(stderr, "; the record says so and the report leaves it out\n");
}

static int run_trials(struct sweep_run *r, char *err, size_t errlen)
{
	bool *done = calloc((size_t)r->plan.ntrials, sizeof(bool));
	int ndone, left, ret = 0;
	double sum_ms = 0;

	if (!done)
		return -ENOMEM;
	json_object_clear(r->plan_refs);
	ndone = done_trials(r, done, err, errlen);
	if (ndone < 0) {
		free(done);
		return ndone;
	}
	left = r->plan.ntrials - ndone;
	fprintf(stderr, "eicbench sweep: %d trials (%d done), query %s, %s; records in %s\n",
		r->plan.ntrials, ndone, r->query_name, r->o.warm ? "WARM" : "cold", r->dir);
	for (int i = 0, k = 0; ret == 0 && i < r->plan.ntrials; i++) {
		json_t *rec = NULL;

		if (done[i])
			continue;
		ret = trial_run(&r->env, &r->plan.trials[i], i + 1, &rec, err, errlen);
		if (ret == 0 && trial_plan_check(rec, r->plan_refs))
			say_mismatch(rec);
		if (ret == 0)
			ret = record_append(r->dir, RECORD_TRIALS, rec, err, errlen);
		if (ret == 0) {
			sum_ms += json_real_value(json_object_get(rec, "wall_ms"));
			r->ran++;
			left--;
			k++;
			say_trial(ndone + k, r->plan.ntrials, &r->plan.trials[i], rec, sum_ms / k, left);
		}
		json_decref(rec);
	}
	free(done);
	return ret;
}

/* ---- more rounds until the recommendation is separated ---- */

/* Is every series separated? 1 yes, 0 no (with WHY), -errno. */
static int separated(struct sweep_run *r, char *why, size_t len)
{
	struct report rep;
	char err[1024];
	int ret = report_load(r->dir, &rep, err, sizeof(err));

	if (ret == 0) {
		ret = report_separated(&rep);
		for (size_t s = 0; !ret && s < rep.nseries; s++)
			if (!rep.series[s].separated)
				snprintf(why, len, rep.series[s].min_runs < REPORT_RUNS_FOR_95 ?
					 "fewer than %d runs per value" : "every value's interval overlaps the fastest's",
					 REPORT_RUNS_FOR_95);
	}
	report_free(&rep);
	return ret;
}

/* One more round: the same seed gives the same earlier rounds. */
static int add_round(struct sweep_run *r, char *err, size_t errlen)
{
	struct sweep_plan p;
	json_t *plan = json_object_get(r->meta, "plan"), *grown;
	int ret = sweep_plan_build(&p, &r->plan.grid, r->plan.runs + 1, r->plan.order_seed,
				   err, errlen);

	if (ret < 0)
		return ret;
	for (int i = 0; i < r->plan.grid.nsettings; i++)	/* contexts were looked up */
		p.grid.s[i].context = r->plan.grid.s[i].context;
	sweep_plan_free(&r->plan);
	r->plan = p;
	grown = sweep_plan_json(&r->plan);
	json_object_set(plan, "runs", json_object_get(grown, "runs"));
	json_object_set(plan, "trial_keys", json_object_get(grown, "trial_keys"));
	json_decref(grown);
	return record_meta_write(r->dir, r->meta, err, errlen);
}

/* Run the plan; with --until-separated add rounds while it is not. */
static int run_rounds(struct sweep_run *r, char *err, size_t errlen)
{
	char why[128] = "";
	double round_s;
	int ret;

	for (;;) {
		double t0 = clock_now_s();
		int ran = r->ran;

		ret = run_trials(r, err, errlen);
		if (ret < 0 || !r->o.until_separated)
			return ret;
		/* the time of a round, from the trials just run */
		round_s = r->ran > ran ? (clock_now_s() - t0) / (r->ran - ran) * r->plan.ncombos : 0;
		ret = separated(r, why, sizeof(why));
		if (ret < 0)
			return 0;	/* nothing to judge by yet: the report says why */
		if (ret == 1) {
			fprintf(stderr, "eicbench sweep: separated after %d rounds\n", r->plan.runs);
			return 0;
		}
		if (r->plan.runs >= r->o.max_runs) {
			fprintf(stderr, "eicbench sweep: not separated after %d rounds (%s); --max-runs %lld reached\n",
				r->plan.runs, why, r->o.max_runs);
			return 0;
		}
		if (r->o.budget_s > 0 && clock_now_s() - r->started_s + round_s > r->o.budget_s) {
			fprintf(stderr, "eicbench sweep: not separated after %d rounds (%s); another round would pass --budget\n",
				r->plan.runs, why);
			return 0;
		}
		fprintf(stderr, "eicbench sweep: not separated after %d rounds (%s): adding round %d\n",
			r->plan.runs, why, r->plan.runs + 1);
		if ((ret = add_round(r, err, errlen)) < 0)
			return ret;
	}
}

static void cleanup(struct sweep_run *r)
{
	sweep_plan_free(&r->plan);
	free(r->query_text);
	json_decref(r->meta);
	json_decref(r->restore);
	json_decref(r->saved_restore);
	json_decref(r->before);
	json_decref(r->saved_before);
	json_decref(r->plan_refs);
}

/* A tablespace value overrides the session's: refuse unless allowed. */
static int check_tablespace(struct sweep_run *r, char *err, size_t errlen)
{
	const struct trial_plan_info *p = &r->pinfo;

	if (!p->tablespace_eic[0] || r->o.allow_override ||
	    sweep_grid_find(&r->plan.grid, SWEEP_EIC) < 0)
		return 0;
	snprintf(err, errlen, "the relation %s lives in tablespace %s, which sets effective_io_concurrency = %s for itself: that overrides every value the sweep would try. Run ALTER TABLESPACE %s RESET (effective_io_concurrency); first, or give --allow-override to sweep anyway (every trial then reads with %s)",
		 p->relation, p->tablespace, p->tablespace_eic, p->tablespace, p->tablespace_eic);
	return -EINVAL;
}

/* Options or --resume → plan, server, checked settings, folder. */
static int setup(struct sweep_run *r, int argc, char **argv, char *err, size_t errlen)
{
	struct sweep_opts orig = r->o;
	int ret;

	if (r->o.resume) {
		ret = resume_meta(r, err, errlen);
		if (ret == 0)
			ret = resume_same_plan(r, &orig, err, errlen);
	} else {
		ret = plan_from_options(r, r->o.order_seed >= 0 ? (uint64_t)r->o.order_seed :
					random_seed(), &r->plan) < 0 ? -EINVAL : 0;
		if (ret < 0)
			return 2;	/* already said */
		ret = load_query(r, r->o.query ? r->o.query : "blog", err, errlen);
	}
	if (ret == 0)
		ret = prepare_server(r, err, errlen);
	if (ret == 0)
		ret = check_settings(r, err, errlen);
	if (ret == 0 && r->saved_restore) {
		json_decref(r->restore);
		r->restore = json_incref(r->saved_restore);
		json_decref(r->before);
		r->before = json_incref(r->saved_before);
	}
	r->env = (struct trial_env){ .srv = &r->srv, .plan = &r->plan,
		.query_name = r->query_name, .query_text = r->query_text,
		.warm = r->o.warm, .jit = r->o.jit, .force_bitmap = !r->o.no_force,
		.sample_ms = r->o.sample_ms ? (int)r->o.sample_ms : 50, .stop = &stop_flag };
	if (ret == 0 && query_is_preset(r->query_name))
		snprintf(r->env.relation, sizeof(r->env.relation), "test");
	if (ret == 0 && (ret = trial_check_plan(&r->env, 0, &r->pinfo, err, errlen)) == -EPROTO)
		ret = -EINVAL;	/* a query without a bitmap plan is bad input */
	if (ret == 0)
		snprintf(r->env.relation, sizeof(r->env.relation), "%s", r->pinfo.relation);
	if (ret == 0)
		ret = check_tablespace(r, err, errlen);
	if (ret == 0 && !r->resumed) {
		ret = record_dir_create(NULL, "sweep", r->o.out, r->dir, sizeof(r->dir), err, errlen);
		if (ret == -EEXIST && r->o.out)
			ret = -EINVAL;	/* the folder the user named is taken */
	}
	if (ret == 0 && !r->resumed)
		ret = write_meta(r, argc, argv, err, errlen);
	else if (ret == 0)
		json_decref(device_json(r));	/* only the device to watch */
	return ret;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_run r = { .started_s = clock_now_s() };
	char err[4096] = "";
	int ret;

	ret = parse(&r, argc, argv);
	if (ret != 0)
		return ret == 1 ? 0 : EXIT_BAD_INPUT;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	ret = setup(&r, argc + 2, argv - 2, err, sizeof(err));	/* see cmd.h */
	if (ret == 2 || ret < 0) {
		cleanup(&r);
		return ret == 2 ? EXIT_BAD_INPUT : fail(ret, err);
	}
	r.plan_refs = json_object();
	ret = run_rounds(&r, err, sizeof(err));
	if (ret < 0) {
		char e2[1024];

		restore_settings(&r, e2, sizeof(e2));
		if (ret == -EINTR)
			fprintf(stderr, "eicbench sweep: interrupted; finished trials are in %s; finish with: eicbench sweep --resume %s%s\n",
				r.dir, r.dir, r.srv.external ? " --dsn ... --restart-cmd ... (the same as before)" : "");
		else
			fail(ret, err);
		cleanup(&r);
		return EXIT_RUN_FAILED;
	}
	ret = restore_settings(&r, err, sizeof(err));
	if (ret == 0)
		ret = report_sweep_finish(r.dir, stdout, err, sizeof(err));
	cleanup(&r);
	return ret < 0 ? fail(ret, err) : 0;
}
