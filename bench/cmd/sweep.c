/*
 * cmd_sweep: "eicbench sweep": the cold effective_io_concurrency experiment
 * (or any grid of settings) with the bitmap-scan workload on the shared
 * runner (bench/sweep/runner.h): options into the runner's and the workload's
 * configuration, then the runner, then the report.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/report/report.h"
#include "bench/sweep/runner.h"
#include "bench/workloads/workload_bitmap.h"
#include "bench/workloads/workload_replay.h"


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
	bool until_separated, allow_override, no_cache_check, replay, keep_page_reporting;
	long long max_runs;
	double budget_s;
	long long sample_ms;
	bool race, prime;
	long long margin_pct;
	struct opt_list peers;
	const char *refine;
};

static const struct opt_desc sweep_table[] = {
	SERVER_OPTS(struct sweep_opts, srv),
	{ "eic", OPT_STR, offsetof(struct sweep_opts, eic), 0, 0, "LIST",
	  SWEEP_DEFAULT_EIC, "effective_io_concurrency values (shorthand for --set effective_io_concurrency=LIST)" },
	{ "set", OPT_LIST, offsetof(struct sweep_opts, set), 0, 0, "NAME=V1,V2",
	  NULL, "vary a setting too (repeatable: several make a grid)" },
	{ "runs", OPT_INT, offsetof(struct sweep_opts, runs), 1, 1000, "N", "3",
	  "rounds: every combination runs once per round" },
	{ "query", OPT_STR, offsetof(struct sweep_opts, query), 0, 0, "CLASS|FILE",
	  "blog", "a query class (" QUERY_PRESETS ") or a file holding one SELECT" },
	{ "out", OPT_OUT, offsetof(struct sweep_opts, out), 0, 0, "DIR",
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
	  "after --runs rounds, add rounds until the recommendation is separated (docs/judging.md) or --max-runs / --budget ends" },
	{ "max-runs", OPT_INT, offsetof(struct sweep_opts, max_runs), 1, 1000, "N", "10",
	  "with --until-separated: rounds at most (at least --runs)" },
	{ "budget", OPT_SECONDS, offsetof(struct sweep_opts, budget_s), 0, 7 * 86400, "TIME", "none",
	  "with --until-separated: start no new round after this much time (e.g. 30m, 2h; at most 7 days)" },
	{ "allow-override", OPT_FLAG, offsetof(struct sweep_opts, allow_override), 0, 0, NULL, NULL,
	  "sweep even when the relation's tablespace sets its own effective_io_concurrency" },
	{ "no-cache-check", OPT_FLAG, offsetof(struct sweep_opts, no_cache_check), 0, 0, NULL, NULL,
	  "skip the check for caches below this machine before the first trial" },
	{ "keep-page-reporting", OPT_FLAG, offsetof(struct sweep_opts, keep_page_reporting), 0, 0, NULL, NULL,
	  "leave the host's free page reporting on during cold trials (paused by default where a balloon takes free memory back: docs/commands.md)" },
	{ "replay", OPT_FLAG, offsetof(struct sweep_opts, replay), 0, 0, NULL, NULL,
	  "in each round, a replay trial for each query trial, in an order of its own: the query's heap reads issued on the table's files as PostgreSQL issues them at that value, cold" },
	{ "sample-ms", OPT_INT, offsetof(struct sweep_opts, sample_ms), 10, 10000, "MS", "10",
	  "how often the device and the backend are sampled during the query" },
	{ "race", OPT_FLAG, offsetof(struct sweep_opts, race), 0, 0, NULL, NULL,
	  "after each round from the third, drop the values that cannot be the answer; stop when it is decided or at --max-runs / --budget" },
	{ "margin", OPT_INT, offsetof(struct sweep_opts, margin_pct), 1, 50, "PCT", "10",
	  "a value is as good as the fastest when its time is shown within this many percent of it" },
	{ "prime", OPT_FLAG, offsetof(struct sweep_opts, prime), 0, 0, NULL, NULL,
	  "run one untimed priming trial before the first recorded one (recorded as priming, never counted)" },
	{ "refine", OPT_STR, offsetof(struct sweep_opts, refine), 0, 0, "LADDER",
	  NULL, "with --race: after each round from the third, the values next to the leading one on LADDER (e.g. 0,1,2,4,8,16,32,64) that the grid lacks join it" },
	{ "peer", OPT_LIST, offsetof(struct sweep_opts, peers), 0, 0, "DIR",
	  NULL, "with --race: a finished sweep of another query whose records the decision takes too (repeatable)" },
	{ 0 }
};

#define USAGE "eicbench sweep [--datadir DIR] [--eic LIST] [--runs N] [--query CLASS|FILE]\n" \
	"                      [--set NAME=V1,V2 ...] [--out DIR] [--resume DIR] [--warm] [--until-separated]"


static int sweep_failed(int ret, const char *err)
{
	return cmd_fail("sweep", ret, err);
}

static int build_grid(const struct sweep_opts *o, struct sweep_grid *g, char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	if ((o->eic || o->set.n == 0) &&
	    sweep_grid_add_eic(g, o->eic ? o->eic : SWEEP_DEFAULT_EIC, err, errlen) < 0)
		return -EINVAL;
	for (int i = 0; i < o->set.n; i++) {
		if (sweep_grid_add(g, o->set.v[i], err, errlen) < 0) {
			if (o->eic && !strncmp(o->set.v[i], SWEEP_EIC "=", strlen(SWEEP_EIC) + 1))
				snprintf(err, errlen, "--eic and --set %s=... both given; give one", SWEEP_EIC);
			return -EINVAL;
		}
	}
	return 0;
}

/* --max-runs and --budget belong to --until-separated; --max-runs >= --runs. */
static int check_rounds(struct sweep_opts *o, char *err, size_t errlen)
{
	long long runs = o->runs ? o->runs : 3;

	if (!o->until_separated && !o->race && (o->max_runs || o->budget_s > 0)) {
		snprintf(err, errlen, "--%s only counts with --until-separated or --race; give one, or leave it out",
			 o->max_runs ? "max-runs" : "budget");
		return -EINVAL;
	}
	if (!o->race && o->refine) {
		snprintf(err, errlen, "--refine '%s' only counts with --race; give that too, or leave it out", o->refine);
		return -EINVAL;
	}
	if (o->refine) {
		int ladder[SWEEP_MAX_VALUES];

		if (sweep_eic_ladder("--refine", o->refine, ladder, err, errlen) < 0)
			return -EINVAL;
	}
	if (!o->race && o->peers.n) {
		snprintf(err, errlen, "--peer '%s' only counts with --race; give that too, or leave it out", o->peers.v[0]);
		return -EINVAL;
	}
	if (o->max_runs && o->max_runs < runs) {
		snprintf(err, errlen, "--max-runs %lld is below --runs %lld; give at least %lld",
			 o->max_runs, runs, runs);
		return -EINVAL;
	}
	if ((o->until_separated || o->race) && !o->max_runs)
		o->max_runs = runs > 10 ? runs : 10;
	return 0;
}

