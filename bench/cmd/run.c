/*
 * cmd_run: "eicbench run": the whole suite in one command and one result
 * folder. On the managed cluster (made and started when missing) or a
 * --dsn server: the data set, the check for caches below the machine, the
 * cold sweep of each query, the replay of each query's heap blocks with the
 * raw probes, and the device's own curve; then the verdict (bench/report/verdict.h)
 * as report.md and report.html. Each step is a command of its own writing a
 * subfolder of the run's folder; meta.json lists the steps and their state,
 * so "eicbench run --resume DIR" goes on where an interrupted run stopped.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/cli/stop.h"
#include "bench/pg/lock.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/cli/redact.h"
#include "bench/cmd/probe.h"
#include "bench/cli/opts.h"
#include "bench/cli/progress.h"
#include "bench/record/record.h"
#include "bench/pg/server.h"
#include "bench/sweep/sweep.h"
#include "bench/report/verdict.h"
#include "io/clock.h"

#define RUN_EIC        "0,1,2,4,8,16,32,64,128,256,1000"
#define RUN_EIC_QUICK  "0,1,4,16,64"
#define RUN_DEPTHS     "1,2,4,8,16,32,64,128,256"
#define RUN_DEPTHS_QUICK "1,4,16,64"
#define RUN_MAX_STEPS  16
#define ARGV_MAX       48

struct run_opts {
	struct server_cfg srv;
	long long rows, seed, runs, max_runs;
	const char *eic, *query, *out, *resume, *depths, *tablespace_dir;
	double budget_s;
	bool quick, no_probe;
};

static const struct opt_desc run_table[] = {
	SERVER_OPTS(struct run_opts, srv),
	{ "rows", OPT_INT, offsetof(struct run_opts, rows), 1000, 2000000000LL, "N",
	  "100000000 (--quick: 10000000)", "the data set: major 0..N" },
	{ "seed", OPT_INT, offsetof(struct run_opts, seed), 0, INT64_MAX, "S", "1",
	  "seed of the data set's generator" },
	{ "eic", OPT_STR, offsetof(struct run_opts, eic), 0, 0, "LIST",
	  RUN_EIC " (--quick: " RUN_EIC_QUICK ")", "effective_io_concurrency values to sweep" },
	{ "runs", OPT_INT, offsetof(struct run_opts, runs), 1, 1000, "N", "6 (--quick: 3)",
	  "rounds per sweep before --until-separated adds more" },
	{ "max-runs", OPT_INT, offsetof(struct run_opts, max_runs), 1, 1000, "N", "10",
	  "rounds per sweep at most (not with --quick)" },
	{ "budget", OPT_SECONDS, offsetof(struct run_opts, budget_s), 0, 7 * 86400, "TIME", "none",
	  "each sweep starts no new round after this much time (at most 7 days)" },
	{ "query", OPT_STR, offsetof(struct run_opts, query), 0, 0, "LIST", "blog,sparse",
	  "the query presets to sweep, comma-separated" },
	{ "depths", OPT_STR, offsetof(struct run_opts, depths), 0, 0, "LIST",
	  RUN_DEPTHS " (--quick: " RUN_DEPTHS_QUICK ")", "reads in flight for the device's curve" },
	{ "tablespace-dir", OPT_STR, offsetof(struct run_opts, tablespace_dir), 0, 0, "DIR", "the default tablespace",
	  "the data set in a tablespace on DIR (eicbench load --tablespace-dir): the verdict is that storage's" },
	{ "quick", OPT_FLAG, offsetof(struct run_opts, quick), 0, 0, NULL, NULL,
	  "a first look in a few minutes: 10M rows, 5 values, 3 runs, a short device curve" },
	{ "no-probe", OPT_FLAG, offsetof(struct run_opts, no_probe), 0, 0, NULL, NULL,
	  "sweeps only: no cache check, replays or device curve" },
	{ "out", OPT_STR, offsetof(struct run_opts, out), 0, 0, "DIR", "results/<UTC>-run",
	  "the run's folder (new or empty)" },
	{ "resume", OPT_STR, offsetof(struct run_opts, resume), 0, 0, "DIR", NULL,
	  "go on with an interrupted run in DIR (its own options)" },
	{ 0 }
};

#define USAGE "eicbench run [--datadir DIR | --dsn CONNINFO --restart-cmd CMD] [--rows N] [--eic LIST]\n" \
	"                    [--runs N] [--query blog,sparse] [--tablespace-dir DIR] [--quick] [--out DIR | --resume DIR]"

/* One step: a command with its arguments, and where it writes. */
struct step {
	char name[64];            /* "sweep sparse" */
	char sub[64];             /* subfolder of the run, or "" */
	char out[PATH_MAX + 80];  /* the run's folder / sub */
	int (*cmd)(int argc, char **argv);
	char *argv[ARGV_MAX];     /* argv[0..1] program and command, as main gives */
	int argc;
	double estimate_s;        /* for the ETA; 0 when unknown */
};

