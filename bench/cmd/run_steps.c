/*
 * run_steps: the steps of `eicbench run` (see run.h), each a library call
 * with the configuration struct its own command builds: the managed
 * cluster made and started (bench/pg/), the data set (bench/dataset/), the
 * check for caches below and the device curve (bench/probe/), the cold
 * sweeps (bench/sweep/runner.h with the bitmap-scan workload, and the
 * replay workload beside it unless --no-probe).
 * What each shows is what its command shows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cli/progress.h"
#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cmd/probe_show.h"
#include "bench/cmd/run.h"
#include "bench/dataset/dataset.h"
#include "bench/dataset/query.h"
#include "bench/pg/cluster.h"
#include "bench/pg/lock.h"
#include "bench/probe/probe_cache.h"
#include "bench/probe/probe_rel.h"
#include "bench/report/report.h"
#include "bench/sweep/runner.h"
#include "bench/workloads/workload_bitmap.h"
#include "bench/workloads/workload_replay.h"
#include "io/clock.h"

static int say_fail(const char *cmd, int ret, const char *err)
{
	return cmd_fail(cmd, ret, err);
}

/* ---- the server ---- */

static int step_init(struct run *r, struct step *st)
{
	struct server_init_opts io = { .listen = r->o.srv.listen };
	struct server s;
	char err[4096];
	int ret = server_resolve(&r->o.srv, &s, err, sizeof(err));

	(void)st;
	if (ret == 0)
		ret = server_init(&s, &io, err, sizeof(err));
	if (ret == 0)
		cmd_server_said_init(&s, io.listen);
	if (ret == 0)
		ret = lock_hold_cluster(&s, err, sizeof(err));
	return ret < 0 ? say_fail("server init", ret, err) : 0;
}

static int step_start(struct run *r, struct step *st)
{
	struct server s;
	char err[4096];
	double t0 = clock_now_ms();
	int ret = cluster_take(&r->o.srv, &s, CLUSTER_START | CLUSTER_RECOVER, "server", err, sizeof(err));

	(void)st;
	if (ret < 0)
		return say_fail("server start", ret, err);
	cmd_server_said_start(&s, clock_now_ms() - t0);
	return 0;
}

/* ---- the data set ---- */

static int step_load(struct run *r, struct step *st)
{
	struct dataset_cfg dc = { .rows = r->o.rows, .seed = (uint64_t)r->o.seed,
		.recipe = RECIPE_FAST, .tablespace_dir = r->o.tablespace_dir, .stop = &cli_stopped };
	struct dataset_info info;
	struct progress bar;
	struct server s;
	char err[4096] = "";
	int ret = cluster_take(&r->o.srv, &s, CLUSTER_DB | CLUSTER_RECOVER, "load", err, sizeof(err));

	(void)st;
	if (ret < 0)
		return say_fail("load", ret, err);
	progress_init(&bar, stderr);
	ret = dataset_load(&s, &dc, cmd_load_progress, &bar, &info, err, sizeof(err));
	progress_end(&bar);
	if (ret < 0)
		return say_fail("load", ret, err);
	cmd_load_said(&info, false);
	return 0;
}

/* ---- the probes ---- */

static int step_probe(struct run *r, struct step *st)
{
	struct probe_plan plan = { 0 };
	struct probe_out out = { 0 };
	struct probe_show show;
	struct probe_hooks hooks;
	char err[PATH_MAX + 1024];
	int ret = probe_plan_make(&st->probe, &plan, err, sizeof(err));

	if (ret < 0)
		return say_fail("probe", ret, err);
	probe_show_hooks(&show, &plan, &hooks);
	if (st->probe.relation)
		ret = probe_rel_run(&st->probe, &plan, &hooks, r->argc, r->argv, &out, err, sizeof(err));
	else
		ret = probe_cache_dataset(&st->probe, &plan, r->argc, r->argv, &out, err, sizeof(err));
	ret = probe_show_end(ret, &plan, &out, err);
	probe_out_free(&out);
	return ret;
}

/* ---- the sweeps ---- */

static int finish_sweep(const char *dir, char *err, size_t errlen)
{
	return report_sweep_finish(dir, stdout, err, errlen);
}

/* The configuration of one query's sweep, as `sweep --race --replay` builds it. */
struct one_sweep {
	struct bitmap_cfg  b;
	struct replay_wcfg w;
};