/* Options into the runner's and the workload's configuration. */
static int configure(struct sweep_opts *o, struct runner *r, struct bitmap_cfg *b,
		     struct replay_wcfg *w, char *err, size_t errlen)
{
	int ret = check_rounds(o, err, errlen);

	if (ret == 0 && o->resume && o->out) {
		snprintf(err, errlen, "--resume and --out both given: a resumed sweep writes into its own folder");
		return -EINVAL;
	}
	r->cfg = (struct runner_cfg){
		.srv = o->srv, .workload = &workload_bitmap, .wcfg = b, .command = "sweep",
		.runs = o->runs ? (int)o->runs : 3, .order_seed = o->order_seed >= 0 ? (uint64_t)o->order_seed : 0,
		.order_seed_given = o->order_seed >= 0,
		.warm = o->warm, .keep_page_reporting = o->keep_page_reporting, .until_separated = o->until_separated, .max_runs = (int)o->max_runs,
		.budget_s = o->budget_s, .out = o->out, .resume = o->resume,
		.plan_given = o->eic || o->set.n || o->runs || o->order_seed >= 0,
		.companion = o->replay ? &workload_replay : NULL, .ccfg = w, .companion_all = true,
		.find_workload = workload_find,
		.race = o->race, .prime = o->prime, .margin = o->margin_pct ? (double)o->margin_pct / 100 : 0,
		.peers = o->peers.v, .npeers = o->peers.n, .refine = o->refine,
	};
	r->stop = &cli_stopped;
	*b = (struct bitmap_cfg){ .jit = o->jit, .force_bitmap = !o->no_force,
		.allow_override = o->allow_override, .sample_ms = (int)o->sample_ms,
		.no_cache_check = o->no_cache_check };
	if (ret == 0 && (!o->resume || r->cfg.plan_given))
		ret = build_grid(o, &r->cfg.grid, err, errlen);
	if (ret == 0 && (!o->resume || o->query))
		ret = query_load(o->query ? o->query : "blog", &b->q, err, errlen);
	/* a class whose scan this version's setting does not govern: refused
	 * before the server is touched */
	const struct query_class *qc = ret == 0 && o->query ? query_class_of(o->query) : NULL;