struct run {
	struct run_opts o;
	char dir[PATH_MAX];
	char rows[32], seed[32], runs[32], max_runs[32], budget[32], port[32], timeout[32];
	char queries[8][32];
	int nqueries;
	char depths[512];         /* the swept values but 0, for the replays */
	struct step steps[RUN_MAX_STEPS];
	int nsteps;
	json_t *meta;
};

static int fail(int ret, const char *msg)
{
	return cmd_fail("run", ret, msg);
}

/* ---- the steps ---- */

static void arg(struct step *s, const char *a)
{
	if (s->argc < ARGV_MAX - 1)
		s->argv[s->argc++] = (char *)a;
	s->argv[s->argc] = NULL;
}

/* The server options every step passes on. */
static void server_args(struct run *r, struct step *s)
{
	const struct server_cfg *c = &r->o.srv;

	if (c->dsn) {
		arg(s, "--dsn"), arg(s, c->dsn);
		if (c->restart_cmd)
			arg(s, "--restart-cmd"), arg(s, c->restart_cmd);
		if (c->no_record_cmd)
			arg(s, "--no-record-cmd");
		return;
	}
	arg(s, "--datadir"), arg(s, c->datadir ? c->datadir : SERVER_DEFAULT_DATADIR);
	if (c->pgbin)
		arg(s, "--pgbin"), arg(s, c->pgbin);
	if (c->user)
		arg(s, "--user"), arg(s, c->user);
	if (c->timeout_s > 0)
		arg(s, "--timeout"), arg(s, r->timeout);
}

static struct step *add(struct run *r, const char *name, const char *sub,
			int (*cmd)(int, char **), const char *cmdname)
{
	struct step *s = &r->steps[r->nsteps++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->sub, sizeof(s->sub), "%s", sub);
	s->cmd = cmd;
	arg(s, "eicbench");
	arg(s, cmdname);
	return s;
}

/* S->out = RUN/SUB. */
static void set_out(const struct run *r, struct step *s)
{
	char tmp[sizeof(s->out)];

	snprintf(tmp, sizeof(tmp), "%s/%s", r->dir, s->sub);
	memcpy(s->out, tmp, sizeof(tmp));
}

/* --out RUN/SUB for the step just added. */
static void out_arg(struct run *r, struct step *s)
{
	set_out(r, s);
	arg(s, "--out");
	arg(s, s->out);
}

static void plan_server(struct run *r)
{
	struct step *s;
	struct stat st;
	char marker[PATH_MAX];
	const char *dd = r->o.srv.datadir ? r->o.srv.datadir : SERVER_DEFAULT_DATADIR;

	if (r->o.srv.dsn)
		return;
	snprintf(marker, sizeof(marker), "%s/eicbench.json", dd);
	if (stat(marker, &st) < 0) {
		s = add(r, "create the managed cluster", "", cmd_server, "server");
		arg(s, "init");
		server_args(r, s);
		if (r->o.srv.port)
			arg(s, "--port"), arg(s, r->port);
	}
	s = add(r, "start the server", "", cmd_server, "server");
	arg(s, "start");
	server_args(r, s);
}