static void sweep_cfg(const struct run *r, const struct step *st, struct runner *rn,
		      struct one_sweep *one)
{
	one->b = (struct bitmap_cfg){ .force_bitmap = true, .no_cache_check = !r->o.no_probe };
	rn->stop = &cli_stopped;
	rn->cfg = (struct runner_cfg){
		.srv = r->o.srv, .workload = &workload_bitmap, .wcfg = &one->b, .command = "sweep",
		.runs = (int)r->o.runs, .max_runs = (int)r->o.max_runs, .budget_s = r->o.budget_s,
		/* racing, decided with the run's other queries, round by round */
		.race = true, .prime = true, .margin = (double)r->o.margin_pct / 100,
		.include_forced = r->o.include_forced, .weights = r->weights.n ? &r->weights : NULL,
		.keep_page_reporting = r->o.keep_page_reporting,
		.peers = (const char *const *)st->peers, .npeers = st->npeers, .refine = r->refine,
		.out = st->resume ? NULL : st->out, .resume = st->resume ? st->out : NULL,
		.plan_given = !st->resume,
		/* in each round, after a cold cycle of its own, the replay of
		 * each value's heap reads: the device's side of its trials (a
		 * Seq Scan's or parallel workers' reads are not one backend's
		 * bitmap reads: none) */
		.companion = r->o.no_probe || !query_replayable(st->query) ? NULL : &workload_replay, .ccfg = &one->w,
		.companion_all = r->o.replay,
	};
}

static const struct step *first_sweep(const struct run *r)
{
	for (int i = 0; i < r->nsteps; i++)
		if (run_step_is_sweep(&r->steps[i]))
			return &r->steps[i];
	return NULL;
}

/* The run's sweeps, one per query, their rounds taken in turn (the first
 * sweep step runs them all; see plan_sweeps). A sweep begun before (its
 * folder has a meta.json) goes on with its own resume. */
static int step_sweep(struct run *r, struct step *st)
{
	struct runner rn[RUN_MAX_QUERIES];
	struct one_sweep one[RUN_MAX_QUERIES];
	struct step *sw[RUN_MAX_QUERIES];
	char err[4096];
	int n = 0, which = 0, ret = 0;

	if (st != first_sweep(r)) {
		fprintf(stderr, "eicbench run: %s ran in the rounds of the first sweep step, query by query in turn\n",
			st->name);
		return 0;
	}
	memset(rn, 0, sizeof(rn));
	memset(one, 0, sizeof(one));
	for (int i = 0; i < r->nsteps; i++)
		if (run_step_is_sweep(&r->steps[i]) && n < RUN_MAX_QUERIES) {
			struct step *s = sw[n] = &r->steps[i];
			char meta[sizeof(s->out) + 16];
			struct stat sb;

			snprintf(meta, sizeof(meta), "%s/%s", s->out, RECORD_META);
			s->resume = stat(meta, &sb) == 0;
			sweep_cfg(r, s, &rn[n], &one[n]);
			n++;
		}
	for (int i = 0; ret == 0 && i < n; i++)
		if (!sw[i]->resume) {
			ret = sweep_grid_add_eic(&rn[i].cfg.grid, r->eic, err, sizeof(err));
			if (ret == 0)
				ret = query_load(sw[i]->query, &one[i].b.q, err, sizeof(err));
			which = i;
		}
	if (ret == 0) {
		ret = runner_main_joint(rn, n, r->argc, r->argv, finish_sweep, &which, err, sizeof(err));
		ret = cmd_runner_end(&rn[which], ret, err, false);	/* the run says how to go on */
	} else
		ret = say_fail("sweep", ret, err);
	for (int i = 0; i < n; i++) {
		query_free(&one[i].b.q);
		replay_wcfg_free(&one[i].w);
		json_decref(one[i].b.refs);
		json_decref(one[i].b.cache_check);
	}
	return ret;
}

/* ---- the plan ---- */

bool run_step_is_server(const struct step *s)
{
	return s->run == step_init || s->run == step_start;
}

bool run_step_is_sweep(const struct step *s)
{
	return s->run == step_sweep;
}

static struct step *add(struct run *r, const char *name, const char *sub,
			int (*fn)(struct run *, struct step *))
{
	struct step *s = &r->steps[r->nsteps++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->sub, sizeof(s->sub), "%s", sub);
	snprintf(s->out, sizeof(s->out), "%s/%s", r->dir, sub);
	s->run = fn;
	return s;
}

/* A probe step over the run's server, writing into its subfolder. */
static struct step *add_probe(struct run *r, const char *name, const char *sub)
{
	struct step *s = add(r, name, sub, step_probe);

	s->probe = (struct probe_cfg){ .srv = r->o.srv, .out = s->out, .seed = -1,
		.keep_page_reporting = r->o.keep_page_reporting, .stop = &cli_stopped };
	s->probe.srv.listen = NULL;		/* a probe neither makes nor restarts a server */
	s->probe.srv.restart_cmd = NULL;
	return s;
}