	if (qc && qc->min_major && !o->resume) {
		struct server s;
		char why[256];

		if (server_resolve(&o->srv, &s, err, errlen) == 0 &&
		    !query_governed(o->query, server_major_of(&s), why, sizeof(why))) {
			snprintf(err, errlen, "--query %s: %s (%d and later apply it): the class measures nothing the setting changes there",
				 o->query, why, qc->min_major);
			ret = -EINVAL;
		}
	}
	if (ret == 0 && o->replay && o->query && !query_replayable(o->query)) {
		snprintf(err, errlen, "--replay with --query %s: a replay issues one backend's bitmap heap reads, and this class reads through a %s; give a class read by one backend's bitmap scan (" QUERY_BITMAP_CLASSES ") or leave --replay out",
			 o->query, query_scan_name(query_class_of(o->query)->scan));
		ret = -EINVAL;
	}
	return ret;
}

static int finish(const char *dir, char *err, size_t errlen)
{
	return report_sweep_finish(dir, stdout, err, errlen);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts o = { .order_seed = -1 };
	struct bitmap_cfg b = { 0 };
	struct replay_wcfg w = { 0 };
	struct runner r = { 0 };
	char err[4096];
	int ret;

	server_cfg_defaults(&o.srv);
	ret = opts_parse(sweep_table, &o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, sweep_table);
		return 0;
	}
	if (ret == 0)
		ret = configure(&o, &r, &b, &w, err, sizeof(err));
	if (ret < 0) {
		query_free(&b.q);
		return sweep_failed(ret, err);
	}
	cli_catch_stop(true);
	ret = runner_main(&r, argc + 2, argv - 2, finish, err, sizeof(err));	/* see cmd.h */
	ret = cmd_runner_end(&r, ret, err, true);
	query_free(&b.q);
	replay_wcfg_free(&w);
	json_decref(b.refs);
	json_decref(b.cache_check);
	return ret;
}

static const struct man_form sweep_forms[] = { { NULL, USAGE, sweep_table }, { 0 } };

static const struct man_example sweep_examples[] = {
	{ "eicbench sweep --datadir data/pg --query sparse --runs 6 --until-separated",
	  "The sparse query at the 11 default values, 6 cold runs each, then more rounds until the result is separated (10 rounds at most)." },
	{ "eicbench sweep --datadir data/pg18 --eic 0,16,64 --set io_method=sync,worker,io_uring --runs 6",
	  "On PostgreSQL 18, three values under each io_method (a restart setting, written with ALTER SYSTEM and put back at the end)." },
	{ "eicbench sweep --resume results/20261201T101500Z-sweep",
	  "Finish an interrupted sweep: the trials not yet recorded, nothing twice." },
	{ 0 }
};

const struct man_page cmd_sweep_page = {
	.name = "sweep",
	.summary = "the cold experiment: EXPLAIN ANALYZE per setting, device watched",
	.forms = sweep_forms,
	.description =
	"The experiment itself: the post's bitmap heap scan, cold, every value of effective_io_concurrency (and of any setting given with --set) in several rounds, each round in an order shuffled from a recorded seed. Each trial puts the values in place, stops the server, syncs, drops the page cache, starts it, and runs EXPLAIN (ANALYZE, BUFFERS, SETTINGS, FORMAT JSON) of the query while a second thread samples the device under the data directory, the CPUs and the backend.\n\n"
	"The Bitmap Heap Scan is split into its index phase (the bitmap index scans) and its heap phase (the part effective_io_concurrency acts on up to 17), each with its own device and CPU figures. Before the first trial every value is checked with the server and the plan is checked; every trial's plan is compared with the first's, and one that differs is left out of every figure.\n\n"
	"Each finished trial is appended to trials.jsonl and fsync'd; Ctrl-C keeps every finished trial, and --resume runs the rest of the plan. Settings are journaled and put back at the end, also after Ctrl-C; after a crash, the next eicbench command on that server puts them back.",
	.examples = sweep_examples,
	.files = "results/<UTC>-sweep/\tmeta.json, trials.jsonl, summary.csv, report.md, report.html, sweep.svg and sweep.png",
	.see_also = "run report load server",
	.guide = "eicbench sweep",
};