static void plan_load(struct run *r)
{
	struct step *s = add(r, "the data set", "", cmd_load, "load");

	server_args(r, s);
	arg(s, "--rows"), arg(s, r->rows);
	arg(s, "--seed"), arg(s, r->seed);
	if (r->o.tablespace_dir)
		arg(s, "--tablespace-dir"), arg(s, r->o.tablespace_dir);
	s->estimate_s = (double)r->o.rows / 1.5e6;
}

static void plan_sweeps(struct run *r, const char *eic)
{
	for (int q = 0; q < r->nqueries; q++) {
		char name[64], sub[64];
		struct step *s;

		snprintf(name, sizeof(name), "sweep %s", r->queries[q]);
		snprintf(sub, sizeof(sub), "sweep-%s", r->queries[q]);
		s = add(r, name, sub, cmd_sweep, "sweep");
		server_args(r, s);
		arg(s, "--query"), arg(s, r->queries[q]);
		arg(s, "--eic"), arg(s, eic);
		if (!r->o.no_probe)
			arg(s, "--no-cache-check");	/* the run's own step did it */
		arg(s, "--runs"), arg(s, r->runs);
		if (!r->o.quick) {
			arg(s, "--until-separated");
			arg(s, "--max-runs"), arg(s, r->max_runs);
			if (r->o.budget_s > 0)
				arg(s, "--budget"), arg(s, r->budget);
		}
		out_arg(r, s);
	}
}

/* The probe depths: the swept values but 0 (psync plays 0). */
static void depths_of(const char *eic, char *out, size_t len)
{
	const char *p = eic;
	size_t used = 0;

	out[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, ",");

		if (!(n == 1 && p[0] == '0') && used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? "," : "", (int)n, p);
		p += n + (p[n] == ',');
	}
}

static void plan_cache_check(struct run *r)
{
	struct step *s = add(r, "check for caches below", "cache-check", cmd_probe, "probe");

	arg(s, "--cache-check");
	server_args(r, s);
	out_arg(r, s);
	s->estimate_s = 15;
}

static void plan_replays(struct run *r)
{
	for (int q = 0; q < r->nqueries; q++) {
		char name[64], sub[64];
		struct step *s;

		snprintf(name, sizeof(name), "replay %s", r->queries[q]);
		snprintf(sub, sizeof(sub), "replay-%s", r->queries[q]);
		s = add(r, name, sub, cmd_probe, "probe");
		arg(s, "--relation"), arg(s, "test");
		arg(s, "--query"), arg(s, r->queries[q]);
		server_args(r, s);
		arg(s, "--engine"), arg(s, "psync,fadvise,io_uring");
		arg(s, "--depth"), arg(s, r->depths);
		out_arg(r, s);
	}
}

static void plan_curve(struct run *r)
{
	struct step *s = add(r, "the device's curve", "device", cmd_probe, "probe");
	const char *depths = r->o.depths ? r->o.depths : r->o.quick ? RUN_DEPTHS_QUICK : RUN_DEPTHS;

	arg(s, "--relation"), arg(s, "test");
	arg(s, "--pattern"), arg(s, "random");
	server_args(r, s);
	arg(s, "--engine"), arg(s, "io_uring");
	arg(s, "--direct");
	arg(s, "--depth"), arg(s, depths);
	if (r->o.quick) {		/* a first look: 3 s a point, not waiting for steady */
		arg(s, "--duration"), arg(s, "3s");
	} else {
		arg(s, "--steady");
		arg(s, "--duration"), arg(s, "30s");
	}
	out_arg(r, s);
	s->estimate_s = (r->o.quick ? 3 : 15) * (double)(strlen(depths) - strlen(depths) / 2);
}

/* ---- options, the folder, meta.json ---- */