static void plan_server(struct run *r)
{
	struct stat st;
	char marker[PATH_MAX];

	if (r->o.srv.dsn)
		return;
	snprintf(marker, sizeof(marker), "%s/eicbench.json", r->o.srv.datadir);
	if (stat(marker, &st) < 0)
		add(r, "create the managed cluster", "", step_init);
	add(r, "start the server", "", step_start);
}

/* A first guess at one query's sweep, for the run's ETA before any trial
 * has been timed: --runs rounds of every value, the replay trials (beside
 * every value's in round 1, then beside three values', or beside every
 * trial with --replay), a priming trial, and the warm timing of the
 * replay's work per page (seven warm runs, about five cold queries' time).
 * A trial is a cold cycle (about 1 s) and the query at the pace of the
 * project's test machines (the class's own figure, query.c). */
static double sweep_estimate_s(const struct run *r, const char *query)
{
	const struct query_class *qc = query_class_of(query);
	double per_1e8 = qc ? qc->per_1e8_s : 10;
	double query_s = per_1e8 * (double)r->o.rows / 1e8;
	int values = 1, replays = !r->o.no_probe && query_replayable(query);
	double trials;

	for (const char *p = r->eic; *p; p++)
		values += *p == ',';
	trials = (double)r->o.runs * values;
	if (replays)
		trials += r->o.replay ? trials : values + 3 * ((double)r->o.runs - 1);
	return (trials + 1) * (1 + query_s) + (replays ? 5 * query_s : 0);
}

/* One sweep per query, each racing with all the others as peers. Their
 * rounds are taken in turn (a round of each, then each decided), so the
 * first step runs them all and the others only mark them done: a query
 * raced alone would drop values by itself that another query needs. */
static void plan_sweeps(struct run *r)
{
	struct step *all[RUN_MAX_QUERIES];

	for (int q = 0; q < r->nqueries; q++) {
		char name[64], sub[64];

		snprintf(name, sizeof(name), "sweep %s", r->queries[q]);
		snprintf(sub, sizeof(sub), "sweep-%s", r->queries[q]);
		all[q] = add(r, name, sub, step_sweep);
		all[q]->query = r->queries[q];
		all[0]->estimate_s += sweep_estimate_s(r, r->queries[q]);
		/* racing adds rounds until the answer is decided */
		all[0]->open_ended = r->o.max_runs > r->o.runs;
		if (q)
			all[q]->estimate_s = 0.001;	/* done in the first one's rounds: no time of its own */
	}
	for (int q = 0; q < r->nqueries; q++)
		for (int k = 0; k < r->nqueries; k++)
			if (k != q)
				all[q]->peers[all[q]->npeers++] = all[k]->out;
	if (r->nqueries > 1) {
		char name[sizeof(all[0]->name)] = "sweeps";

		for (int q = 0; q < r->nqueries; q++)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s", q ? ", " : " ",
				 r->queries[q]);
		snprintf(name + strlen(name), sizeof(name) - strlen(name), ", round by round");
		snprintf(all[0]->name, sizeof(all[0]->name), "%s", name);
	}
}

/* The device's own curve: random reads of the data set's blocks, O_DIRECT
 * through io_uring; a first look (--quick) takes 3 s a point, not waiting
 * for steady. */
static void plan_curve(struct run *r)
{
	struct step *s = add_probe(r, "the device's curve", "device");
	const char *depths = r->o.depths ? r->o.depths : r->o.quick ? RUN_DEPTHS_QUICK : RUN_DEPTHS;

	s->probe.relation = "test";
	s->probe.pattern = "random";
	s->probe.engine = "io_uring";
	s->probe.direct = true;
	s->probe.depth = depths;
	s->probe.steady = !r->o.quick;
	s->probe.duration = r->o.quick ? 3 : 30;
	s->estimate_s = (r->o.quick ? 3 : 15) * (double)(strlen(depths) - strlen(depths) / 2);
}

/* Every probe step's options checked as its plan will take them. */
static int check_probes(const struct run *r, char *err, size_t errlen)
{
	for (int i = 0; i < r->nsteps; i++) {
		struct probe_plan p = { 0 };

		if (r->steps[i].run == step_probe && probe_plan_make(&r->steps[i].probe, &p, err, errlen) < 0)
			return -EINVAL;
	}
	return 0;
}

int run_plan_steps(struct run *r, char *err, size_t errlen)
{
	struct step *s;

	r->nsteps = 0;
	plan_server(r);
	s = add(r, "the data set", "", step_load);
	s->estimate_s = (double)r->o.rows / 1.5e6;
	if (!r->o.no_probe) {
		s = add_probe(r, "check for caches below", "cache-check");
		s->probe.cache_check = true;
		s->estimate_s = 15;
	}
	plan_sweeps(r);
	if (!r->o.no_probe)
		plan_curve(r);
	return check_probes(r, err, errlen);
}