static int split_queries(struct run *r, char *err, size_t errlen)
{
	const char *p = r->o.query ? r->o.query : "blog,sparse";

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(r->queries[0]) || r->nqueries == 8) {
			snprintf(err, errlen, "--query '%s': give preset names (blog, sparse), comma-separated, each once", r->o.query);
			return -EINVAL;
		}
		snprintf(r->queries[r->nqueries], sizeof(r->queries[0]), "%.*s", (int)n, p);
		if (strcmp(r->queries[r->nqueries], "blog") && strcmp(r->queries[r->nqueries], "sparse")) {
			snprintf(err, errlen, "--query '%s': '%s' is no preset; give blog, sparse or both",
				 r->o.query, r->queries[r->nqueries]);
			return -EINVAL;
		}
		for (int i = 0; i < r->nqueries; i++)
			if (!strcmp(r->queries[i], r->queries[r->nqueries])) {
				snprintf(err, errlen, "--query '%s': '%s' given twice", r->o.query, r->queries[i]);
				return -EINVAL;
			}
		r->nqueries++;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* --eic and --depths as the steps will take them, before the folder is made;
 * the replays run at every value of --eic but 0, at most 32 depths. */
static int check_lists(const struct run *r, char *err, size_t errlen)
{
	const char *eic = r->o.eic ? r->o.eic : r->o.quick ? RUN_EIC_QUICK : RUN_EIC;
	struct sweep_grid *g = calloc(1, sizeof(*g));
	long long d[PROBE_CMD_MAX_DEPTHS];
	int ret = g ? sweep_grid_add_eic(g, eic, err, errlen) : -ENOMEM, nonzero = 0;

	for (int i = 0; ret == 0 && i < g->s[0].nvalues; i++)
		nonzero += strcmp(g->s[0].values[i], "0") != 0;
	free(g);
	if (ret == 0 && !r->o.no_probe && nonzero > PROBE_CMD_MAX_DEPTHS) {
		snprintf(err, errlen, "--eic: %d values besides 0; the replays run each as a depth, at most %d (or give --no-probe)",
			 nonzero, PROBE_CMD_MAX_DEPTHS);
		ret = -EINVAL;
	}
	if (ret == 0 && r->o.depths &&
	    opts_parse_ll_list("depths", r->o.depths, 1, PROBE_MAX_DEPTH, d, PROBE_CMD_MAX_DEPTHS, err, errlen) < 0)
		ret = -EINVAL;
	return ret;
}

static int resolve(struct run *r, char *err, size_t errlen)
{
	struct run_opts *o = &r->o;

	if (!o->rows)
		o->rows = o->quick ? 10000000 : 100000000;
	if (!o->runs)
		o->runs = o->quick ? 3 : 6;
	if (!o->max_runs)
		o->max_runs = o->runs > 10 ? o->runs : 10;
	if (o->max_runs < o->runs) {
		snprintf(err, errlen, "--max-runs %lld is below --runs %lld; give at least %lld",
			 o->max_runs, o->runs, o->runs);
		return -EINVAL;
	}
	snprintf(r->rows, sizeof(r->rows), "%lld", o->rows);
	snprintf(r->seed, sizeof(r->seed), "%lld", o->seed ? o->seed : 1);
	snprintf(r->runs, sizeof(r->runs), "%lld", o->runs);
	snprintf(r->max_runs, sizeof(r->max_runs), "%lld", o->max_runs);
	snprintf(r->budget, sizeof(r->budget), "%.3fs", o->budget_s);
	snprintf(r->port, sizeof(r->port), "%lld", o->srv.port);
	snprintf(r->timeout, sizeof(r->timeout), "%.3fs", o->srv.timeout_s);
	return split_queries(r, err, errlen) < 0 ? -EINVAL : check_lists(r, err, errlen);
}

static json_t *steps_json(const struct run *r)
{
	json_t *a = json_array();

	for (int i = 0; i < r->nsteps; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "name", r->steps[i].name,
						   "folder", r->steps[i].sub, "state", "to do"));
	return a;
}

static json_t *folders_json(const struct run *r, const char *prefix)
{
	json_t *o = json_object();

	for (int i = 0; i < r->nsteps; i++)
		if (!strncmp(r->steps[i].sub, prefix, strlen(prefix)) && r->steps[i].sub[0])
			json_object_set_new(o, r->steps[i].sub + strlen(prefix), json_string(r->steps[i].sub));
	return o;
}

static int write_meta(struct run *r, int argc, char **argv, char *err, size_t errlen)
{
	json_t *folders = json_array(), *opts;

	r->meta = json_object();
	json_object_set_new(r->meta, "command", json_string("run"));
	record_meta_host(r->meta, argc, argv, time(NULL));
	for (int i = 0; i < r->nsteps; i++)
		if (r->steps[i].sub[0])
			json_array_append_new(folders, json_string(r->steps[i].sub));
	opts = json_pack("{s:I, s:I, s:s, s:s, s:I, s:I, s:b, s:b, s:s}", "rows", (json_int_t)r->o.rows,
			 "seed", (json_int_t)atoll(r->seed), "eic", r->o.eic ? r->o.eic : r->o.quick ? RUN_EIC_QUICK : RUN_EIC,
			 "query", r->o.query ? r->o.query : "blog,sparse",
			 "runs", (json_int_t)r->o.runs, "max_runs", (json_int_t)r->o.max_runs,
			 "quick", r->o.quick, "no_probe", r->o.no_probe,
			 "depths", r->o.depths ? r->o.depths : r->o.quick ? RUN_DEPTHS_QUICK : RUN_DEPTHS);
	if (r->o.tablespace_dir)
		json_object_set_new(opts, "tablespace_dir", json_string(r->o.tablespace_dir));
	json_object_set_new(r->meta, "options", opts);
	if (r->o.srv.dsn) {
		char dsn[1024];

		redact_dsn(r->o.srv.dsn, dsn, sizeof(dsn));
		json_object_set_new(r->meta, "dsn", json_string(dsn));
	} else
		json_object_set_new(r->meta, "datadir", json_string(r->o.srv.datadir ? r->o.srv.datadir :
								    SERVER_DEFAULT_DATADIR));
	json_object_set_new(r->meta, "sweeps", folders_json(r, "sweep-"));
	json_object_set_new(r->meta, "replays", folders_json(r, "replay-"));
	json_object_set_new(r->meta, "device_curve", r->o.no_probe ? json_null() : json_string("device"));
	json_object_set_new(r->meta, "cache_check", r->o.no_probe ? json_null() : json_string("cache-check"));
	json_object_set_new(r->meta, "folders", folders);
	json_object_set_new(r->meta, "steps", steps_json(r));
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
		unknown += r->steps[k].estimate_s <= 0 && r->steps[k].cmd != cmd_server;
	}
	progress_format_eta(clock_now_s() - started, el, sizeof(el));
	progress_format_eta(left, eta, sizeof(eta));
	fprintf(stderr, "\n== eicbench run [%d/%d] %s (run %s so far%s%s%s)\n", i + 1, r->nsteps,
		r->steps[i].name, el, left > 0 ? ", about " : "", left > 0 ? eta : "",
		left > 0 ? (unknown ? " left and more" : " left") : "");
}

/* After a sweep, the others are guessed from its time per trial and theirs. */
static void learn(struct run *r, int i, double took_s)
{
	if (r->steps[i].cmd != cmd_sweep)
		return;
	for (int k = i + 1; k < r->nsteps; k++)
		if (r->steps[k].cmd == cmd_sweep && r->steps[k].estimate_s <= 0)
			r->steps[k].estimate_s = took_s;
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
		rc = r->steps[i].cmd(r->steps[i].argc - 2, r->steps[i].argv + 2);
		if (rc != 0) {
			set_state(r, i, rc == EXIT_BAD_INPUT ? "refused" : "failed", clock_now_s() - t0);
			fprintf(stderr, "eicbench run: step '%s' %s; what is done is in %s; go on with: eicbench run --resume %s\n",
				r->steps[i].name, rc == EXIT_BAD_INPUT ? "was refused" : "stopped",
				r->dir, r->dir);
			return rc;
		}
		set_state(r, i, "done", clock_now_s() - t0);
		learn(r, i, clock_now_s() - t0);
	}
	return 0;
}

/* ---- resume ---- */

/* The first step not done; a started sweep goes on with --resume. */
static int resume_point(struct run *r)
{
	for (int i = 0; i < r->nsteps; i++) {
		const char *st = json_string_value(json_object_get(step_record(r, i), "state"));
		struct stat sb;
		char meta[PATH_MAX + 100];

		if (st && !strcmp(st, "done"))
			continue;
		snprintf(meta, sizeof(meta), "%s/%s/meta.json", r->dir, r->steps[i].sub);
		if (r->steps[i].cmd == cmd_sweep && stat(meta, &sb) == 0) {
			struct step *s = &r->steps[i];

			set_out(r, s);
			s->argc = 2;
			arg(s, "--resume");
			arg(s, s->out);
			if (r->o.srv.dsn)
				server_args(r, s);
		} else if (r->steps[i].sub[0] && stat(r->steps[i].out, &sb) == 0) {
			char moved[sizeof(r->steps[i].out) + 16];

			/* a probe cut short starts again; what it wrote is kept aside */
			snprintf(moved, sizeof(moved), "%s.interrupted", r->steps[i].out);
			if (rename(r->steps[i].out, moved) != 0)
				return -errno;
		}
		return i;
	}
	return r->nsteps;
}

static int load_resume(struct run *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	json_t *o;

	int ret = lock_hold_folder(r->o.resume, err, errlen);

	if (ret < 0)
		return ret == -ENOENT || ret == -ENOTDIR ?
		       (snprintf(err, errlen, "--resume '%s': no such folder", r->o.resume), -EINVAL) : ret;
	snprintf(path, sizeof(path), "%s/meta.json", r->o.resume);
	r->meta = json_load_file(path, 0, NULL);
	if (!r->meta || strcmp(json_string_value(json_object_get(r->meta, "command")) ?: "", "run")) {
		snprintf(err, errlen, "--resume '%s': not the folder of an eicbench run (no meta.json with \"command\": \"run\")",
			 r->o.resume);
		return -EINVAL;
	}
	o = json_object_get(r->meta, "options");
	r->o.rows = json_integer_value(json_object_get(o, "rows"));
	r->o.seed = json_integer_value(json_object_get(o, "seed"));
	r->o.runs = json_integer_value(json_object_get(o, "runs"));
	r->o.max_runs = json_integer_value(json_object_get(o, "max_runs"));
	r->o.quick = json_is_true(json_object_get(o, "quick"));
	r->o.no_probe = json_is_true(json_object_get(o, "no_probe"));
	r->o.eic = json_string_value(json_object_get(o, "eic"));
	r->o.query = json_string_value(json_object_get(o, "query"));
	r->o.depths = json_string_value(json_object_get(o, "depths"));
	r->o.tablespace_dir = json_string_value(json_object_get(o, "tablespace_dir"));
	snprintf(r->dir, sizeof(r->dir), "%s", r->o.resume);
	if (json_object_get(r->meta, "dsn") && !r->o.srv.dsn) {
		snprintf(err, errlen, "--resume '%s': that run used a server given with --dsn; give the same --dsn and --restart-cmd again",
			 r->o.resume);
		return -EINVAL;
	}
	if (!r->o.srv.dsn && !r->o.srv.datadir)
		r->o.srv.datadir = json_string_value(json_object_get(r->meta, "datadir"));
	return 0;
}

/* ---- the command ---- */

static int parse(struct run *r, int argc, char **argv)
{
	char err[1024];
	int ret;

	server_cfg_defaults(&r->o.srv);
	ret = opts_parse(run_table, &r->o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, run_table);
		return 1;
	}
	if (ret < 0)
		return fail(ret, err), -EINVAL;
	if (r->o.resume && r->o.out)
		return fail(-EINVAL, "--resume and --out both given: a resumed run goes on in its own folder"), -EINVAL;
	if (r->o.srv.dsn && !r->o.srv.restart_cmd)
		return fail(-EINVAL, "--dsn needs --restart-cmd: every sweep trial is cold (server restarted, caches dropped)"), -EINVAL;
	return 0;
}

/* The steps in order: server, data set, cache check, sweeps, replays, curve. */
static void plan_all(struct run *r)
{
	const char *eic = r->o.eic ? r->o.eic : r->o.quick ? RUN_EIC_QUICK : RUN_EIC;

	depths_of(eic, r->depths, sizeof(r->depths));
	r->nsteps = 0;
	plan_server(r);
	plan_load(r);
	if (!r->o.no_probe)
		plan_cache_check(r);
	plan_sweeps(r, eic);
	if (!r->o.no_probe) {
		plan_replays(r);
		plan_curve(r);
	}
}

/* The verdict: report.md, report.html and the plots, printed too. */
static int finish(struct run *r)
{
	char err[2048], note[1024];
	int ret;

	fprintf(stderr, "\n== eicbench run: the verdict\n");
	ret = verdict_folder(r->dir, stdout, note, sizeof(note), err, sizeof(err));
	if (ret < 0)
		return fail(ret, err);
	fprintf(stderr, "\nWritten to %s: report.md, report.html%s%s\n", r->dir, note[0] ? "; " : "", note);
	return 0;
}


int cmd_run(int argc, char **argv)
{
	struct run r = { 0 };
	char err[2048];
	int ret = parse(&r, argc, argv), from = 0;

	if (ret != 0)
		return ret == 1 ? 0 : EXIT_BAD_INPUT;
	cli_catch_stop(true);
	ret = r.o.resume ? load_resume(&r, err, sizeof(err)) : 0;
	if (ret == 0)
		ret = resolve(&r, err, sizeof(err));
	if (ret == 0 && !r.o.resume) {
		ret = record_dir_create(NULL, "run", r.o.out, r.dir, sizeof(r.dir), err, sizeof(err));
		if (ret == -EEXIST)
			ret = -EINVAL;
		if (ret == 0)
			ret = lock_hold_folder(r.dir, err, sizeof(err));
	}
	if (ret < 0) {
		json_decref(r.meta);
		return fail(ret, err);
	}
	plan_all(&r);
	if (!r.o.resume)
		ret = write_meta(&r, argc + 2, argv - 2, err, sizeof(err));	/* see cmd.h */
	else if ((from = resume_point(&r)) < 0)
		ret = from;
	if (ret < 0) {
		json_decref(r.meta);
		return fail(ret, err);
	}
	fprintf(stderr, "eicbench run: %d steps%s; records in %s\n", r.nsteps - from,
		from ? " left" : "", r.dir);
	ret = run_steps(&r, from);
	if (ret == 0)
		ret = finish(&r);
	json_decref(r.meta);
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
	.summary = "the whole suite: data set, cold sweeps, replays, device curve, verdict",
	.forms = run_forms,
	.description =
	"The whole suite in one command and one result folder, each step a command of its own writing a subfolder: the managed cluster (made when the data directory holds none, and started), or the --dsn server made cold with --restart-cmd; the data set (reused when the same rows and seed are there); the check for caches below this machine; for each query the cold sweep, then the replay of its heap blocks outside the database (plain reads, PostgreSQL's posix_fadvise window at every swept value, io_uring at the same depths); the device's own curve; and the verdict.\n\n"
	"The verdict is one value for the data set's tablespace: the smallest value indistinguishable from the fastest in every query, else the value whose worst ratio to a query's fastest is least, with what each query pays for it; beside it the device's knee and the SQL that applies it. A query whose sweep is not separated makes the answer provisional, and the report says why.\n\n"
	"One line per step says which step of how many, the time so far and an estimate of what is left. After Ctrl-C or a failure, --resume goes on from the first step not done.",
	.examples = run_examples,
	.files = "results/<UTC>-run/\tmeta.json (the steps and their state), cache-check/, sweep-QUERY/, replay-QUERY/, device/, report.md, report.html and the plots",
	.see_also = "report sweep probe load server",
	.guide = "eicbench run",
};
